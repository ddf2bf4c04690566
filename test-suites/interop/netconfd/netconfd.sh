#!/usr/bin/env bash
# A real NETCONF server for the interop tests: yuma123 netconfd from Debian's packages, reached
# through a loopback-only OpenSSH sshd that offers the `netconf` subsystem (RFC 6242).
#
#   netconfd.sh start [MODULE.yang ...]   installs what is missing, starts the server (or finds
#                                         it running with the same settings) and prints them
#   netconfd.sh stop                      stops the two processes `start` recorded
#
# `start` prints NETCONF_HOST, NETCONF_PORT, NETCONF_USER, NETCONF_PASSWORD and
# NETCONF_PRIVATE_KEY as NAME=value lines on stdout, for `eval` or as a dotenv file; messages go
# to stderr. It must run as root: it installs packages, adds the user and runs netconfd as it.
# netconfd always loads ietf-interfaces and the repository's example-jukebox; more module files
# can be given.
#
# Environment (default):
#   NETCONF_PORT (8830), NETCONF_USER (netconf), NETCONF_PASSWORD (netconf)
#   NETCONFD_STATE_DIR (/tmp/yangkit-netconfd)  configuration, keys, datastore, logs, process ids
#   NETCONFD_FRESH (unset)                      1: restart even when the same server is up
set -euo pipefail
umask 022

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
host=127.0.0.1
port=${NETCONF_PORT:-8830}
user=${NETCONF_USER:-netconf}
password=${NETCONF_PASSWORD:-netconf}
state=${NETCONFD_STATE_DIR:-/tmp/yangkit-netconfd}
srv=$state/srv # netconfd's own files, owned by $user
# Debian's python3: python3-ncclient is installed for it, not for a python3 earlier on PATH.
python=/usr/bin/python3
packages=(netconfd netconfd-module-ietf-interfaces python3-ncclient openssh-server)

say() { echo "netconfd.sh: $*" >&2; }
die() {
  say "$*"
  exit 1
}

# The start time of a process (field 22 of /proc/PID/stat), so that a recorded id that the
# system gave to another process since is never signalled.
started_at() { awk '{ print $22 }' "/proc/$1/stat" 2>/dev/null || true; }
# Is process $1 still the one that started at $2, and not a zombie?
is_ours() { [ -n "$2" ] && [ "$(started_at "$1")" = "$2" ] && ! grep -q '^State:.*zombie' "/proc/$1/status"; }
# $state/pids has a "name pid start-time" line for each process `start` launched.
all_running() {
  [ -s "$state/pids" ] || return 1
  while read -r _ pid since; do is_ours "$pid" "$since" || return 1; done <"$state/pids"
}

stop_recorded() {
  [ -s "$state/pids" ] || return 0
  # sshd first, so that no session starts while netconfd shuts down (which takes 1-3 s).
  for name in sshd netconfd; do
    while read -r recorded pid since; do
      [ "$recorded" = "$name" ] && is_ours "$pid" "$since" || continue
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 100); do is_ours "$pid" "$since" || break; sleep 0.1; done
      if is_ours "$pid" "$since"; then kill -KILL "$pid" 2>/dev/null || true; fi
    done <"$state/pids"
  done
  rm -f "$state/pids" "$state/fingerprint"
}

lock_state() {
  # The state folder is in /tmp: refuse one that someone else made.
  if [ -e "$state" ] && { [ -L "$state" ] || [ "$(stat -c %u "$state")" != 0 ]; }; then
    die "$state is not a folder of root's; remove it or set NETCONFD_STATE_DIR"
  fi
  mkdir -p "$state"
  exec 9>"$state/lock"
  flock -w 300 9 || die "another netconfd.sh holds $state/lock"
}

install_packages() {
  local missing=() p status=0 policy=/usr/sbin/policy-rc.d added_policy=
  for p in "${packages[@]}"; do
    dpkg-query -W -f '${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] && return
  say "installing ${missing[*]} (log: $state/apt.log)"
  # The packages' scripts must not start services: a system-wide sshd on port 22, or netconfd.
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' >$policy
    chmod 755 $policy
    added_policy=1
  fi
  {
    apt-get -o DPkg::Lock::Timeout=300 update &&
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}"
  } >"$state/apt.log" 2>&1 || status=$?
  [ -n "$added_policy" ] && rm -f $policy
  if [ $status != 0 ]; then
    tail -n 20 "$state/apt.log" >&2
    die "apt-get could not install ${missing[*]}"
  fi
}

print_settings() {
  printf '%s\n' "NETCONF_HOST=$host" "NETCONF_PORT=$port" "NETCONF_USER=$user" \
    "NETCONF_PASSWORD=$password" "NETCONF_PRIVATE_KEY=$state/client/id_ed25519"
}

# Waits until the server answers a NETCONF <hello> through sshd (check.py --wait).
wait_for_hello() {
  NETCONF_HOST=$host NETCONF_PORT=$port NETCONF_USER=$user NETCONF_PASSWORD=$password \
    "$python" "$here/check.py" --wait "$1" >/dev/null 2>&1
}

