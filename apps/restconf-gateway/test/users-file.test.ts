import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { hashPassword, usersFileCheck, verifyPassword } from '../src/security/users-file.js';

/** A hash in the users file format with a low cost (N=2^10), so that many checks stay fast. */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
  return `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

describe('usersFileCheck', () => {
  test('lets in a user of the file with its password only', async () => {
    const check = usersFileCheck(new Map([['alice', await hashPassword('wonderland')]]));
    expect(await check('alice', 'wonderland')).toBe('valid');
    expect(await check('alice', 'builder')).toBe('invalid');
  });

  test('runs one scrypt check for an unknown user as for a known one', async () => {
    let checks = 0;
    const check = usersFileCheck(new Map([['alice', cheapHash('wonderland')]]), () => checks++);
    expect(await check('alice', 'wrong')).toBe('invalid');
    expect(checks).toBe(1);
    expect(await check('mallory', 'wonderland')).toBe('invalid');
    expect(checks).toBe(2);
  });

  test('answers busy, without checking, once the checks waiting fill the queue', async () => {
    let checks = 0;
    const check = usersFileCheck(new Map([['alice', cheapHash('wonderland')]]), () => checks++);
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => check('alice', 'wrong')));
    // 2 run at once and 32 wait: the other 6 are refused at once.
    expect(verdicts.filter((v) => v === 'busy')).toHaveLength(6);
    expect(checks).toBe(34);
  });
});

describe('verifyPassword', () => {
  test('is false for a malformed hash', async () => {
    expect(await verifyPassword('scrypt$1$2', 'x')).toBe(false);
  });
});
