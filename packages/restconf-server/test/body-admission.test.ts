import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

const JB = '/restconf/data/example-jukebox:jukebox';

/** A PATCH body of `count` playlists named `<prefix>-<i>`: 1,000 playlists are about 20 KB. */
function playlists(prefix: string, count: number): string {
  const playlist = Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}` }));
  return JSON.stringify({ 'example-jukebox:jukebox': { playlist } });
}

/** A request whose body is sent in two parts, the second when the test says so. */
interface Upload {
  /** Sends the rest of the body; resolves with the status. */
  finish(): Promise<number>;
  /** Closes the connection without finishing the body. */
  abandon(): void;
}

/** HTTP Basic credentials of `user` (the handler takes the user as authenticated before it). */
const basic = (user: string) => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;

/**
 * Starts a PATCH of `body` with its Content-Length (or chunked), sending only its first 1,000
 * bytes, as `user` when given.
 */
function startUpload(gw: Gateway, body: string, chunked = false, user?: string): Upload {
  const req = request(`${gw.url}${JB}`, {
    method: 'PATCH',
    headers: {
      'Content-Type': 'application/yang-data+json',
      ...(chunked ? {} : { 'Content-Length': Buffer.byteLength(body) }),
      ...(user === undefined ? {} : { Authorization: basic(user) }),
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, 1000));
  return {
    finish: () => {
      req.end(body.slice(1000));
      return status;
    },
    abandon: () => {
      status.catch(() => undefined);
      req.destroy();
    },
  };
}

/** The value of a metric without labels in the handler's `/metrics`. */
async function metric(gw: Gateway, name: string): Promise<number> {
  const text = await (await gw.fetch('/metrics')).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

/** Waits (bounded, generously) until the admission counts reach `decoding` and `waiting`. */
async function untilBodies(gw: Gateway, decoding: number, waiting: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const now = [await metric(gw, 'restconf_bodies_decoding'), await metric(gw, 'restconf_bodies_waiting')];
    if (now[0] === decoding && now[1] === waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the admission never reached ${decoding} decoding and ${waiting} waiting`);
}

async function playlistNames(gw: Gateway): Promise<string[]> {
  const r = await gw.fetch(`${JB}/playlist`, { headers: { Accept: 'application/yang-data+json' } });
  const body = (await r.json()) as { 'example-jukebox:playlist': { name: string }[] };
  return body['example-jukebox:playlist'].map((p) => p.name);
}

describe('the body admission', () => {
  let gw: Gateway;
  const big = (prefix: string) => playlists(prefix, 6000);

  beforeAll(async () => {
    gw = await startGateway({ metrics: true, maxBodiesDecoding: 1, maxBodiesWaiting: 1 });
    await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  });
  afterAll(() => gw.close());

  test('answers 503 with Retry-After and an errors body past the bodies decoding and waiting, and applies the others', async () => {
    const first = startUpload(gw, big('first'));
    await untilBodies(gw, 1, 0);
    const second = startUpload(gw, big('second'));
    await untilBodies(gw, 1, 1);
    const refused = await gw.fetch(JB, json('PATCH', big('refused')));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    const error = ((await refused.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error).toMatchObject({ 'error-type': 'protocol', 'error-tag': 'resource-denied' });
    expect(error?.['error-message']).toContain('too many request bodies');
    expect(await Promise.all([first.finish(), second.finish()])).toEqual([204, 204]);
    const names = await playlistNames(gw);
    expect(names).toContain('first-5999');
    expect(names).toContain('second-5999');
    expect(names.some((n) => n.startsWith('refused'))).toBe(false);
    expect(await metric(gw, 'restconf_bodies_refused_total')).toBe(1);
  });

  test('lets a body that declares at most 64 KiB through while the slots are taken', async () => {
    const first = startUpload(gw, big('held'));
    await untilBodies(gw, 1, 0);
    const second = startUpload(gw, big('queued'));
    await untilBodies(gw, 1, 1);
    const small = await gw.fetch(JB, json('PATCH', playlists('small', 10)));
    expect(small.status).toBe(204);
    expect(await Promise.all([first.finish(), second.finish()])).toEqual([204, 204]);
  });

  test('makes a chunked body, whose size is not declared, wait like a big one', async () => {
    const first = startUpload(gw, big('held'));
    await untilBodies(gw, 1, 0);
    const chunked = startUpload(gw, playlists('chunked', 10), true);
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), chunked.finish()])).toEqual([204, 204]);
  });

  test("answers 429 to a user's big body past half of the places, while another user's waits and is applied", async () => {
    const refusedBefore = await metric(gw, 'restconf_bodies_refused_total');
    const first = startUpload(gw, big('alice-first'), false, 'alice');
    await untilBodies(gw, 1, 0);
    const again = await gw.fetch(JB, json('PATCH', big('alice-again'), { Authorization: basic('alice') }));
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
    const error = ((await again.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error).toMatchObject({ 'error-tag': 'resource-denied' });
    expect(error?.['error-message']).toContain('for user "alice"');
    const other = startUpload(gw, big('bob'), false, 'bob');
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), other.finish()])).toEqual([204, 204]);
    const names = await playlistNames(gw);
    expect(names).toContain('bob-5999');
    expect(names.some((n) => n.startsWith('alice-again'))).toBe(false);
    expect(await metric(gw, 'restconf_bodies_refused_total')).toBe(refusedBefore + 1);
    // Her share is back once her body is done.
    const later = startUpload(gw, big('alice-later'), false, 'alice');
    await untilBodies(gw, 1, 0);
    expect(await later.finish()).toBe(204);
  });

  test('frees the place of a waiting body whose client goes away', async () => {
    const first = startUpload(gw, big('held'));
    await untilBodies(gw, 1, 0);
    const gone = startUpload(gw, big('gone'));
    await untilBodies(gw, 1, 1);
    gone.abandon();
    await untilBodies(gw, 1, 0);
    const next = startUpload(gw, big('next'));
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), next.finish()])).toEqual([204, 204]);
    expect((await playlistNames(gw)).some((n) => n.startsWith('gone'))).toBe(false);
  });
});
