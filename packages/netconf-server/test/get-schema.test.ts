import { NetconfRpcError } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const MON = 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring';

test('get-schema returns the YANG text of a loaded module', async () => {
  server = await testServer();
  const c = await client(server);
  const reply = await c.rpc(
    `<get-schema xmlns="${MON}"><identifier>example-jukebox</identifier></get-schema>`,
  );
  expect(reply.xml).toContain('module example-jukebox');
});

test('get-schema accepts the revision and a prefixed format', async () => {
  server = await testServer();
  const c = await client(server);
  const reply = await c.rpc(
    `<get-schema xmlns="${MON}" xmlns:ncm="${MON}"><identifier>ietf-interfaces</identifier><version>2018-02-20</version><format>ncm:yang</format></get-schema>`,
  );
  expect(reply.xml).toContain('module ietf-interfaces');
});

test('get-schema of an unknown revision fails with invalid-value', async () => {
  server = await testServer();
  const c = await client(server);
  const e = await c
    .rpc(
      `<get-schema xmlns="${MON}"><identifier>ietf-interfaces</identifier><version>2014-05-08</version></get-schema>`,
    )
    .catch((x: unknown) => x);
  expect(e).toBeInstanceOf(NetconfRpcError);
  expect((e as NetconfRpcError).errors[0]!.errorTag).toBe('invalid-value');
});
