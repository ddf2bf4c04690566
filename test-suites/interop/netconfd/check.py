#!/usr/bin/python3
"""NETCONF conformance check with ncclient, the Python NETCONF client most tools are built on.

Checks what the interop tests rely on, each against the RFC that defines it: the hello and the
RFC 6242 framings, the RFC 6241 operations and their error-tags (Appendix A), locks, the
candidate datastore and confirmed commits, RFC 6022 monitoring and get-schema, the RFC 7895
module list, RFC 5277 notifications with replay and the RFC 6470 config-change event, RFC 6243
with-defaults, and example-jukebox data when the server has the module. A check of a
capability the server does not announce is skipped. Prints one line per check and ends with
'N passed, N failed, N skipped'; exits 1 when a check failed.

The server comes from NETCONF_HOST (127.0.0.1), NETCONF_PORT (830), NETCONF_USER (netconf) and
NETCONF_PASSWORD (netconf), or the options of the same names. It leaves no data behind: the
interfaces it makes are named chk*, and it removes the jukebox it writes.

Run it with Debian's /usr/bin/python3 (python3-ncclient).
"""
import argparse
import datetime
import os
import sys
import time

import paramiko
from lxml import etree
from ncclient import manager
from ncclient.operations import RPCError
from ncclient.transport.session import NetconfBase
from ncclient.xml_ import to_ele

NC = "urn:ietf:params:xml:ns:netconf:base:1.0"
IF = "urn:ietf:params:xml:ns:yang:ietf-interfaces"
IANAIFT = "urn:ietf:params:xml:ns:yang:iana-if-type"
MON = "urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"
YLIB = "urn:ietf:params:xml:ns:yang:ietf-yang-library"
NOTIF = "urn:ietf:params:xml:ns:netconf:notification:1.0"
NCEVENT = "urn:ietf:params:xml:ns:netmod:notification"
WITH_DEFAULTS = "urn:ietf:params:xml:ns:netconf:default:1.0"
JB = "http://example.com/ns/example-jukebox"
CAP = "urn:ietf:params:netconf:capability:"

PREFIX = "chk"  # names of the interfaces the checks make, so that a rerun can remove leftovers
IF_FILTER = ("subtree", '<interfaces xmlns="%s"/>' % IF)


class Skip(Exception):
    """The server does not announce what the check needs."""


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    env = os.environ.get
    ap.add_argument("--host", default=env("NETCONF_HOST", "127.0.0.1"))
    ap.add_argument("--port", type=int, default=int(env("NETCONF_PORT", "830")))
    ap.add_argument("--user", default=env("NETCONF_USER", "netconf"))
    ap.add_argument("--password", default=env("NETCONF_PASSWORD", "netconf"))
    ap.add_argument("-k", dest="only", action="append", default=[], help="run only the checks whose name has this")
    ap.add_argument("--wait", type=float, metavar="SECONDS",
                    help="only wait until the server answers a hello, for at most SECONDS; exit 1 if it does not")
    return ap.parse_args()


ARGS = parse_args()


def connect():
    return manager.connect(host=ARGS.host, port=ARGS.port, username=ARGS.user, password=ARGS.password,
                           hostkey_verify=False, allow_agent=False, look_for_keys=False, timeout=30)


def parse(reply):
    return etree.fromstring(reply.xml.encode())


def expect_error(tag, call, *args, **kwargs):
    """Runs an operation that must fail with `tag` (RFC 6241 Appendix A); returns the error."""
    try:
        call(*args, **kwargs)
    except RPCError as e:
        errors = e.errlist or [e]
        tags = [x.tag for x in errors]
        assert tag in tags, "expected error-tag %s, got %s: %s" % (tag, tags, e.message)
        return next(x for x in errors if x.tag == tag)
    raise AssertionError("expected error-tag %s, got a reply" % tag)


def has(m, capability):
    return any(c.startswith(capability) for c in m.server_capabilities)


def interface(name, operation=None, body=""):
    op = ' nc:operation="%s"' % operation if operation else ""
    if operation not in ("delete", "remove"):
        body = '<type xmlns:ianaift="%s">ianaift:ethernetCsmacd</type>%s' % (IANAIFT, body)
    return ('<config xmlns="%s" xmlns:nc="%s"><interfaces xmlns="%s"><interface%s><name>%s</name>%s</interface>'
            "</interfaces></config>" % (NC, NC, IF, op, name, body))


def names(m, datastore):
    data = parse(m.get_config(datastore, filter=IF_FILTER))
    return [e.text for e in data.iterfind(".//{%s}interface/{%s}name" % (IF, IF))]


