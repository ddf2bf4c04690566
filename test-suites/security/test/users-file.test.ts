import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, errorsBody, type Server, startServer } from './harness.js';
import { addUser } from './process.js';

// Issue 12, authentication: `restconf-gateway add-user` writes scrypt hashes to a users file;
// the gateway started with --users-file lets in those users only and challenges the others.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
let dir: string;
let file: string;
let s: Server;

function basic(user: string, password: string): Record<string, string> {
  return {
    Accept: DATA_JSON,
    Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'yangkit-users-'));
  file = path.join(dir, 'users');
  expect((await addUser(['--users-file', file, 'alice'], 'wonderland')).code).toBe(0);
  expect((await addUser([`--users-file=${file}`, 'bob'], 'builder')).code).toBe(0);
  s = await startServer({ usersFile: file });
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('users file', () => {
  test('add-user stores scrypt hashes, never the password, in a file only its owner can read', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^alice:scrypt\$32768\$8\$1\$/m);
    expect(text).toMatch(/^bob:scrypt\$/m);
    expect(text).not.toContain('wonderland');
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  test('add-user without a user name exits 2 with the usage', async () => {
    const r = await addUser(['--users-file', file], 'x');
    expect(r.code).toBe(2);
    expect(r.out).toContain('usage: restconf-gateway add-user');
  });

  test('a request without credentials gets 401 with a Basic challenge and an errors body', async () => {
    const r = await s.fetch(JUKEBOX, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="restconf"/);
    expect(errorsBody(await r.text(), r.headers.get('content-type'))).toBeDefined();
  });

  test('a wrong password and an unknown user both get 401', async () => {
    expect((await s.fetch(JUKEBOX, { headers: basic('alice', 'builder') })).status).toBe(401);
    expect((await s.fetch(JUKEBOX, { headers: basic('mallory', 'wonderland') })).status).toBe(401);
  });

  test('each user of the file is let in with its own password', async () => {
    expect((await s.fetch(JUKEBOX, { headers: basic('alice', 'wonderland') })).status).toBe(200);
    expect((await s.fetch(JUKEBOX, { headers: basic('bob', 'builder') })).status).toBe(200);
  });

  test('add-user again replaces the password of an existing user', async () => {
    expect((await addUser(['--users-file', file, 'bob'], 'rebuilt')).code).toBe(0);
    const again = await startServer({ usersFile: file });
    try {
      expect((await again.fetch(JUKEBOX, { headers: basic('bob', 'builder') })).status).toBe(401);
      expect((await again.fetch(JUKEBOX, { headers: basic('bob', 'rebuilt') })).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