start() {
  [ "$(id -u)" = 0 ] || die "start must run as root (it installs packages, adds a user, runs sshd)"
  case $port in '' | *[!0-9]*) die "NETCONF_PORT must be a number" ;; esac
  case $state in /*) ;; *) die "NETCONFD_STATE_DIR must be an absolute path" ;; esac
  case $user in root | '') die "NETCONF_USER must be a user of its own, not root" ;; esac
  local modules=("$here/../../../yang/examples/example-jukebox@2016-08-15.yang" "$@") m
  for m in "${modules[@]}"; do [ -r "$m" ] || die "cannot read the module file $m"; done

  lock_state
  install_packages
  id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$user"
  # sshd runs the subsystem through the user's login shell.
  case $(getent passwd "$user" | cut -d: -f7) in */nologin | */false | '') usermod --shell /bin/sh "$user" ;; esac
  echo "$user:$password" | chpasswd
  local group
  group=$(id -gn "$user")

  local args=(
    --ncxserver-sockname="$srv/ncxserver.sock"
    --port="$port" # netconfd closes SSH sessions that came in on a port it does not list
    --target=candidate
    --with-startup=true --startup="$srv/data/startup-cfg.xml"
    --superuser="$user" # NACM applies to every other user
    --max-burst=0       # no limit of 10 notifications a second, which slows a replay
    --yuma-home="$srv" --home="$srv/home" --modpath="$srv/modules"
    --log-level=info
    --module=ietf-interfaces
  )
  for m in "${modules[@]}"; do args+=(--module="$srv/modules/$(basename "$m")"); done
  local fingerprint
  fingerprint=$({
    printf '%s\n' "${args[@]}" "$user" "$password"
    sha256sum "${modules[@]}" "${BASH_SOURCE[0]}"
  } | sha256sum | cut -d' ' -f1)

  if [ "${NETCONFD_FRESH:-}" != 1 ] && all_running && [ "$(cat "$state/fingerprint" 2>/dev/null)" = "$fingerprint" ] &&
    wait_for_hello 5; then
    print_settings
    return
  fi
  stop_recorded
  if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then die "another program listens on $host:$port"; fi

  # The ietf-interfaces plugin runs this helper for each interface and aborts netconfd when it
  # is missing; Debian's package lacks it. It prints the interface's ietf-ip IPv4 addresses.
  mkdir -p "$state/bin"
  cat >"$state/bin/get-interface-ipv4" <<'EOF'
#!/bin/sh
command -v ip >/dev/null 2>&1 || exit 0
ip -4 -o addr show dev "$1" 2>/dev/null | awk '
  { for (i = 1; i < NF; i++) if ($i == "inet") { split($(i + 1), a, "/")
      out = out "<address><ip>" a[1] "</ip><prefix-length>" a[2] "</prefix-length></address>" } }
  END { if (out != "") print "<ipv4 xmlns=\"urn:ietf:params:xml:ns:yang:ietf-ip\">" out "</ipv4>" }'
exit 0
EOF
  chmod 755 "$state/bin/get-interface-ipv4"

  # A fresh start begins with empty datastores.
  rm -rf "$srv"
  mkdir -p "$srv/data" "$srv/home" "$srv/modules"
  cp "${modules[@]}" "$srv/modules/"
  echo '<config xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"/>' >"$srv/data/startup-cfg.xml"
  chown -R "$user:$group" "$srv"

  # Host keys are kept across starts, so that clients that pinned one still connect.
  local ssh=$state/ssh t
  mkdir -p "$ssh" "$state/client" "$state/authorized_keys"
  chmod 700 "$ssh" "$state/client"
  for t in ed25519 ecdsa rsa; do
    [ -s "$ssh/host_${t}_key" ] || ssh-keygen -q -t $t -N '' -C netconfd-host -f "$ssh/host_${t}_key"
  done
  [ -s "$state/client/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C netconfd-client -f "$state/client/id_ed25519"
  install -m 644 "$state/client/id_ed25519.pub" "$state/authorized_keys/$user"
  cat >"$ssh/sshd_config" <<EOF
ListenAddress $host:$port
HostKey $ssh/host_ed25519_key
HostKey $ssh/host_ecdsa_key
HostKey $ssh/host_rsa_key
PidFile none
AllowUsers $user
PermitRootLogin no
PasswordAuthentication yes
KbdInteractiveAuthentication yes
PubkeyAuthentication yes
AuthorizedKeysFile $state/authorized_keys/%u
# The key file is in /tmp, which every user may write to.
StrictModes no
UsePAM yes
DisableForwarding yes
PermitTTY no
PrintMotd no
UseDNS no
# The tests open many sessions at once, and many channels on one connection.
MaxStartups 100:30:200
MaxSessions 64
Subsystem netconf /usr/sbin/netconf-subsystem --ncxserver-sockname=$port@$srv/ncxserver.sock
EOF
  mkdir -p /run/sshd # sshd's privilege separation folder
  /usr/sbin/sshd -t -f "$ssh/sshd_config" || die "sshd refuses $ssh/sshd_config"

  # Both run in sessions of their own, detached from the caller; 9>&- keeps our lock out of them.
  (cd "$srv" && exec setsid env -i PATH="$state/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$srv/home" LANG=C.UTF-8 \
    setpriv --reuid="$user" --regid="$group" --init-groups /usr/sbin/netconfd "${args[@]}") \
    </dev/null >"$srv/netconfd.log" 2>&1 9>&- &
  echo "netconfd $! $(started_at $!)" >"$state/pids"
  (exec setsid /usr/sbin/sshd -D -f "$ssh/sshd_config" -E "$ssh/sshd.log") </dev/null >/dev/null 2>&1 9>&- &
  echo "sshd $! $(started_at $!)" >>"$state/pids"

  if ! wait_for_hello 60; then
    tail -n 20 "$srv/netconfd.log" | sed 's/^/  netconfd.log: /' >&2
    tail -n 5 "$ssh/sshd.log" | sed 's/^/  sshd.log: /' >&2
    stop_recorded
    die "no NETCONF <hello> on $host:$port within 60 s"
  fi
  echo "$fingerprint" >"$state/fingerprint"
  print_settings
}

stop() {
  [ -d "$state" ] || return 0
  lock_state
  stop_recorded
}

case ${1:-} in
start)
  shift
  start "$@"
  ;;
stop) stop ;;
*) die "usage: netconfd.sh start [MODULE.yang ...] | stop" ;;
esac
