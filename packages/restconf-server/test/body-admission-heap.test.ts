import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { RestconfError } from '../src/errors.js';
import { createRestconfHandler } from '../src/handler.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { startUpload, untilBodies } from './body-admission-helpers.js';
import {
  exampleSchema,
  type Gateway,
  JUKEBOX,
  json,
  playlistNames,
  playlists,
  startGateway,
} from './harness.js';

// The heap in use as the body admission reads it, set by each test: a fraction of the limit.
const heap = vi.hoisted(() => ({ used: 0.1 }));
vi.mock('node:v8', async (importOriginal) => {
  const v8 = await importOriginal<typeof import('node:v8')>();
  return {
    ...v8,
    getHeapStatistics: () => {
      const real = v8.getHeapStatistics();
      return { ...real, used_heap_size: Math.round(heap.used * real.heap_size_limit) };
    },
  };
});

const JB = '/restconf/data/example-jukebox:jukebox';

describe('the heap ceiling of the body admission', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({ metrics: true, serverStatus: true, maxBodiesDecoding: 1, maxBodiesWaiting: 1 });
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    heap.used = 0.1;
    await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  });

  test('answers a big body 503 with Retry-After and an errors body naming the memory when the heap in use is above 70% of its limit', async () => {
    heap.used = 0.71;
    const r = await gw.fetch(JB, json('PATCH', playlists('refused', 6000)));
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    const error = ((await r.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error).toMatchObject({ 'error-type': 'protocol', 'error-tag': 'resource-denied' });
    expect(error?.['error-message']).toContain(
      "the server's memory is 71% used, over the 70% of its heap limit",
    );
    heap.used = 0.1;
    expect((await playlistNames(gw)).some((n) => n.startsWith('refused'))).toBe(false);
  });

  test('counts the refusal in /metrics and /server-status', async () => {
    const status = async () =>
      ((await (await gw.fetch('/server-status')).json()) as { 'request-bodies': { refused: number } })[
        'request-bodies'
      ].refused;
    const metric = async () =>
      Number(/^restconf_bodies_refused_total (\S+)$/m.exec(await (await gw.fetch('/metrics')).text())?.[1]);
    const before = [await status(), await metric()];
    heap.used = 0.9;
    expect((await gw.fetch(JB, json('PATCH', playlists('refused', 6000)))).status).toBe(503);
    expect([await status(), await metric()]).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  test('admits a big body under 70% of the heap limit', async () => {
    heap.used = 0.69;
    expect((await gw.fetch(JB, json('PATCH', playlists('admitted', 6000)))).status).toBe(204);
    expect(await playlistNames(gw)).toContain('admitted-5999');
  });

  test('answers a big body that waited for its slot 503 when the heap grew above the ceiling meanwhile', async () => {
    const held = startUpload(gw, playlists('held', 6000), { from: '127.0.0.2' });
    await untilBodies(gw, 1, 0);
    const waiting = gw.fetch(JB, json('PATCH', playlists('waited', 6000)));
    await untilBodies(gw, 1, 1);
    heap.used = 0.8;
    expect(await held.finish()).toBe(204);
    expect((await waiting).status).toBe(503);
    await untilBodies(gw, 0, 0);
    heap.used = 0.1;
    expect((await playlistNames(gw)).some((n) => n.startsWith('waited'))).toBe(false);
  });

  test('lets a body that declares at most 64 KiB through above the ceiling', async () => {
    heap.used = 0.95;
    expect((await gw.fetch(JB, json('PATCH', playlists('small', 10)))).status).toBe(204);
  });
});

describe('maxHeapPercent', () => {
  test('moves the ceiling: 90 admits a big body at 80% of the heap limit', async () => {
    const gw = await startGateway({ maxHeapPercent: 90 });
    try {
      await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
      heap.used = 0.8;
      expect((await gw.fetch(JB, json('PATCH', playlists('at-80', 6000)))).status).toBe(204);
      heap.used = 0.91;
      expect((await gw.fetch(JB, json('PATCH', playlists('at-91', 6000)))).status).toBe(503);
    } finally {
      heap.used = 0.1;
      await gw.close();
    }
  });

  test('is refused at 0 or above 100', async () => {
    const schema = await exampleSchema();
    const backend = createNetconfBackend({ schema, openSession: () => Promise.reject(new Error('unused')) });
    for (const bad of [0, 101, Number.NaN])
      expect(() => createRestconfHandler({ schema, backend, maxHeapPercent: bad })).toThrow(RestconfError);
  });
});