def target(m):
    return "candidate" if has(m, CAP + "candidate") else "running"


def edit(m, config, **kwargs):
    """Edits the target datastore and, with a candidate, commits (RFC 6241 sections 7.2, 8.3)."""
    m.edit_config(target=target(m), config=config, **kwargs)
    if target(m) == "candidate":
        m.commit()


def need(m, capability):
    if not has(m, capability):
        raise Skip("no %s" % capability)


CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


# ---------------------------------------------------------------- session and framing (RFC 6241 8.1, RFC 6242)


@check
def hello_announces_both_base_versions(m):
    for base in ("urn:ietf:params:netconf:base:1.0", "urn:ietf:params:netconf:base:1.1"):
        assert base in m.server_capabilities, "the hello lacks " + base
    assert int(m.session_id) > 0, "session-id %r" % m.session_id
    return "session-id %s, %d capabilities" % (m.session_id, len(list(m.server_capabilities)))


@check
def base_1_1_session_uses_chunked_framing(m):
    assert m._session._base == NetconfBase.BASE_11, "ncclient fell back to base:1.0"
    return "ncclient negotiated base:1.1"


@check
def base_1_0_client_gets_end_of_message_framing(m):
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect(ARGS.host, ARGS.port, ARGS.user, ARGS.password, allow_agent=False, look_for_keys=False,
                   timeout=30)
    try:
        channel = client.get_transport().open_session()
        channel.settimeout(20)
        channel.invoke_subsystem("netconf")
        received = read_until(channel, b"", b"]]>]]>")
        channel.sendall(b'<hello xmlns="%s"><capabilities><capability>urn:ietf:params:netconf:base:1.0'
                        b"</capability></capabilities></hello>]]>]]>" % NC.encode())
        # netconfd leaves an <rpc> that arrives in the same read as the <hello> unanswered.
        time.sleep(0.2)
        channel.sendall(b'<rpc message-id="7" xmlns="%s"><get-config><source><running/></source>'
                        b"</get-config></rpc>]]>]]>" % NC.encode())
        reply = read_until(channel, received.split(b"]]>]]>", 1)[1], b"]]>]]>")
        assert b'message-id="7"' in reply and b"<rpc-reply" in reply, reply[:200]
        return "the reply ends with ]]>]]>"
    finally:
        client.close()


def read_until(channel, received, end):
    while end not in received:
        data = channel.recv(65536)
        assert data, "the server closed the channel"
        received += data
    return received


# ---------------------------------------------------------------- retrieval (RFC 6241 7.1, 7.7, 6; RFC 6022)


@check
def get_config_reads_every_datastore(m):
    datastores = ["running"] + [d for d in ("candidate", "startup") if has(m, CAP + d)]
    for d in datastores:
        assert parse(m.get_config(d)).find("{%s}data" % NC) is not None, "no <data> from " + d
    return ", ".join(datastores)


@check
def get_with_subtree_filter_returns_the_sessions(m):
    data = parse(m.get(filter=("subtree", '<netconf-state xmlns="%s"><sessions/></netconf-state>' % MON)))
    ids = [e.text for e in data.iterfind(".//{%s}session/{%s}session-id" % (MON, MON))]
    assert str(m.session_id) in ids, "own session %s not in %s" % (m.session_id, ids)
    assert data.find(".//{%s}schemas" % MON) is None, "the filter let other nodes through"
    return "%d session(s)" % len(ids)


@check
def get_with_xpath_filter_selects_nodes(m):
    need(m, CAP + "xpath")
    data = parse(m.get(filter=("xpath", ({"mon": MON}, "/mon:netconf-state/mon:datastores/mon:datastore/mon:name"))))
    found = [e.text for e in data.iter("{%s}name" % MON)]
    assert "running" in found, found
    return "datastores " + ", ".join(found)


@check
def get_schema_returns_module_text(m):
    data = parse(m.get(filter=("subtree", '<netconf-state xmlns="%s"><schemas/></netconf-state>' % MON)))
    listed = {(s.findtext("{%s}identifier" % MON), s.findtext("{%s}version" % MON))
              for s in data.iterfind(".//{%s}schema" % MON)}
    version = next((v for i, v in listed if i == "ietf-interfaces"), None)
    assert version is not None, "netconf-state/schemas does not list ietf-interfaces"
    text = m.get_schema("ietf-interfaces", version=version).data
    assert "module ietf-interfaces" in text, text[:200]
    return "%d schemas listed; ietf-interfaces@%s" % (len(listed), version)


