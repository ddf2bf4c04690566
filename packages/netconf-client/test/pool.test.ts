import { afterEach, describe, expect, test } from 'vitest';
import type { NetconfError } from '../src/errors.js';
import { backoffDelay, createPool, type NetconfPool } from '../src/pool.js';
import { startSshServer, type TestSshServer } from './ssh-server.js';

const servers: TestSshServer[] = [];
const pools: NetconfPool[] = [];

async function setup(netconf = {}, poolOptions = {}) {
  const server = await startSshServer({ netconf });
  servers.push(server);
  const pool = createPool({
    host: '127.0.0.1',
    port: server.port,
    username: 'u',
    password: 'secret',
    hostKey: 'accept-any',
    ...poolOptions,
  });
  pools.push(pool);
  return { server, pool };
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('backoffDelay', () => {
  test('doubles from the initial delay up to the maximum', () => {
    const delays = [0, 1, 2, 3, 10].map((n) => backoffDelay(n, { initialDelay: 100, maxDelay: 500 }));
    expect(delays).toEqual([0, 100, 200, 400, 500]);
  });
});

describe('createPool', () => {
  test('opens eight sessions as channels of one warm SSH connection', async () => {
    const { server, pool } = await setup({}, { maxSessionsPerConnection: 8 });
    const sessions = await Promise.all(Array.from({ length: 8 }, () => pool.acquire()));
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(8);
    expect(server.connections).toBe(1);
    expect(pool.stats()).toMatchObject({ connections: 1, active: 8 });
  });

  test('opens a second connection when the first is full', async () => {
    const { server, pool } = await setup({}, { maxSessionsPerConnection: 2, maxConnections: 2 });
    await Promise.all([1, 2, 3].map(() => pool.acquire()));
    expect(server.connections).toBe(2);
  });

  test('makes acquire wait while the pool is full until a session is released', async () => {
    const { pool } = await setup({}, { maxSessionsPerConnection: 1, maxConnections: 1 });
    const first = await pool.acquire();
    let second: unknown;
    const waiting = pool.acquire().then((s) => (second = s));
    await new Promise((r) => setTimeout(r, 50));
    expect(second).toBeUndefined();
    expect(pool.stats().waiting).toBe(1);
    await pool.release(first);
    await waiting;
    expect(second).toBeDefined();
  });

  test('closes a released session by default so its locks end with it', async () => {
    const { pool } = await setup();
    const session = await pool.acquire();
    await pool.release(session);
    expect(session.endReason?.reason).toBe('closed');
  });

  test('hands a session released for reuse to the next acquire', async () => {
    const { server, pool } = await setup();
    const session = await pool.acquire();
    await pool.release(session, { reuse: true });
    expect(await pool.acquire()).toBe(session);
    expect(server.sessions).toBe(1);
  });

  test('withSession releases the session when the callback throws', async () => {
    const { pool } = await setup();
    let used: { endReason: unknown } | undefined;
    await expect(
      pool.withSession(async (s) => {
        used = s;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(used?.endReason).toMatchObject({ reason: 'closed' });
  });

  test('fails in-flight RPCs fast and reconnects when the server drops the connection', async () => {
    const { server, pool } = await setup(
      { handler: (op: { local: string }) => (op.local === 'close-session' ? '<ok/>' : undefined) },
      { backoff: { initialDelay: 10 } },
    );
    const session = await pool.acquire();
    const pending = session.get().catch((e: NetconfError) => e.code);
    await new Promise((r) => setTimeout(r, 20));
    server.dropAll();
    expect(await pending).toBe('SESSION_CLOSED');
    const fresh = await pool.acquire();
    expect(fresh.endReason).toBeUndefined();
    expect(server.connections).toBe(2);
  });

  test('gives up with the connect error once acquireTimeout passes while the server is down', async () => {
    const { server, pool } = await setup({}, { acquireTimeout: 300, backoff: { initialDelay: 20 } });
    await server.close();
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'CONNECT_FAILED' });
  });

  test('does not retry an authentication failure', async () => {
    const { pool } = await setup({}, { password: 'wrong', acquireTimeout: 5_000 });
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'AUTH_FAILED' });
  });

  test('refuses acquire after close with POOL_CLOSED', async () => {
    const { pool } = await setup();
    await pool.close();
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'POOL_CLOSED' });
  });
});

test('acquire fails with ACQUIRE_TIMEOUT while the full pool stays full', async () => {
  const { pool } = await setup({}, { maxSessionsPerConnection: 1, maxConnections: 1, acquireTimeout: 100 });
  await pool.acquire();
  await expect(pool.acquire()).rejects.toMatchObject({ code: 'ACQUIRE_TIMEOUT' });
});

test('drops a connection that completes after the pool was closed', async () => {
  const { server, pool } = await setup();
  const acquiring = pool.acquire();
  await pool.close();
  await expect(acquiring).rejects.toMatchObject({ code: 'POOL_CLOSED' });
  expect(pool.stats().connections).toBe(0);
  expect(server.connections).toBeLessThanOrEqual(1);
});
