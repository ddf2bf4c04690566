import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ConcurrencyLimit } from '@yangkit/restconf-server';
import type { PasswordCheck, PasswordVerdict } from '../basic-auth.js';
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

/** scrypt checks of passwords run at once at most (each takes a thread of libuv's pool). */
export const CONCURRENT_PASSWORD_CHECKS = 2;
/** Password checks that may wait for a free slot; a login past them is answered 503. */
export const QUEUED_PASSWORD_CHECKS = 32;

/**
 * A hash no password matches (its key is zeros) with the cost parameters of `like`, or of
 * {@link hashPassword}: checking a password against it costs what checking a real one does.
 */
function decoyHash(like: string | undefined): string {
  const m = /^scrypt\$(\d{1,7}\$\d{1,3}\$\d{1,3})\$/.exec(like ?? '');
  const salt = Buffer.alloc(16).toString('base64');
  return `scrypt$${m?.[1] ?? `${N}$${R}$${P}`}$${salt}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
}

/**
 * The password check of a users file. A user name that is not in the file is checked against a
 * decoy hash with the parameters of the file's first user, so that an answer takes as long, and
 * costs as much, whether the user exists or not. At most {@link CONCURRENT_PASSWORD_CHECKS} run
 * at once and {@link QUEUED_PASSWORD_CHECKS} wait; past those the verdict is `busy`.
 * `onCheck` is told of each scrypt check started.
 */
export function usersFileCheck(users: ReadonlyMap<string, string>, onCheck?: () => void): PasswordCheck {
  const decoy = decoyHash(users.values().next().value);
  const limit = new ConcurrencyLimit(CONCURRENT_PASSWORD_CHECKS, QUEUED_PASSWORD_CHECKS);
  return (user, password) => {
    const hash = users.get(user);
    const verdict = limit.run(async (): Promise<PasswordVerdict> => {
      onCheck?.();
      const matches = await verifyPassword(hash ?? decoy, password);
      return matches && hash !== undefined ? 'valid' : 'invalid';
    });
    return verdict ?? Promise.resolve('busy');
  };
}
