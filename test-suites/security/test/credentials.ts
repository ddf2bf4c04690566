import { execFileSync } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A folder of files for one test file: a users file, a TLS certificate and key. */
export interface Credentials {
  /** `user:scrypt$...` lines, as `restconf-gateway add-user` writes them. */
  readonly usersFile: string;
  /** A self-signed certificate for 127.0.0.1 and its key (PEM files). */
  readonly tlsCert: string;
  readonly tlsKey: string;
  /** The certificate's PEM text, for clients to trust. */
  readonly ca: string;
  /** Removes the folder. */
  remove(): void;
}

/**
 * The hash `restconf-gateway add-user` stores: scrypt with N=2^15, r=8, p=1 unless `n` is given
 * (a lower cost keeps tests that only need a user fast).
 */
export function scryptHash(password: string, n = 32768): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: n, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${n}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Writes the users file of `passwords` (user name to password) and a TLS certificate with openssl. */
export function makeCredentials(passwords: Readonly<Record<string, string>>, n?: number): Credentials {
  const dir = mkdtempSync(path.join(tmpdir(), 'yangkit-security-'));
  const usersFile = path.join(dir, 'users');
  writeFileSync(
    usersFile,
    Object.entries(passwords)
      .map(([user, password]) => `${user}:${scryptHash(password, n)}\n`)
      .join(''),
    { mode: 0o600 },
  );
  const tlsCert = path.join(dir, 'cert.pem');
  const tlsKey = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      tlsKey,
      '-out',
      tlsCert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return {
    usersFile,
    tlsCert,
    tlsKey,
    ca: readFileSync(tlsCert, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The `Authorization` header of HTTP Basic credentials (RFC 7617). */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** The value of one Prometheus sample in a `/metrics` text, 0 when absent. */
export function metricValue(text: string, sample: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}
