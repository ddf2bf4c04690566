import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { basic, metric, startUpload, untilBodies } from './body-admission-helpers.js';
import { type Gateway, JUKEBOX, json, playlistNames, playlists, startGateway } from './harness.js';
import { openStream } from './streams-helpers.js';
import { establish, start } from './subscriptions-helpers.js';

const JB = '/restconf/data/example-jukebox:jukebox';

/** A whole PATCH of `body` without credentials from the address `from`; resolves with the answer. */
function patchFrom(gw: Gateway, body: string, from: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${gw.url}${JB}`, {
      method: 'PATCH',
      localAddress: from,
      headers: { 'Content-Type': 'application/yang-data+json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('the body admission', () => {
  let gw: Gateway;
  const big = (prefix: string) => playlists(prefix, 6000);

  beforeAll(async () => {
    gw = await startGateway({
      metrics: true,
      maxBodiesDecoding: 1,
      maxBodiesWaiting: 1,
      trustBasicUser: true,
    });
    await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  });
  afterAll(() => gw.close());
  // Anonymous big bodies from other addresses than the test's requests (127.0.0.1): one address,
  // like one user, holds at most half of the places.
  const A = { from: '127.0.0.2' };
  const B = { from: '127.0.0.3' };

  test('answers 503 with Retry-After and an errors body past the bodies decoding and waiting, and applies the others', async () => {
    const first = startUpload(gw, big('first'), A);
    await untilBodies(gw, 1, 0);
    const second = startUpload(gw, big('second'), B);
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
    const first = startUpload(gw, big('held'), A);
    await untilBodies(gw, 1, 0);
    const second = startUpload(gw, big('queued'), B);
    await untilBodies(gw, 1, 1);
    const small = await gw.fetch(JB, json('PATCH', playlists('small', 10)));
    expect(small.status).toBe(204);
    expect(await Promise.all([first.finish(), second.finish()])).toEqual([204, 204]);
  });

  test('makes a chunked body, whose size is not declared, wait like a big one', async () => {
    const first = startUpload(gw, big('held'), A);
    await untilBodies(gw, 1, 0);
    const chunked = startUpload(gw, playlists('chunked', 10), { ...B, chunked: true });
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), chunked.finish()])).toEqual([204, 204]);
  });

  test("answers 429 to a user's big body past half of the places, while another user's waits and is applied", async () => {
    const refusedBefore = await metric(gw, 'restconf_bodies_refused_total');
    const first = startUpload(gw, big('alice-first'), { user: 'alice' });
    await untilBodies(gw, 1, 0);
    const again = await gw.fetch(JB, json('PATCH', big('alice-again'), { Authorization: basic('alice') }));
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('1');
    const error = ((await again.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error).toMatchObject({ 'error-tag': 'resource-denied' });
    expect(error?.['error-message']).toContain('for user "alice"');
    const other = startUpload(gw, big('bob'), { user: 'bob' });
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), other.finish()])).toEqual([204, 204]);
    const names = await playlistNames(gw);
    expect(names).toContain('bob-5999');
    expect(names.some((n) => n.startsWith('alice-again'))).toBe(false);
    expect(await metric(gw, 'restconf_bodies_refused_total')).toBe(refusedBefore + 1);
    // Her share is back once her body is done.
    const later = startUpload(gw, big('alice-later'), { user: 'alice' });
    await untilBodies(gw, 1, 0);
    expect(await later.finish()).toBe(204);
  });

  test("answers 429 to an anonymous client's big body past half of the places, while another address's waits and is applied", async () => {
    const first = startUpload(gw, big('a-first'), A);
    await untilBodies(gw, 1, 0);
    const again = await patchFrom(gw, big('a-again'), A.from);
    expect(again.status).toBe(429);
    const error = (JSON.parse(again.body) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error).toMatchObject({ 'error-tag': 'resource-denied' });
    expect(error?.['error-message']).toContain('for client address 127.0.0.2');
    const other = startUpload(gw, big('b'), B);
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), other.finish()])).toEqual([204, 204]);
    const names = await playlistNames(gw);
    expect(names).toContain('b-5999');
    expect(names.some((n) => n.startsWith('a-again'))).toBe(false);
  });

  test('frees the place of a waiting body whose client goes away', async () => {
    const first = startUpload(gw, big('held'), A);
    await untilBodies(gw, 1, 0);
    const gone = startUpload(gw, big('gone'), B);
    await untilBodies(gw, 1, 1);
    gone.abandon();
    await untilBodies(gw, 1, 0);
    const next = startUpload(gw, big('next'), B);
    await untilBodies(gw, 1, 1);
    expect(await Promise.all([first.finish(), next.finish()])).toEqual([204, 204]);
    expect((await playlistNames(gw)).some((n) => n.startsWith('gone'))).toBe(false);
  });
});

describe('the body admission without authentication', () => {
  test('counts big bodies with made-up Basic user names against their address: one share, then 429', async () => {
    // Nothing verifies the names (no trustBasicUser, no user recorded in front of the handler).
    const gw = await startGateway({ metrics: true, maxBodiesDecoding: 1, maxBodiesWaiting: 1 });
    try {
      await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
      const first = startUpload(gw, playlists('name-0', 6000), { user: 'name-0' });
      await untilBodies(gw, 1, 0);
      for (const name of ['name-1', 'name-2', 'name-3']) {
        const r = await gw.fetch(JB, json('PATCH', playlists(name, 6000), { Authorization: basic(name) }));
        expect(r.status).toBe(429);
        expect(await r.text()).toContain('for client address 127.0.0.1');
      }
      expect(await first.finish()).toBe(204);
    } finally {
      await gw.close();
    }
  });
});

/** The debug lines of the collection once quiet: each says that it ran, or why not. */
const ONCE_QUIET = /^(garbage collected once quiet|no collection once quiet)/;

/** A logger for the server, and the decisions of the collection once quiet it was given so far. */
function collectionDecisions() {
  const debug = vi.fn<(message: string) => void>();
  const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
  const decided = () => debug.mock.calls.map(([line]) => line).filter((line) => ONCE_QUIET.test(line));
  return { logger, decided };
}

describe('the collection after big bodies', () => {
  test('weighs a big body once none has come for a while: runs collectGarbage and counts it, or says why not', async () => {
    const collectGarbage = vi.fn<() => void>();
    const { logger, decided } = collectionDecisions();
    const gw = await startGateway({ metrics: true, serverStatus: true, collectGarbage, logger });
    try {
      await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
      expect((await gw.fetch(JB, json('PATCH', playlists('big', 6000)))).status).toBe(204);
      // The quiet time is 2 s; waited for generously.
      for (let i = 0; i < 200 && decided().length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(decided()).toHaveLength(1);
      // What V8's own full collections left live while the body was read is weighed: in this process,
      // the test runner's heap with the server's, the pause may be over the budget (unit tests of
      // IdleCollection weigh given heaps).
      const ran = decided()[0]!.startsWith('garbage collected') ? 1 : 0;
      expect(collectGarbage).toHaveBeenCalledTimes(ran);
      expect(await metric(gw, 'restconf_idle_collections_total')).toBe(ran);
      const status = (await (await gw.fetch('/server-status')).json()) as Record<string, unknown>;
      expect(status['request-bodies']).toEqual({
        decoding: 0,
        waiting: 0,
        refused: 0,
        'idle-collections': ran,
        'young-collections': 0,
      });
    } finally {
      await gw.close();
    }
  });
});

describe('the collection once quiet after the start', () => {
  test('runs collectGarbage once 2 s after the start with no request, and counts it', async () => {
    const collectGarbage = vi.fn<() => void>();
    const gw = await startGateway({ metrics: true, collectGarbage });
    try {
      // Not a request: reading the counts would end the quiet time.
      for (let i = 0; i < 200 && collectGarbage.mock.calls.length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(collectGarbage).toHaveBeenCalledTimes(1);
      expect(await metric(gw, 'restconf_idle_collections_total')).toBe(1);
    } finally {
      await gw.close();
    }
  });
});

describe('the collection after big bodies with notification streams open', () => {
  test('is not put off by a connected RFC 8650 subscription receiver nor an RFC 8040 event stream', async () => {
    const collectGarbage = vi.fn<() => void>();
    const { logger, decided } = collectionDecisions();
    const gw = await start({ handler: { collectGarbage, logger } });
    const at = (path: string, init: RequestInit) => fetch(gw.url + path, init);
    const { path } = await establish(gw, { stream: 'NETCONF' });
    const receiver = await openStream(gw.url + path);
    const stream = await openStream(`${gw.url}/restconf/streams/json-NETCONF`);
    try {
      await at('/restconf/data', json('PUT', JUKEBOX));
      expect((await at(JB, json('PATCH', playlists('big', 6000)))).status).toBe(204);
      // 2 s of quiet; had the streams counted as requests in progress, it would come 10 s later.
      for (let i = 0; i < 160 && decided().length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(decided()).toHaveLength(1);
      // Whether it collects depends on the heap it weighs, this process's (see the test above).
      const ran = decided()[0]!.startsWith('garbage collected') ? 1 : 0;
      expect(collectGarbage).toHaveBeenCalledTimes(ran);
    } finally {
      receiver.close();
      stream.close();
      await gw.close();
    }
  });
});
