import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  basicAuth,
  type LoginRefusal,
  type PasswordCheck,
  type PasswordVerdict,
  singleUserCheck,
} from '../src/basic-auth.js';
import { LoginThrottle } from '../src/security/login-throttle.js';

/** Serves `in` to the requests `check` lets in; resolves with its URL and a stop. */
async function serve(check: PasswordCheck, throttle = new LoginThrottle()) {
  const refusals: LoginRefusal[] = [];
  const login = basicAuth({ check, throttle, onRefused: (_req, _res, r) => refusals.push(r) });
  const server: Server = createServer((req, res) => {
    void login(req, res).then((user) => {
      if (user !== undefined) res.end(`in as ${user}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    refusals,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('basicAuth with one user', () => {
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    // No throttle in the way of the property below, which sends many wrong credentials.
    s = await serve(singleUserCheck('admin', 'pä:ss'), new LoginThrottle({ failuresPerAddress: 1e6 }));
  });
  afterAll(() => s.stop());

  test('lets in a password with a colon and non-ASCII characters', async () => {
    const r = await fetch(s.url, { headers: { Authorization: basic('admin:pä:ss') } });
    expect(await r.text()).toBe('in as admin');
  });

  test('refuses another scheme with a challenge and tells why', async () => {
    const r = await fetch(s.url, { headers: { Authorization: 'Bearer abc' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="restconf"/);
    expect(s.refusals.at(-1)).toMatchObject({ reason: 'no-credentials', user: undefined });
  });

  test('refuses a user name that only starts like the right one as invalid credentials', async () => {
    expect((await fetch(s.url, { headers: { Authorization: basic('admin2:pä:ss') } })).status).toBe(401);
    expect(s.refusals.at(-1)).toMatchObject({ reason: 'invalid-credentials', user: 'admin2' });
  });

  test('answers 401 or lets in, and nothing else, for any Authorization header', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary-ascii', maxLength: 200 }), async (header) => {
        const value = header.replace(/[\r\n\0]/g, '');
        let status: number;
        try {
          status = (await fetch(s.url, { headers: { Authorization: value } })).status;
        } catch {
          // fetch itself refuses some header values before sending.
          return;
        }
        expect(status === 200 || status === 401).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe('basicAuth throttled', () => {
  test('answers 429 with Retry-After once the address used its failures, without checking', async () => {
    let checks = 0;
    const s = await serve(
      (user, password) => {
        checks++;
        return singleUserCheck('alice', 'right')(user, password);
      },
      new LoginThrottle({ failuresPerAddress: 2 }),
    );
    try {
      for (let i = 0; i < 2; i++)
        expect((await fetch(s.url, { headers: { Authorization: basic(`alice:wrong${i}`) } })).status).toBe(
          401,
        );
      const r = await fetch(s.url, { headers: { Authorization: basic('alice:wrong2') } });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(checks).toBe(2);
      expect(s.refusals.at(-1)).toMatchObject({ reason: 'throttled', user: 'alice' });
    } finally {
      await s.stop();
    }
  });

  test('lets in credentials verified before while their address is throttled', async () => {
    const s = await serve(singleUserCheck('alice', 'right'), new LoginThrottle({ failuresPerAddress: 1 }));
    try {
      expect((await fetch(s.url, { headers: { Authorization: basic('alice:right') } })).status).toBe(200);
      expect((await fetch(s.url, { headers: { Authorization: basic('alice:wrong') } })).status).toBe(401);
      expect((await fetch(s.url, { headers: { Authorization: basic('alice:wrong') } })).status).toBe(429);
      expect((await fetch(s.url, { headers: { Authorization: basic('alice:right') } })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  test('lets requests with the same credentials share one check', async () => {
    let checks = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = await serve(async (user, password) => {
      checks++;
      await gate;
      return singleUserCheck('alice', 'right')(user, password);
    });
    try {
      const answers = Array.from({ length: 8 }, () =>
        fetch(s.url, { headers: { Authorization: basic('alice:right') } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      expect((await Promise.all(answers)).map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(checks).toBe(1);
    } finally {
      await s.stop();
    }
  });

  test('answers 503 with Retry-After when the check is too busy', async () => {
    const s = await serve(() => Promise.resolve<PasswordVerdict>('busy'));
    try {
      const r = await fetch(s.url, { headers: { Authorization: basic('alice:right') } });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(await r.json()).toMatchObject({
        'ietf-restconf:errors': { error: [{ 'error-tag': 'resource-denied' }] },
      });
    } finally {
      await s.stop();
    }
  });
});