@check
def yang_library_lists_the_modules(m):
    data = parse(m.get(filter=("subtree", '<modules-state xmlns="%s"/>' % YLIB)))
    assert data.findtext(".//{%s}module-set-id" % YLIB), "no module-set-id"
    modules = [e.text for e in data.iterfind(".//{%s}module/{%s}name" % (YLIB, YLIB))]
    assert "ietf-interfaces" in modules, modules
    return "%d modules" % len(modules)


# ---------------------------------------------------------------- edit-config (RFC 6241 7.2)


@check
def edit_config_merges_creates_replaces_and_deletes(m):
    edit(m, interface(PREFIX + "0", "merge", "<description>merged</description>"))
    edit(m, interface(PREFIX + "1", "create"))
    edit(m, interface(PREFIX + "1", "replace", "<description>replaced</description>"))
    data = parse(m.get_config("running", filter=IF_FILTER))
    descriptions = {i.findtext("{%s}name" % IF): i.findtext("{%s}description" % IF)
                    for i in data.iterfind(".//{%s}interface" % IF)}
    assert descriptions.get(PREFIX + "0") == "merged", descriptions
    assert descriptions.get(PREFIX + "1") == "replaced", descriptions
    edit(m, interface(PREFIX + "1", "delete"))
    edit(m, interface(PREFIX + "missing", "remove"))  # remove of a missing node is no error
    assert PREFIX + "1" not in names(m, "running")
    return "in " + target(m)


@check
def create_of_an_existing_node_is_data_exists(m):
    expect_error("data-exists", m.edit_config, target=target(m), config=interface(PREFIX + "0", "create"))
    return "data-exists"


@check
def delete_of_a_missing_node_is_data_missing(m):
    expect_error("data-missing", m.edit_config, target=target(m), config=interface(PREFIX + "missing", "delete"))
    return "data-missing"


@check
def unknown_element_is_refused(m):
    config = ('<config xmlns="%s"><interfaces xmlns="%s"><interface><name>%s0</name><no-such-leaf>1</no-such-leaf>'
              "</interface></interfaces></config>" % (NC, IF, PREFIX))
    e = expect_error("unknown-element", m.edit_config, target=target(m), config=config)
    discard(m)
    return "unknown-element, error-info %s" % (e.info or "").strip()[:80]


@check
def unknown_namespace_is_refused(m):
    config = '<config xmlns="%s"><top xmlns="urn:example:no-such-module"/></config>' % NC
    expect_error("unknown-namespace", m.edit_config, target=target(m), config=config)
    return "unknown-namespace"


@check
def wrong_value_is_invalid_value(m):
    e = expect_error("invalid-value", m.edit_config, target=target(m),
                     config=interface(PREFIX + "0", "merge", "<enabled>maybe</enabled>"))
    discard(m)
    return "invalid-value at %s" % (e.path or "").strip()


@check
def rollback_on_error_undoes_the_whole_edit(m):
    need(m, CAP + "rollback-on-error")
    config = interface(PREFIX + "2", "create").replace(
        "</interfaces>", '<interface nc:operation="create"><name>%s0</name></interface></interfaces>' % PREFIX)
    expect_error("data-exists", m.edit_config, target=target(m), config=config, error_option="rollback-on-error")
    assert PREFIX + "2" not in names(m, target(m)), "the first part of the edit stayed"
    return "the create before the failed one was undone"


def discard(m):
    if target(m) == "candidate":
        m.discard_changes()


# ---------------------------------------------------------------- locks (RFC 6241 7.5, 7.6)


@check
def lock_is_exclusive(m):
    m.lock("running")
    try:
        with connect() as other:
            e = expect_error("lock-denied", other.lock, "running")
            holder = etree.fromstring(e.info.encode()).findtext(".//{%s}session-id" % NC) if e.info else None
            assert holder == str(m.session_id), "error-info names session %s, not %s" % (holder, m.session_id)
    finally:
        m.unlock("running")
    expect_error("operation-failed", m.unlock, "running")
    return "lock-denied names the holder; unlocking a lock not held is operation-failed"


# ---------------------------------------------------------------- candidate and commit (RFC 6241 8.3, 8.4)


@check
def candidate_edits_stay_until_commit(m):
    need(m, CAP + "candidate")
    m.edit_config(target="candidate", config=interface(PREFIX + "3", "create"))
    assert PREFIX + "3" in names(m, "candidate"), "the edit is not in candidate"
    assert PREFIX + "3" not in names(m, "running"), "the edit is in running before the commit"
    m.discard_changes()
    assert PREFIX + "3" not in names(m, "candidate"), "discard-changes left the edit"
    m.edit_config(target="candidate", config=interface(PREFIX + "3", "create"))
    m.commit()
    assert PREFIX + "3" in names(m, "running"), "the commit did not reach running"
    return "discard-changes, then commit"


