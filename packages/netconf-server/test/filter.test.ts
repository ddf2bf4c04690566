import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

async function withTwo() {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0', '<description>zero</description>') });
  await c.editConfig({ target: 'running', config: iface('eth1', '<description>one</description>') });
  return c;
}

test('a content match node on the key selects one whole entry', async () => {
  const c = await withTwo();
  const data = await c.getConfig({
    source: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"><interface><name>eth1</name></interface></interfaces>` },
  });
  expect(data).toContain('<description>one</description>');
  expect(data).not.toContain('eth0');
});

test('selection nodes return only the named leaves, keys included', async () => {
  const c = await withTwo();
  const data = await c.getConfig({
    source: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"><interface><description/></interface></interfaces>` },
  });
  expect(data).toContain('<name>eth0</name><description>zero</description>');
  expect(data).not.toContain('ethernetCsmacd');
});

test('a content match on a non-key leaf filters entries', async () => {
  const c = await withTwo();
  const data = await c.getConfig({
    source: 'running',
    filter: {
      subtree: `<interfaces xmlns="${IF}"><interface><description>zero</description><name/></interface></interfaces>`,
    },
  });
  expect(data).toContain('eth0');
  expect(data).not.toContain('eth1');
});

test('a filter that matches nothing returns empty data', async () => {
  const c = await withTwo();
  const data = await c.getConfig({
    source: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"><interface><name>none</name></interface></interfaces>` },
  });
  expect(data.trim()).toBe('');
});

test('an xpath filter returns the selected nodes with their ancestors and keys', async () => {
  const c = await withTwo();
  const data = await c.getConfig({
    source: 'running',
    filter: { xpath: "/if:interfaces/if:interface[if:name='eth1']/if:description", namespaces: { if: IF } },
  });
  expect(data).toContain('<name>eth1</name><description>one</description>');
  expect(data).not.toContain('eth0');
});

test('an xpath filter with a syntax error fails with invalid-value', async () => {
  const c = await withTwo();
  await expect(
    c.getConfig({ source: 'running', filter: { xpath: '/if:interfaces[', namespaces: { if: IF } } }),
  ).rejects.toMatchObject({ errors: [{ errorTag: 'invalid-value' }] });
});

test('get merges operational state from the server over running', async () => {
  const c = await withTwo();
  const data = await c.get({
    filter: {
      subtree:
        '<netconf-state xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"><sessions/></netconf-state>',
    },
  });
  expect(data).toContain('<username>tester</username>');
});
