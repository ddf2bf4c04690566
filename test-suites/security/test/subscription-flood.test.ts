import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, errorsBody, type Server, startServer } from './harness.js';
import { addUser } from './process.js';

// A read-only user floods the gateway with RFC 8639/8641 subscriptions it never receives, over a
// datastore holding a 2 MB value. The gateway refuses subscriptions past a user's places with the
// RFC 8639 error, holds no more than a bounded number of bytes for the receivers that never come
// (read from /metrics), makes its backend compute no periodic update for them, ends each one
// whose uri is not received in time, and shows each user only its own subscriptions.
const SN = 'ietf-subscribed-notifications';
const STATE = `/restconf/data/${SN}:subscriptions`;
const PASSWORDS: Record<string, string> = { root: 'root-pw', reader: 'reader-pw', other: 'other-pw' };
/** The gateway's defaults (`--max-subscriptions-per-user`, `--event-queue-bytes`). */
const PER_USER = 8;
const QUEUE_BYTES = 1024 * 1024;
const BIG_VALUE = 2 * 1024 * 1024;

let dir: string;
let usersFile: string;

function as(user: string, extra: Record<string, string> = {}): Record<string, string> {
  const auth = `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString('base64')}`;
  return { Authorization: auth, Accept: DATA_JSON, ...extra };
}

function establish(s: Server, user: string, input: unknown): Promise<Response> {
  return s.fetch(`/restconf/operations/${SN}:establish-subscription`, {
    method: 'POST',
    headers: as(user, { 'Content-Type': DATA_JSON }),
    body: JSON.stringify({ [`${SN}:input`]: input }),
  });
}

/** A periodic YANG Push subscription to the whole jukebox, one update every 100 ms. */
const PERIODIC = {
  'ietf-yang-push:datastore': 'ietf-datastores:running',
  'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
  'ietf-yang-push:periodic': { period: 10 },
};

type Entry = Record<string, unknown>;

/** The subscriptions state as `user` reads it (404 when there is none at all). */
async function stateOf(s: Server, user: string): Promise<Entry[]> {
  const r = await s.fetch(STATE, { headers: as(user) });
  if (r.status === 404) return [];
  expect(r.status).toBe(200);
  const body = (await r.json()) as Record<string, { subscription?: Entry[] } | undefined>;
  return body[`${SN}:subscriptions`]?.subscription ?? [];
}

/** One gauge of /metrics (Prometheus text), read as the administrator. */
async function gauge(s: Server, name: string): Promise<number> {
  const r = await s.fetch('/metrics', { headers: as('root') });
  const text = await r.text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'yangkit-subscription-flood-'));
  usersFile = path.join(dir, 'users');
  for (const [user, password] of Object.entries(PASSWORDS))
    expect((await addUser(['--users-file', usersFile, user], password)).code).toBe(0);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a read-only user flooding the gateway with subscriptions', () => {
  let s: Server;
  beforeAll(async () => {
    // The datastore holds a 2 MB value, written by the administrator (over the 1 MiB default limit).
    s = await startServer({ usersFile, nacmAdmin: 'root', metrics: true, maxStringLength: 2 * BIG_VALUE });
    const put = await s.fetch('/restconf/data/example-jukebox:jukebox/playlist=flood', {
      method: 'PUT',
      headers: as('root', { 'Content-Type': DATA_JSON }),
      body: JSON.stringify({
        'example-jukebox:playlist': [{ name: 'flood', description: 'x'.repeat(BIG_VALUE) }],
      }),
    });
    expect([201, 204]).toContain(put.status);
  });
  afterAll(async () => {
    await s.close();
  });

  test('the user may not write: the flood is read-only', async () => {
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox/playlist=mine', {
      method: 'PUT',
      headers: as('reader', { 'Content-Type': DATA_JSON }),
      body: JSON.stringify({ 'example-jukebox:playlist': [{ name: 'mine' }] }),
    });
    expect(r.status).toBe(403);
  });

  test('past its places, establish-subscription is 409 resource-denied with insufficient-resources', async () => {
    for (let i = 0; i < PER_USER; i++) expect((await establish(s, 'reader', PERIODIC)).status).toBe(200);
    const refused = await establish(s, 'reader', PERIODIC);
    expect(refused.status).toBe(409);
    const errors = errorsBody(await refused.text(), refused.headers.get('content-type')) as {
      error: Entry[];
    };
    expect(errors.error[0]).toMatchObject({
      'error-type': 'application',
      'error-tag': 'resource-denied',
      'error-app-tag': `${SN}:insufficient-resources`,
    });
    // Another user still has its places.
    expect((await establish(s, 'other', { stream: 'NETCONF' })).status).toBe(200);
  });

  test('the unreceived subscriptions hold a bounded number of bytes and cost the backend no periodic update', async () => {
    // Twenty periods pass with nobody receiving.
    await new Promise((r) => setTimeout(r, 2000));
    expect(await gauge(s, 'restconf_subscriptions')).toBe(PER_USER + 1);
    expect(await gauge(s, 'restconf_subscription_queued_bytes')).toBeLessThanOrEqual(PER_USER * QUEUE_BYTES);
    const mine = await stateOf(s, 'reader');
    expect(mine).toHaveLength(PER_USER);
    for (const entry of mine) {
      const receiver = (entry.receivers as { receiver: Entry[] }).receiver[0]!;
      // At most the one update made before the gateway stopped reading it.
      expect(Number(receiver['sent-event-records'])).toBeLessThanOrEqual(1);
    }
    // The gateway still answers a leaf GET.
    const leaf = await s.fetch('/restconf/data/example-jukebox:jukebox/playlist=flood/name', {
      headers: as('reader'),
    });
    expect(leaf.status).toBe(200);
  });

  test("the user sees only its own subscriptions' settings; the administrator sees every one", async () => {
    const mine = (await stateOf(s, 'reader')).map((e) => e.id);
    const theirs = (await stateOf(s, 'other')).map((e) => e.id);
    expect(theirs).toHaveLength(1);
    expect(mine).not.toContain(theirs[0]);
    const all = (await stateOf(s, 'root')).map((e) => e.id);
    expect(all).toEqual(expect.arrayContaining([...mine, ...theirs]));
  });
});

describe('a subscription nobody receives', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ usersFile, subscriptionReceiveTimeout: 2, maxSubscriptionsPerUser: 1 });
  });
  afterAll(async () => {
    await s.close();
  });

  test('ends when its uri is not received in time, and its place is free again', async () => {
    const r = await establish(s, 'reader', PERIODIC);
    expect(r.status).toBe(200);
    const output = ((await r.json()) as Record<string, Entry>)[`${SN}:output`]!;
    const uri = output['ietf-restconf-subscribed-notifications:uri'] as string;
    // Bounded generously: the subscription is given 2 s, the wait 20 s.
    const end = Date.now() + 20_000;
    while ((await stateOf(s, 'reader')).length > 0) {
      if (Date.now() > end) throw new Error('the unreceived subscription did not end');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const get = await fetch(uri, { headers: { ...as('reader'), Accept: 'text/event-stream' } });
    expect(get.status).toBe(404);
    const again = await establish(s, 'reader', PERIODIC);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });
});
