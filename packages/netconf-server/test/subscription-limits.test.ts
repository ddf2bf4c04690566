import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { duplexPair } from '../src/index.js';
import type { NetconfServer } from '../src/server.js';
import { client, rpcErrorOf, testServer } from './helpers.js';

// RFC 8639 leaves the number of dynamic subscriptions to the publisher: without a bound one
// client could establish them until the server runs out of memory. They are bounded per user name
// and in all; the application's own (recovery) sessions are bounded by the application.
const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const ESTABLISH = `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`;

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

async function recoveryClient(s: NetconfServer): Promise<NetconfSession> {
  const [a, b] = duplexPair();
  s.connect(a, { username: 'app' }, { recovery: true });
  return connectStream(b);
}

test('a user past its subscriptions is refused with resource-denied and insufficient-resources', async () => {
  server = await testServer({ maxSubscriptionsPerUser: 2 });
  const alice = await client(server, 'alice');
  const other = await client(server, 'alice');
  await alice.rpc(ESTABLISH);
  await other.rpc(ESTABLISH);
  const e = await rpcErrorOf(alice.rpc(ESTABLISH));
  expect([e.errors[0]?.errorTag, e.errors[0]?.errorAppTag]).toEqual([
    'resource-denied',
    'ietf-subscribed-notifications:insufficient-resources',
  ]);
  await (await client(server, 'bob')).rpc(ESTABLISH);
});

test('past the total every user is refused, and a deleted subscription makes room', async () => {
  server = await testServer({ maxSubscriptions: 2 });
  const alice = await client(server, 'alice');
  const first = await alice.rpc(ESTABLISH);
  await (await client(server, 'bob')).rpc(ESTABLISH);
  const carol = await client(server, 'carol');
  expect((await rpcErrorOf(carol.rpc(ESTABLISH))).errors[0]?.errorTag).toBe('resource-denied');
  const id = /<id[^>]*>(\d+)<\/id>/.exec(first.xml)![1];
  await alice.rpc(`<delete-subscription xmlns="${SN}"><id>${id}</id></delete-subscription>`);
  await carol.rpc(ESTABLISH);
});

test('recovery sessions are neither counted nor refused', async () => {
  server = await testServer({ maxSubscriptionsPerUser: 1, maxSubscriptions: 1 });
  const app = await recoveryClient(server);
  await app.rpc(ESTABLISH);
  await app.rpc(ESTABLISH);
  await (await client(server, 'alice')).rpc(ESTABLISH);
});