@check
def validate_accepts_a_valid_candidate(m):
    need(m, CAP + "validate")
    m.edit_config(target="candidate", config=interface(PREFIX + "7", "create"))
    m.validate(source="candidate")
    # No commit after it: netconfd then commits nothing (see the interop README).
    m.discard_changes()
    return "ok"


@check
def confirmed_commit_rolls_back_after_its_timeout(m):
    need(m, CAP + "confirmed-commit")
    m.edit_config(target="candidate", config=interface(PREFIX + "4", "create"))
    m.commit(confirmed=True, timeout="2")
    committed = time.time()
    assert PREFIX + "4" in names(m, "running")
    # netconfd runs its timers only after a second in which no session sent anything: poll slowly.
    while time.time() - committed < 30:
        time.sleep(2.5)
        if PREFIX + "4" not in names(m, "running"):
            return "rolled back %.0f s after a 2 s confirmed commit" % (time.time() - committed)
    raise AssertionError("running still has the edit 30 s after a 2 s confirmed commit")


@check
def persisted_confirmed_commit_is_confirmed_or_cancelled_by_persist_id(m):
    need(m, CAP + "confirmed-commit:1.1")
    token = "%s-%d" % (PREFIX, os.getpid())
    for name, finish in ((PREFIX + "5", "confirm"), (PREFIX + "6", "cancel")):
        with connect() as first:
            first.edit_config(target="candidate", config=interface(name, "create"))
            first.commit(confirmed=True, timeout="60", persist=token + name)
        # With persist, the commit outlives the session that made it.
        with connect() as second:
            assert name in names(second, "running"), "the confirmed commit ended with its session"
            if finish == "confirm":
                expect_error("invalid-value", second.commit, persist_id="wrong-" + token)
                second.commit(persist_id=token + name)
            else:
                second.cancel_commit(persist_id=token + name)
    kept = names(m, "running")
    assert PREFIX + "5" in kept and PREFIX + "6" not in kept, kept
    return "confirmed from another session; cancel-commit restored running"


@check
def copy_config_saves_running_to_startup(m):
    need(m, CAP + "startup")
    m.copy_config(source="running", target="startup")
    assert PREFIX + "0" in names(m, "startup")
    return "startup has the running interfaces"


# ---------------------------------------------------------------- with-defaults (RFC 6243)


@check
def report_all_adds_default_values(m):
    need(m, CAP + "with-defaults")
    flt = ("subtree", '<interfaces xmlns="%s"><interface><name>%s0</name></interface></interfaces>' % (IF, PREFIX))
    enabled = parse(m.get_config("running", filter=flt, with_defaults="report-all")).find(".//{%s}enabled" % IF)
    assert enabled is not None and enabled.text == "true", "report-all lacks enabled=true"
    tagged = parse(m.get_config("running", filter=flt, with_defaults="report-all-tagged"))
    if "report-all-tagged" in next(c for c in m.server_capabilities if c.startswith(CAP + "with-defaults")):
        assert tagged.find(".//{%s}enabled" % IF).get("{%s}default" % WITH_DEFAULTS) == "true"
    return "enabled=true reported"


# ---------------------------------------------------------------- notifications (RFC 5277, RFC 6470)


