import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const filter = { subtree: `<interfaces xmlns="${IF}"/>` };

async function setup(enabled?: string) {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({
    target: 'running',
    config: iface('eth0', enabled === undefined ? '' : `<enabled>${enabled}</enabled>`),
  });
  return c;
}

test('explicit leaves an unset default out', async () => {
  const c = await setup();
  expect(await c.getConfig({ source: 'running', filter, withDefaults: 'explicit' })).not.toContain(
    '<enabled',
  );
});

test('report-all adds the default value', async () => {
  const c = await setup();
  expect(await c.getConfig({ source: 'running', filter, withDefaults: 'report-all' })).toContain(
    '<enabled>true</enabled>',
  );
});

test('report-all-tagged marks defaults with wd:default', async () => {
  const c = await setup();
  const data = await c.getConfig({ source: 'running', filter, withDefaults: 'report-all-tagged' });
  expect(data).toMatch(/<enabled[^>]*wd:default="true"[^>]*>true<\/enabled>/);
});

test('trim drops a value set equal to its default', async () => {
  const c = await setup('true');
  expect(await c.getConfig({ source: 'running', filter, withDefaults: 'explicit' })).toContain(
    '<enabled>true</enabled>',
  );
  expect(await c.getConfig({ source: 'running', filter, withDefaults: 'trim' })).not.toContain('<enabled');
});
