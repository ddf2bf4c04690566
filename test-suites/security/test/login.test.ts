import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials, metricValue } from './credentials.js';
import { DATA_JSON, type Server, startServer } from './harness.js';

// Logins against a users file of real scrypt hashes (N=2^15, as add-user writes them), over
// HTTP/1.1 from several loopback addresses (127.0.0.0/8 all reach the server on 127.0.0.1):
// an unknown user costs a password check like a known one, an attacker's failures slow its
// address and not the user's other logins, and failed logins are counted and audited.
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const PASSWORDS = {
  admin: 'metrics-reader',
  alice: 'wonderland',
  bob: 'builder',
  carol: 'singer',
  dave: 'diver',
  erin: 'engineer',
};
/**
 * Bound on a login that must not wait behind an attack. Generous for a loaded 2-core machine
 * (where one check may take 0.5 s); 300 checks queued before it take 16 s even on an idle one.
 */
const PROMPT_MS = 10_000;
let creds: Credentials;
let auditLog: string;
let s: Server;

beforeAll(async () => {
  creds = makeCredentials(PASSWORDS);
  auditLog = path.join(path.dirname(creds.usersFile), 'audit.log');
  s = await startServer({ usersFile: creds.usersFile, metrics: true, monitoringUser: ['admin'], auditLog });
});
afterAll(async () => {
  await s.close();
  creds.remove();
});

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly ms: number;
}

/** A GET with `user:password` from the loopback address `from`, on a connection of its own. */
function login(
  from: string,
  user: string,
  password: string,
  target = GAP,
): Promise<Answer & { body: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(target, s.gateway.url),
      {
        localAddress: from,
        agent: false,
        headers: { Accept: DATA_JSON, Authorization: basic(user, password) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            ms: performance.now() - started,
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** One sample of `/metrics`, read as admin. */
async function metric(sample: string): Promise<number> {
  const r = await login('127.0.0.1', 'admin', PASSWORDS.admin, '/metrics');
  expect(r.status).toBe(200);
  return metricValue(r.body, sample);
}

const CHECKS = 'restconf_password_checks_total';

/** 300 wrong passwords for `user` from `from` at once; resolves with their answers. */
function hammer(from: string, user: string): Promise<Answer[]> {
  return Promise.all(Array.from({ length: 300 }, (_, i) => login(from, user, `guess-${i}`)));
}

describe('login work', () => {
  test('a wrong password for an unknown user runs one password check, as for a known user', async () => {
    const before = await metric(CHECKS);
    expect((await login('127.0.0.2', 'erin', 'wrong')).status).toBe(401);
    expect(await metric(CHECKS)).toBe(before + 1);
    expect((await login('127.0.0.2', 'mallory', 'wrong')).status).toBe(401);
    expect(await metric(CHECKS)).toBe(before + 2);
  });

  test('a correct login from another address gets in promptly while 300 wrong passwords for the user are in flight', async () => {
    const attack = hammer('127.0.0.3', 'alice');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const r = await login('127.0.0.4', 'alice', PASSWORDS.alice);
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(PROMPT_MS);
    const answers = await attack;
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.retryAfter) >= 1)).toBe(true);
  });

  test('another user gets in promptly while 300 wrong passwords for one user are in flight', async () => {
    const attack = hammer('127.0.0.5', 'bob');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const r = await login('127.0.0.6', 'carol', PASSWORDS.carol);
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(PROMPT_MS);
    await attack;
  });
});

describe('repeated failures', () => {
  test('after 10 failures an address gets 429 with Retry-After, without a password check', async () => {
    for (let i = 0; i < 10; i++) expect((await login('127.0.0.7', 'dave', `wrong-${i}`)).status).toBe(401);
    const checks = await metric(CHECKS);
    const r = await login('127.0.0.7', 'dave', 'wrong-10');
    expect(r.status).toBe(429);
    expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(r.body)).toMatchObject({
      'ietf-restconf:errors': { error: [{ 'error-tag': 'resource-denied' }] },
    });
    expect(await metric(CHECKS)).toBe(checks);
  });

  test('the throttled address does not hold back the same user from another address', async () => {
    expect((await login('127.0.0.8', 'dave', PASSWORDS.dave)).status).toBe(200);
  });

  test('credentials verified before get in from an address throttled since', async () => {
    expect((await login('127.0.0.9', 'erin', PASSWORDS.erin)).status).toBe(200);
    for (let i = 0; i < 10; i++) await login('127.0.0.9', 'erin', `wrong-${i}`);
    expect((await login('127.0.0.9', 'erin', 'wrong-10')).status).toBe(429);
    expect((await login('127.0.0.9', 'erin', PASSWORDS.erin)).status).toBe(200);
  });

  test('a user name that failed 30 times from many addresses holds back logins for it from a new address only', async () => {
    // carol logged in from 127.0.0.6 above; 5 addresses fail 6 times each, under their own budget
    // (each with guesses of its own: the same guess at the same time is checked once). 30 in all:
    // each is let in while at most 29 others have failed, whatever order they finish in.
    const statuses = await Promise.all(
      ['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4', '127.0.1.6'].map(async (from) => {
        const seen: number[] = [];
        for (let i = 0; i < 6; i++) seen.push((await login(from, 'carol', `${from}-${i}`)).status);
        return seen;
      }),
    );
    expect(statuses.flat()).toEqual(Array<number>(30).fill(401));
    const fresh = await login('127.0.1.5', 'carol', 'not-verified-before');
    expect(fresh.status).toBe(429);
    expect(Number(fresh.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await login('127.0.1.5', 'bob', PASSWORDS.bob)).status).toBe(200);
    expect((await login('127.0.0.6', 'carol', PASSWORDS.carol)).status).toBe(200);
  });
});

describe('failed logins are reported', () => {
  test('in /metrics by reason', async () => {
    const invalid = 'restconf_login_failures_total{reason="invalid-credentials"}';
    const before = await metric(invalid);
    expect((await login('127.0.0.10', 'alice', 'wrong')).status).toBe(401);
    expect(await metric(invalid)).toBe(before + 1);
    expect(await metric('restconf_login_failures_total{reason="throttled"}')).toBeGreaterThan(0);
  });

  test('in the audit log, a GET too, with the user name the credentials gave', async () => {
    await login('127.0.0.11', 'nobody-here', 'wrong');
    const lines = readFileSync(auditLog, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"nobody-here"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        audit: true,
        method: 'GET',
        user: 'nobody-here',
        remoteAddress: '127.0.0.11',
        status: 401,
        outcome: 'failure',
        errorTag: 'access-denied',
      }),
    ]);
  });
});
