import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

test('netconf-client getData reads operational with origin and max-depth', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0', '<description>d</description>') });
  const full = await c.getData({
    datastore: 'operational',
    filter: { subtree: `<interfaces xmlns="${IF}"/>` },
    withOrigin: true,
  });
  expect(full).toContain('or:origin="or:intended"');
  expect(full).toContain('<description>d</description>');
  const shallow = await c.getData({
    datastore: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"/>` },
    maxDepth: 2,
  });
  expect(shallow).toMatch(/<interface\/?>/);
  expect(shallow).not.toContain('<description>');
});

test('netconf-client editData, copyConfig and validate with inline config work against the server', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editData({ datastore: 'running', config: iface('eth1') });
  expect(await c.getConfig({ source: 'running' })).toContain('eth1');
  await c.copyConfig({ target: 'candidate', source: { config: iface('eth2') } });
  expect(await c.getConfig({ source: 'candidate' })).toContain('eth2');
  expect(await c.getConfig({ source: 'candidate' })).not.toContain('eth1');
  await c.commit();
  expect(await c.getConfig({ source: 'running' })).not.toContain('eth1');
  await expect(c.validate({ source: { config: iface('eth3') } })).resolves.toMatchObject({ ok: true });
});

test('netconf-client establishSubscription with a stream filter gets an id and events', async () => {
  server = await testServer();
  const c = await client(server);
  const sub = await c.establishSubscription({
    stream: 'NETCONF',
    filter: {
      subtree: '<netconf-config-change xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications"/>',
    },
  });
  expect(sub.id).toBeGreaterThan(0);
  const seen = (async () => {
    for await (const n of c.notifications()) if (n.xml.includes('netconf-config-change')) return n;
    return undefined;
  })();
  await (await client(server)).editConfig({ target: 'running', config: iface('eth4') });
  expect((await seen)?.xml).toContain('<operation>create</operation>');
});
