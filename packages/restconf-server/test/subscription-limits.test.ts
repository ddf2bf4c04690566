import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventXml, openStream } from './streams-helpers.js';
import { basic, establish, type Gateway, JSON_TYPE, post, start } from './subscriptions-helpers.js';

const ALICE = basic('alice', 'a-secret');
const BOB = basic('bob', 'b-secret');
const CAROL = basic('carol', 'c-secret');
const STATE = '/restconf/data/ietf-subscribed-notifications:subscriptions';

type Entry = Record<string, unknown>;

/** The ids of the subscriptions state as `headers`' user reads it. */
async function listedIds(gw: Gateway, headers: Record<string, string>): Promise<number[]> {
  const res = await fetch(gw.url + STATE, { headers: { accept: JSON_TYPE, ...headers } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, { subscription?: Entry[] } | undefined>;
  return (body['ietf-subscribed-notifications:subscriptions']?.subscription ?? []).map((e) => e.id as number);
}

/** Polls `check` until it holds (bounded generously: a failure here is a hang, not a timing). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function serverStatus(gw: Gateway): Promise<{ open: number; 'queued-bytes': number }> {
  const res = await fetch(`${gw.url}/server-status`);
  return ((await res.json()) as { subscriptions: { open: number; 'queued-bytes': number } }).subscriptions;
}

describe('subscription limits', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({
      users: { alice: 'a-secret', bob: 'b-secret', carol: 'c-secret' },
      handler: { subscriptions: { maxPerUser: 2, maxTotal: 3 } },
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  test('establish-subscription past the places of a user is 409 resource-denied with insufficient-resources', async () => {
    const a1 = await establish(gw, { stream: 'NETCONF' }, ALICE);
    const a2 = await establish(gw, { stream: 'NETCONF' }, ALICE);
    const refused = await post(gw, 'establish-subscription', { stream: 'NETCONF' }, ALICE);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { 'ietf-restconf:errors': { error: Entry[] } };
    expect(body['ietf-restconf:errors'].error[0]).toMatchObject({
      'error-type': 'application',
      'error-tag': 'resource-denied',
      'error-app-tag': 'ietf-subscribed-notifications:insufficient-resources',
    });
    // Another user still has places; the server, with three held, has none left for anyone.
    const b1 = await establish(gw, { stream: 'NETCONF' }, BOB);
    expect((await post(gw, 'establish-subscription', { stream: 'NETCONF' }, BOB)).status).toBe(409);
    // A subscription that ends gives its place back.
    expect((await post(gw, 'delete-subscription', { id: a1.id }, ALICE)).status).toBe(204);
    const b2 = await establish(gw, { stream: 'NETCONF' }, BOB);
    for (const [id, user] of [
      [a2.id, ALICE],
      [b1.id, BOB],
      [b2.id, BOB],
    ] as const)
      expect((await post(gw, 'delete-subscription', { id }, user)).status).toBe(204);
  });

  test('an establish-subscription the backend refuses gives its place back', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post(gw, 'establish-subscription', { stream: 'no-such-stream' }, CAROL);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('stream-unavailable');
    }
    const { id } = await establish(gw, { stream: 'NETCONF' }, CAROL);
    expect((await post(gw, 'delete-subscription', { id }, CAROL)).status).toBe(204);
  });
});

describe('subscriptions nobody receives', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ handler: { serverStatus: true, subscriptions: { receiveWithinSeconds: 1 } } });
  });
  afterAll(async () => {
    await gw.close();
  });

  test('a subscription whose uri is not received in time ends and frees its place', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    expect((await serverStatus(gw)).open).toBe(1);
    await eventually(async () => (await serverStatus(gw)).open === 0, 'the subscription to end');
    const res = await fetch(gw.url + path, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(404);
  });

  test('server-status counts the bytes waiting for a receiver, and none once it reads', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    gw.netconf.publish(eventXml('waiting'));
    await eventually(async () => (await serverStatus(gw))['queued-bytes'] > 0, 'the event to wait');
    const s = await openStream(gw.url + path);
    await s.takeWith(/waiting/, 1);
    expect((await serverStatus(gw))['queued-bytes']).toBe(0);
    s.close();
  });
});

describe('a YANG Push subscription nobody receives', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start();
  });
  afterAll(async () => {
    await gw.close();
  });

  test('makes the backend compute no periodic update until its GET, then gets the updates', async () => {
    // A selection larger than the in-process transport's buffers: one update fills them.
    const put = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/playlist=big`, {
      method: 'PUT',
      headers: { 'content-type': JSON_TYPE },
      body: JSON.stringify({
        'example-jukebox:playlist': [{ name: 'big', description: 'x'.repeat(100_000) }],
      }),
    });
    expect(put.status).toBe(201);
    const { id, path } = await establish(gw, {
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
      'ietf-yang-push:periodic': { period: 5 },
    });
    // Ten periods of 50 ms pass; the backend made at most the update it sent before the pause.
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${gw.url}${STATE}/subscription=${id}`, { headers: { accept: JSON_TYPE } });
    const entry = ((await res.json()) as Record<string, Entry[]>)[
      'ietf-subscribed-notifications:subscription'
    ]![0]!;
    const receiver = (entry.receivers as { receiver: Entry[] }).receiver[0]!;
    expect(Number(receiver['sent-event-records'])).toBeLessThanOrEqual(1);
    const s = await openStream(gw.url + path);
    const updates = await s.takeWith(/push-update/, 2);
    s.close();
    expect(updates).toHaveLength(2);
  });
});

describe('the subscriptions state by user', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({
      users: { alice: 'a-secret', bob: 'b-secret', carol: 'c-secret' },
      handler: { subscriptions: { admins: ['carol'] } },
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  test('a user sees only its own subscriptions, an admin sees every one', async () => {
    const a = await establish(gw, { stream: 'NETCONF', 'stream-xpath-filter': '/example-mod:event' }, ALICE);
    const b = await establish(gw, { stream: 'NETCONF' }, BOB);
    expect(await listedIds(gw, ALICE)).toEqual([a.id]);
    expect(await listedIds(gw, BOB)).toEqual([b.id]);
    expect((await listedIds(gw, CAROL)).sort()).toEqual([a.id, b.id].sort());
  });

  test("another user's subscription is absent from the state: 404", async () => {
    const a = await establish(gw, { stream: 'NETCONF' }, ALICE);
    const res = await fetch(`${gw.url}${STATE}/subscription=${a.id}`, {
      headers: { accept: JSON_TYPE, ...BOB },
    });
    expect(res.status).toBe(404);
  });
});
