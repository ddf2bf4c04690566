import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const NMDA = 'urn:ietf:params:xml:ns:yang:ietf-netconf-nmda';
const DS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

test('get-data of operational marks config with origin intended', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0') });
  const reply = await c.rpc(
    `<get-data xmlns="${NMDA}" xmlns:ds="${DS}"><datastore>ds:operational</datastore><subtree-filter><interfaces xmlns="${IF}"/></subtree-filter><with-origin/></get-data>`,
  );
  expect(reply.xml).toMatch(/<interfaces [^>]*or:origin="or:intended"/);
});

test('get-data with-origin gives the defaults that with-defaults adds origin default', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0') });
  const reply = await c.rpc(
    `<get-data xmlns="${NMDA}" xmlns:ds="${DS}"><datastore>ds:operational</datastore><subtree-filter><interfaces xmlns="${IF}"/></subtree-filter><with-origin/><with-defaults>report-all</with-defaults></get-data>`,
  );
  expect(reply.xml).toMatch(/<enabled [^>]*or:origin="or:default">true<\/enabled>/);
  expect(reply.xml).toMatch(/<name>eth0<\/name>/);
});

test('get-data of running holds no state data', async () => {
  server = await testServer();
  const c = await client(server);
  const reply = await c.rpc(
    `<get-data xmlns="${NMDA}" xmlns:ds="${DS}"><datastore>ds:running</datastore></get-data>`,
  );
  expect(reply.xml).not.toContain('netconf-state');
});

test('edit-data edits the candidate', async () => {
  server = await testServer();
  const c = await client(server);
  await c.rpc(
    `<edit-data xmlns="${NMDA}" xmlns:ds="${DS}"><datastore>ds:candidate</datastore><config>${iface('eth5')}</config></edit-data>`,
  );
  expect(await c.getConfig({ source: 'candidate' })).toContain('eth5');
  expect(await c.getConfig({ source: 'running' })).not.toContain('eth5');
});

test('get-data with max-depth and with-defaults adds no default below the last level', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0') });
  const get = (depth: string) =>
    c.rpc(
      `<get-data xmlns="${NMDA}" xmlns:ds="${DS}"><datastore>ds:running</datastore><max-depth>${depth}</max-depth><with-defaults>report-all</with-defaults></get-data>`,
    );
  expect((await get('3')).xml).toContain('<enabled>true</enabled>');
  const shallow = (await get('2')).xml;
  expect(shallow).toMatch(/<interface\/>/);
  expect(shallow).not.toContain('<enabled>');
});
