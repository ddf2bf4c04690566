import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { NetconfError } from './errors.js';

/**
 * How the SSH server's host key is checked (RFC 6242 section 6 leaves it to SSH, RFC 4251
 * section 4.1 requires it):
 * - `{ fingerprint }`: a pinned `SHA256:<base64>` fingerprint, as `ssh-keygen -lf` prints it
 *   (several allowed for key rotation);
 * - `{ knownHostsFile }` / `{ knownHosts }`: an OpenSSH known_hosts file path or its contents
 *   (plain and hashed host names, `[host]:port`, wildcards, `@revoked`);
 * - `'accept-any'`: no check at all, only when asked for explicitly.
 */
export type HostKeyCheck =
  | 'accept-any'
  | { fingerprint: string | readonly string[] }
  | { knownHostsFile: string }
  | { knownHosts: string };

/** One line of a known_hosts file. */
export interface KnownHostEntry {
  readonly marker?: 'revoked' | 'cert-authority';
  /** Comma-separated patterns, or a hashed name `|1|salt|hash`. */
  readonly hosts: string;
  readonly keyType: string;
  readonly key: Buffer;
}

/** The OpenSSH-style fingerprint of a host key blob: `SHA256:` + unpadded base64 of its SHA-256. */
export function fingerprintSha256(keyBlob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** Parses known_hosts text (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"); malformed lines are skipped. */
export function parseKnownHosts(text: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    let marker: KnownHostEntry['marker'];
    if (fields[0] === '@revoked' || fields[0] === '@cert-authority') {
      marker = fields[0] === '@revoked' ? 'revoked' : 'cert-authority';
      fields.shift();
    }
    const [hosts, keyType, keyText] = fields;
    if (!hosts || !keyType || !keyText || !/^[A-Za-z0-9+/]+={0,2}$/.test(keyText)) continue;
    entries.push({ ...(marker && { marker }), hosts, keyType, key: Buffer.from(keyText, 'base64') });
  }
  return entries;
}

/** The name known_hosts uses for a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function wildcard(pattern: string, name: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
  return regex.test(name);
}

function hostsMatch(hosts: string, name: string): boolean {
  if (hosts.startsWith('|1|')) {
    const [, , salt, hash] = hosts.split('|');
    if (!salt || !hash) return false;
    const expected = Buffer.from(hash, 'base64');
    const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  let matched = false;
  for (const pattern of hosts.split(',')) {
    if (pattern.startsWith('!')) {
      if (wildcard(pattern.slice(1), name)) return false;
    } else if (wildcard(pattern, name)) matched = true;
  }
  return matched;
}

/**
 * Checks a presented host key blob against a policy; returns the error to fail the connection
 * with (`HOST_KEY_MISMATCH`, `HOST_KEY_UNKNOWN`), or `undefined` when the key is accepted.
 */
export function checkHostKey(
  check: Exclude<HostKeyCheck, { knownHostsFile: string }>,
  host: string,
  port: number,
  keyBlob: Buffer,
): NetconfError | undefined {
  if (check === 'accept-any') return undefined;
  const presented = fingerprintSha256(keyBlob);
  if ('fingerprint' in check) {
    const pins = typeof check.fingerprint === 'string' ? [check.fingerprint] : check.fingerprint;
    if (pins.some((pin) => pin.replace(/=+$/, '') === presented)) return undefined;
    return new NetconfError(
      'HOST_KEY_MISMATCH',
      `host key ${presented} of ${host}:${port} matches no pinned fingerprint`,
    );
  }
  const name = knownHostsName(host, port);
  const entries = parseKnownHosts(check.knownHosts).filter(
    (e) => e.marker !== 'cert-authority' && hostsMatch(e.hosts, name),
  );
  if (entries.some((e) => e.marker === 'revoked' && e.key.equals(keyBlob))) {
    return new NetconfError('HOST_KEY_MISMATCH', `host key ${presented} of ${name} is revoked`);
  }
  // Like OpenSSH, only keys of the presented type count: a known RSA key says nothing of an ed25519 one.
  const type = keyTypeOf(keyBlob);
  const known = entries.filter((e) => e.marker === undefined && e.keyType === type);
  if (known.some((e) => e.key.equals(keyBlob))) return undefined;
  if (known.length > 0) {
    return new NetconfError('HOST_KEY_MISMATCH', `host key ${presented} of ${name} differs from known_hosts`);
  }
  return new NetconfError('HOST_KEY_UNKNOWN', `no known_hosts entry for ${name} (key ${presented})`);
}

/** The key type name at the start of an SSH public key blob (RFC 4253 section 6.6). */
function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return '';
  const length = blob.readUInt32BE(0);
  return length > 64 || blob.length < 4 + length ? '' : blob.toString('latin1', 4, 4 + length);
}
