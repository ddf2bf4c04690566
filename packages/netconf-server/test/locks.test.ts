import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, iface, rpcErrorOf, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

test('a second lock is denied with the holder in error-info', async () => {
  server = await testServer();
  const a = await client(server);
  const b = await client(server);
  await a.lock({ target: 'running' });
  const e = await rpcErrorOf(b.lock({ target: 'running' }));
  expect(e.errors[0]!.errorTag).toBe('lock-denied');
  expect(e.errors[0]!.errorInfo?.fields['session-id']).toBe(String(a.sessionId));
});

test('an edit of a datastore locked by another session fails with in-use', async () => {
  server = await testServer();
  const a = await client(server);
  const b = await client(server);
  await a.lock({ target: 'running' });
  const e = await rpcErrorOf(b.editConfig({ target: 'running', config: iface('eth0') }));
  expect(e.errors[0]!.errorTag).toBe('in-use');
});

test('a lock is released when its session ends', async () => {
  server = await testServer();
  const a = await client(server);
  const b = await client(server);
  await a.lock({ target: 'running' });
  await a.close();
  await expect(b.lock({ target: 'running' })).resolves.toMatchObject({ ok: true });
});

test('unlock of a lock not held fails with operation-failed', async () => {
  server = await testServer();
  const a = await client(server);
  const e = await rpcErrorOf(a.unlock({ target: 'running' }));
  expect(e.errors[0]!.errorTag).toBe('operation-failed');
});

test('kill-session ends another session and releases its locks', async () => {
  server = await testServer();
  const a = await client(server);
  const b = await client(server);
  await b.lock({ target: 'candidate' });
  await a.killSession(b.sessionId!);
  await expect(a.lock({ target: 'candidate' })).resolves.toMatchObject({ ok: true });
});
