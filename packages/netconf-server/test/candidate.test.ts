import { afterEach, expect, test, vi } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, IF, iface, rpcErrorOf, testSchema, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const filter = { subtree: `<interfaces xmlns="${IF}"/>` };

test('a candidate edit reaches running only on commit', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'candidate', config: iface('eth0') });
  expect(await c.getConfig({ source: 'running', filter })).not.toContain('eth0');
  await c.commit();
  expect(await c.getConfig({ source: 'running', filter })).toContain('eth0');
});

test('discard-changes restores the candidate from running', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'candidate', config: iface('eth0') });
  await c.discardChanges();
  expect(await c.getConfig({ source: 'candidate', filter })).not.toContain('eth0');
});

test('commit of an invalid candidate fails and leaves running unchanged', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({
    target: 'candidate',
    config: `<interfaces xmlns="${IF}"><interface><name>eth7</name></interface></interfaces>`,
  });
  const e = await rpcErrorOf(c.commit());
  expect(e.errors[0]!.errorTag).toBe('missing-element');
  expect(await c.getConfig({ source: 'running', filter })).not.toContain('eth7');
});

test('a confirmed commit is rolled back when its timeout expires', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'candidate', config: iface('eth0') });
  await c.commit({ confirmed: true, confirmTimeout: 1 });
  expect(await c.getConfig({ source: 'running', filter })).toContain('eth0');
  await new Promise((r) => setTimeout(r, 1300));
  expect(await c.getConfig({ source: 'running', filter })).not.toContain('eth0');
});

test('a confirming commit makes a confirmed commit permanent', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'candidate', config: iface('eth0') });
  await c.commit({ confirmed: true, confirmTimeout: 1 });
  await c.commit();
  await new Promise((r) => setTimeout(r, 1300));
  expect(await c.getConfig({ source: 'running', filter })).toContain('eth0');
});

test('a persistent confirmed commit survives its session and is cancelled by persist-id', async () => {
  server = await testServer();
  const a = await client(server);
  await a.editConfig({ target: 'candidate', config: iface('eth0') });
  await a.commit({ confirmed: true, persist: 'tok' });
  await a.close();
  const b = await client(server);
  expect(await b.getConfig({ source: 'running', filter })).toContain('eth0');
  const wrong = await rpcErrorOf(b.commit({ persistId: 'other' }));
  expect(wrong.errors[0]!.errorTag).toBe('invalid-value');
  await b.cancelCommit({ persistId: 'tok' });
  expect(await b.getConfig({ source: 'running', filter })).not.toContain('eth0');
});

test('a confirmed commit without persist is rolled back when its session ends', async () => {
  server = await testServer();
  const a = await client(server);
  await a.editConfig({ target: 'candidate', config: iface('eth0') });
  await a.commit({ confirmed: true });
  await a.close();
  const b = await client(server);
  // The rollback is made in slices, from the session's end on.
  await vi.waitFor(
    async () => expect(await b.getConfig({ source: 'running', filter })).not.toContain('eth0'),
    { timeout: 10_000 },
  );
});

test('cancel-commit with nothing pending fails', async () => {
  server = await testServer();
  const c = await client(server);
  const e = await rpcErrorOf(c.cancelCommit());
  expect(e.errors[0]!.errorTag).toBe('operation-failed');
});

test('an edit of running directly keeps an unmodified candidate in step', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0') });
  expect(await c.getConfig({ source: 'candidate', filter })).toContain('eth0');
});

test('a confirmed commit of 150,000 changes is made and then confirmed', async () => {
  const schema = await testSchema();
  server = await testServer();
  const local = server.localSession('tester');
  // The jukebox exists, so that each new playlist is a change of its own.
  local.editConfig(
    'running',
    configMerges(schema, { 'example-jukebox:jukebox': { playlist: [{ name: 'seed' }] } }),
  );
  const playlist = Array.from({ length: 150_000 }, (_, i) => ({ name: `p${i}` }));
  local.editConfig('candidate', configMerges(schema, { 'example-jukebox:jukebox': { playlist } }));
  local.commit({ confirmed: true, timeout: 60 });
  expect(server.confirmedCommitPending).toBe(true);
  local.commit();
  expect(server.confirmedCommitPending).toBe(false);
  const running = await local.read();
  const jukebox = [...running.children.values()].flat()[0]!;
  expect([...jukebox.children!.values()].flat()).toHaveLength(150_001);
});
