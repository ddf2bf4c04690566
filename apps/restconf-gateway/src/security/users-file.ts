import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError } from '../errors.js';

/** scrypt cost parameters of new hashes (RFC 7914; N=2^15 is the OWASP minimum for scrypt). */
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Node refuses N=2^15 with r=8 under its 32 MiB default; give scrypt the memory it needs. */
const MAXMEM = 64 * 1024 * 1024;

/** A user name: no colon (RFC 7617 section 2), no whitespace, at most 64 characters. */
const USER = /^[^\s:]{1,64}$/;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: MAXMEM }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** Hashes a password as `scrypt$N$r$p$salt$key` (salt and key in base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `password` matches a hash made by {@link hashPassword}; false for any malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const m =
    /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/=]{1,128})\$([A-Za-z0-9+/=]{1,128})$/.exec(hash);
  if (m === null) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n > 1 << 20 || r > 32 || p > 16) return false;
  const expected = Buffer.from(m[5]!, 'base64');
  try {
    const key = await derive(password, Buffer.from(m[4]!, 'base64'), n, r, p);
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/** Reads a users file: one `user:hash` line per user; blank lines and `#` comments are skipped. */
export function readUsersFile(file: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new GatewayError('FILE', `cannot read users file ${file}`, { cause: error });
  }
  const users = new Map<string, string>();
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    const user = line.slice(0, colon);
    if (colon < 0 || !USER.test(user)) {
      throw new GatewayError('INVALID_CONFIG', `${file} line ${i + 1} is not user:hash`);
    }
    users.set(user, line.slice(colon + 1));
  }
  return users;
}

/** Adds `user` to the users file (or replaces its password), creating the file with mode 0600. */
export async function addUser(file: string, user: string, password: string): Promise<void> {
  if (!USER.test(user)) throw new GatewayError('INVALID_FLAG', `invalid user name "${user}"`);
  if (password === '') throw new GatewayError('INVALID_FLAG', 'the password is empty');
  let users = new Map<string, string>();
  try {
    users = readUsersFile(file);
  } catch (error) {
    if ((error as GatewayError).code !== 'FILE') throw error;
  }
  users.set(user, await hashPassword(password));
  const text = [...users].map(([u, h]) => `${u}:${h}\n`).join('');
  writeFileSync(file, text, { mode: 0o600 });
}

/** The RESTCONF error body of a refused login (RFC 8040 section 7: access-denied is 401). */
const DENIED = JSON.stringify({
  'ietf-restconf:errors': {
    error: [
      { 'error-type': 'protocol', 'error-tag': 'access-denied', 'error-message': 'authentication required' },
    ],
  },
});

/**
 * HTTP Basic authentication (RFC 7617) against the users of a users file. Resolves true when the
 * credentials match; otherwise answers 401 with a `WWW-Authenticate` challenge and resolves false.
 * A verified pair is remembered (as a SHA-256 digest) for a minute so that a busy client does not
 * pay one scrypt per request.
 */
export function usersAuth(
  users: ReadonlyMap<string, string>,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const verified = new Map<string, number>();
  return async (req, res) => {
    const m = /^Basic +([A-Za-z0-9+/=]{1,1024})$/i.exec(req.headers.authorization ?? '');
    if (m !== null) {
      const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const hash = colon > 0 ? users.get(decoded.slice(0, colon)) : undefined;
      if (hash !== undefined) {
        const digest = createHash('sha256').update(`${hash}\0${decoded}`).digest('base64');
        const until = verified.get(digest);
        if (until !== undefined && until > Date.now()) return true;
        if (await verifyPassword(hash, decoded.slice(colon + 1))) {
          if (verified.size > 10_000) verified.clear();
          verified.set(digest, Date.now() + 60_000);
          return true;
        }
      }
    }
    req.resume();
    res.writeHead(401, {
      'WWW-Authenticate': 'Basic realm="restconf", charset="UTF-8"',
      'Content-Type': 'application/yang-data+json',
      'Cache-Control': 'no-cache',
    });
    res.end(DENIED);
    return false;
  };
}
