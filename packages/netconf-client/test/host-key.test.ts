import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { checkHostKey, fingerprintSha256, knownHostsName, parseKnownHosts } from '../src/host-key.js';

/** A fake key blob in SSH wire form: string type, then some bytes. */
function blob(type: string, fill: number): Buffer {
  const name = Buffer.from(type);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(name.length);
  return Buffer.concat([head, name, Buffer.alloc(32, fill)]);
}

const ed = blob('ssh-ed25519', 1);
const edOther = blob('ssh-ed25519', 2);
const rsa = blob('ssh-rsa', 3);
const line = (hosts: string, key: Buffer, type = 'ssh-ed25519') =>
  `${hosts} ${type} ${key.toString('base64')}`;

function hashed(name: string): string {
  const salt = Buffer.alloc(20, 9);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

describe('fingerprintSha256', () => {
  test('prints unpadded base64 like ssh-keygen -l', () => {
    expect(fingerprintSha256(Buffer.from('abc'))).toBe('SHA256:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0');
  });
});

describe('known_hosts', () => {
  test('names non-standard ports in brackets', () => {
    expect(knownHostsName('10.0.0.1', 830)).toBe('[10.0.0.1]:830');
    expect(knownHostsName('h', 22)).toBe('h');
  });

  test('skips comments and malformed lines', () => {
    expect(parseKnownHosts(`# comment\n\nbroken\n${line('h', ed)}\n`)).toHaveLength(1);
  });

  test('accepts a key under a hashed host name', () => {
    expect(checkHostKey({ knownHosts: line(hashed('[h]:830'), ed) }, 'h', 830, ed)).toBeUndefined();
  });

  test('accepts a key under a wildcard pattern', () => {
    expect(checkHostKey({ knownHosts: line('[10.0.0.*]:830', ed) }, '10.0.0.7', 830, ed)).toBeUndefined();
  });

  test('lets a negated pattern exclude a host', () => {
    expect(checkHostKey({ knownHosts: line('*,!bad', ed) }, 'bad', 22, ed)?.code).toBe('HOST_KEY_UNKNOWN');
  });

  test('reports a different key of the same type as HOST_KEY_MISMATCH', () => {
    expect(checkHostKey({ knownHosts: line('h', ed) }, 'h', 22, edOther)?.code).toBe('HOST_KEY_MISMATCH');
  });

  test('treats a known key of another type as unknown, like OpenSSH', () => {
    expect(checkHostKey({ knownHosts: line('h', rsa, 'ssh-rsa') }, 'h', 22, ed)?.code).toBe(
      'HOST_KEY_UNKNOWN',
    );
  });

  test('refuses a revoked key even when also listed as known', () => {
    const text = `@revoked ${line('*', ed)}\n${line('h', ed)}`;
    expect(checkHostKey({ knownHosts: text }, 'h', 22, ed)?.code).toBe('HOST_KEY_MISMATCH');
  });

  test('accepts any of several pinned fingerprints', () => {
    expect(
      checkHostKey({ fingerprint: [fingerprintSha256(edOther), fingerprintSha256(ed)] }, 'h', 22, ed),
    ).toBeUndefined();
  });

  test('accepts everything only with accept-any', () => {
    expect(checkHostKey('accept-any', 'h', 22, ed)).toBeUndefined();
  });
});