def wait_for(subscriber, wanted, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        n = subscriber.take_notification(block=True, timeout=max(0.1, deadline - time.time()))
        if n is None:
            break
        xml = n.notification_xml
        xml = xml.decode() if isinstance(xml, bytes) else xml
        if wanted in xml:
            return xml
    raise AssertionError("no %s within %d s" % (wanted, seconds))


@check
def commit_sends_netconf_config_change(m):
    need(m, CAP + "notification")
    with connect() as subscriber:
        subscriber.create_subscription()
        # :interleave lets the subscribed session go on with other operations.
        if has(m, CAP + "interleave"):
            subscriber.get_config("running", filter=IF_FILTER)
        edit(m, interface(PREFIX + "0", "merge", "<description>%d</description>" % time.time()))
        event = etree.fromstring(wait_for(subscriber, "netconf-config-change").encode())
        assert event.findtext("{%s}eventTime" % NOTIF), "no eventTime"
    return "received"


@check
def replay_ends_with_replay_complete(m):
    need(m, CAP + "notification")
    streams = parse(m.get(filter=("subtree", '<netconf xmlns="%s"><streams/></netconf>' % NCEVENT)))
    replay = streams.findtext(".//{%s}stream/{%s}replaySupport" % (NCEVENT, NCEVENT))
    if replay != "true":
        raise Skip("the NETCONF stream has no replay")
    start = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with connect() as subscriber:
        subscriber.create_subscription(start_time=start)
        wait_for(subscriber, "replayComplete")
    return "replayComplete after the stored events"


# ---------------------------------------------------------------- other operations (RFC 6241 7.9, 4.3)


@check
def kill_session_ends_another_session(m):
    victim = connect()
    m.kill_session(victim.session_id)
    deadline = time.time() + 10
    while victim.connected and time.time() < deadline:
        time.sleep(0.1)
    assert not victim.connected, "the killed session is still open"
    expect_error("invalid-value", m.kill_session, m.session_id)
    return "killed; killing the own session is invalid-value"


@check
def unknown_operation_is_refused(m):
    try:
        m.dispatch(to_ele('<no-such-operation xmlns="urn:example:no-such-module"/>'))
    except RPCError as e:
        tags = [x.tag for x in e.errlist or [e]]
        allowed = {"operation-not-supported", "unknown-element", "unknown-namespace"}
        assert allowed & set(tags), tags
        return ", ".join(tags)
    raise AssertionError("an unknown operation was answered")


# ---------------------------------------------------------------- example-jukebox (RFC 8040 Appendix A.1)


@check
def jukebox_library_and_playlist_round_trip(m):
    if not any(c.startswith(JB) for c in m.server_capabilities):
        raise Skip("no example-jukebox")
    song = ("/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo Fighters']/jbox:album[jbox:name='Wasting Light']"
            "/jbox:song[jbox:name='Rope']")
    # The instance-identifier's prefix is declared on an ancestor: netconfd refuses it on the leaf.
    config = ('<config xmlns="%s"><jukebox xmlns="%s" xmlns:jbox="%s"><library><artist><name>Foo Fighters</name>'
              "<album><name>Wasting Light</name><genre>jbox:alternative</genre><year>2011</year>"
              "<song><name>Rope</name><location>/media/rope.mp3</location><format>MP3</format><length>259</length>"
              "</song></album></artist></library><playlist><name>Foo-One</name><song><index>1</index><id>%s</id>"
              "</song></playlist></jukebox></config>" % (NC, JB, JB, song))
    edit(m, config)
    data = parse(m.get_config("running", filter=("subtree", '<jukebox xmlns="%s"/>' % JB)))
    assert data.findtext(".//{%s}album/{%s}year" % (JB, JB)) == "2011"
    stored = data.find(".//{%s}playlist/{%s}song/{%s}id" % (JB, JB, JB))
    prefix = stored.text.split(":", 1)[0].lstrip("/")
    assert stored.nsmap.get(prefix) == JB, "the id %s does not name the jukebox namespace" % stored.text
    remove_jukebox(m)
    return "album and instance-identifier read back"


def remove_jukebox(m):
    if any(c.startswith(JB) for c in m.server_capabilities):
        edit(m, '<config xmlns="%s" xmlns:nc="%s"><jukebox xmlns="%s" nc:operation="remove"/></config>' % (NC, NC, JB))


def remove_interfaces(m):
    discard(m)
    for name in [n for n in names(m, "running") if n.startswith(PREFIX)]:
        m.edit_config(target=target(m), config=interface(name, "delete"))
    if target(m) == "candidate":
        m.commit()


# ---------------------------------------------------------------- running


def wait_for_hello(seconds):
    deadline = time.time() + seconds
    while True:
        try:
            with connect():
                return 0
        except Exception:
            if time.time() > deadline:
                return 1
            time.sleep(0.3)


def main():
    if ARGS.wait is not None:
        return wait_for_hello(ARGS.wait)
    started = time.time()
    m = connect()
    remove_interfaces(m)
    remove_jukebox(m)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for fn in CHECKS:
        name = fn.__name__.replace("_", " ")
        if ARGS.only and not any(k in name for k in ARGS.only):
            continue
        at = time.time()
        try:
            outcome, detail = "PASS", fn(m)
        except Skip as e:
            outcome, detail = "SKIP", str(e)
        except Exception as e:  # an assertion, an unexpected rpc-error or a lost session
            outcome, detail = "FAIL", "%s: %s" % (type(e).__name__, " ".join(str(e).split())[:300])
            if not m.connected:
                m = connect()
            discard(m)
        counts[outcome] += 1
        print("%s %s: %s (%.1f s)" % (outcome, name, detail, time.time() - at), flush=True)
    remove_interfaces(m)
    remove_jukebox(m)
    m.close_session()
    print("%.0f s" % (time.time() - started))
    print("%d passed, %d failed, %d skipped" % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
