import { request as httpRequest, type IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';

const JSON_DATA = 'application/yang-data+json';
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const COUNT = 100_000;

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway(
    { port: 0, initialData: '', maxBodyBytes: 64 * 1024 * 1024, maxBodyNodes: 1_000_000, withNmda: true },
    { logger: pino({ level: 'silent' }) },
  );
  const artist = Array.from({ length: COUNT }, (_, i) => ({
    name: `artist-${i}`,
    album: [{ name: `album-${i}`, year: 2000 + (i % 20) }],
  }));
  const r = await fetch(gw.url + JUKEBOX, {
    method: 'PUT',
    headers: { 'Content-Type': JSON_DATA },
    body: JSON.stringify({ 'example-jukebox:jukebox': { library: { artist } } }),
  });
  expect(r.status).toBe(201);
}, 120_000);
afterAll(() => gw.close());

const readers = () => gw.backend.netconf!.running.readers;

/** A GET of the whole jukebox (with `query`) whose body is not read: the server stops at a full socket. */
function pausedGet(query = '', path = JUKEBOX): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(gw.url + path + query);
    const req = httpRequest(url, { headers: { Accept: JSON_DATA } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

function bodyOf(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
    res.resume();
  });
}

const addArtist = (name: string) =>
  fetch(`${gw.url}${JUKEBOX}/library`, {
    method: 'POST',
    headers: { 'Content-Type': JSON_DATA },
    body: JSON.stringify({ 'example-jukebox:artist': [{ name }] }),
  });

type Library = { 'example-jukebox:jukebox': { library: { artist: { name: string }[] } } };
const names = (text: string) => (JSON.parse(text) as Library)['example-jukebox:jukebox'].library.artist;

describe('reads written from the datastore without a copy', () => {
  test('a GET held by a slow reader keeps the datastore holding it as a reader', async () => {
    const res = await pausedGet();
    await expect.poll(readers, { timeout: 20_000 }).toBe(1);
    await bodyOf(res);
    await expect.poll(readers, { timeout: 20_000 }).toBe(0);
  });

  test('an edit committed in the middle of a large GET leaves that GET entirely the old state', async () => {
    const res = await pausedGet();
    await expect.poll(readers, { timeout: 20_000 }).toBe(1);
    const etag = res.headers.etag;
    expect((await addArtist('during-the-get')).status).toBe(201);
    const body = names(await bodyOf(res));
    expect(body).toHaveLength(COUNT);
    expect(body.some((a) => a.name === 'during-the-get')).toBe(false);
    const after = await fetch(gw.url + JUKEBOX, { headers: { Accept: JSON_DATA } });
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(names(await after.text()).some((a) => a.name === 'during-the-get')).toBe(true);
  }, 60_000);

  test('a client that disconnects in the middle of an answer leaves no reader registered', async () => {
    const res = await pausedGet();
    await expect.poll(readers, { timeout: 20_000 }).toBe(1);
    res.destroy();
    await expect.poll(readers, { timeout: 20_000 }).toBe(0);
  });
});

describe('reads with query parameters written from the datastore without a copy', () => {
  test('a GET with ?depth=1 is read from the datastore, never as a copy', async () => {
    const copies = vi.spyOn(gw.backend.backend, 'read');
    const shared = vi.spyOn(gw.backend.backend, 'readShared');
    try {
      const r = await fetch(`${gw.url}${JUKEBOX}?depth=1`, { headers: { Accept: JSON_DATA } });
      expect(await r.json()).toEqual({ 'example-jukebox:jukebox': {} });
      expect(shared).toHaveBeenCalledTimes(1);
      expect(copies).not.toHaveBeenCalled();
    } finally {
      copies.mockRestore();
      shared.mockRestore();
    }
  });

  test.each(['?depth=3', '?content=config', '?fields=library/artist/name&with-defaults=report-all'])(
    'a GET with %s holds the datastore as a reader and never reads a copy',
    async (query) => {
      const copies = vi.spyOn(gw.backend.backend, 'read');
      try {
        const res = await pausedGet(query);
        await expect.poll(readers, { timeout: 20_000 }).toBe(1);
        expect(names(await bodyOf(res)).length).toBeGreaterThanOrEqual(COUNT);
        await expect.poll(readers, { timeout: 20_000 }).toBe(0);
        expect(copies).not.toHaveBeenCalled();
      } finally {
        copies.mockRestore();
      }
    },
    60_000,
  );

  test('an edit committed in the middle of a depth=4 GET leaves that GET entirely the old state', async () => {
    const depth4 = async () =>
      names(await (await fetch(`${gw.url}${JUKEBOX}?depth=4`, { headers: { Accept: JSON_DATA } })).text());
    const before = (await depth4()).length;
    const res = await pausedGet('?depth=4');
    await expect.poll(readers, { timeout: 20_000 }).toBe(1);
    expect((await addArtist('during-the-depth-get')).status).toBe(201);
    const body = names(await bodyOf(res));
    expect(body).toHaveLength(before);
    expect(body.some((a) => a.name === 'during-the-depth-get')).toBe(false);
    expect(body[0]).toEqual({ name: 'artist-0', album: [{}] });
    expect((await depth4()).some((a) => a.name === 'during-the-depth-get')).toBe(true);
  }, 60_000);
});

describe('with-origin reads of the operational datastore written from the datastore without a copy', () => {
  const OPERATIONAL = '/restconf/ds/ietf-datastores:operational/example-jukebox:jukebox';
  type Annotated = { '@'?: Record<string, string> };
  const origin = (text: string) =>
    (JSON.parse(text) as Record<string, Annotated>)['example-jukebox:jukebox']!['@'];

  test('a GET with ?with-origin holds the datastore as a reader, never reads a copy, and states the origins', async () => {
    const copies = vi.spyOn(gw.backend.backend, 'read');
    try {
      const res = await pausedGet('?with-origin', OPERATIONAL);
      await expect.poll(readers, { timeout: 20_000 }).toBe(1);
      const text = await bodyOf(res);
      expect(names(text).length).toBeGreaterThanOrEqual(COUNT);
      expect(origin(text)).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
      await expect.poll(readers, { timeout: 20_000 }).toBe(0);
      expect(copies).not.toHaveBeenCalled();
    } finally {
      copies.mockRestore();
    }
  }, 60_000);

  test('an edit committed in the middle of a with-origin GET leaves that GET entirely the old state', async () => {
    const res = await pausedGet('?with-origin', OPERATIONAL);
    await expect.poll(readers, { timeout: 20_000 }).toBe(1);
    expect((await addArtist('during-the-origin-get')).status).toBe(201);
    const text = await bodyOf(res);
    expect(names(text).some((a) => a.name === 'during-the-origin-get')).toBe(false);
    expect(origin(text)).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
    const after = await fetch(`${gw.url}${OPERATIONAL}?with-origin`, { headers: { Accept: JSON_DATA } });
    expect(names(await after.text()).some((a) => a.name === 'during-the-origin-get')).toBe(true);
  }, 60_000);
});
