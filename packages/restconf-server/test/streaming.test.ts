import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Gateway, json, startGateway } from './harness.js';

let gw: Gateway;
const COUNT = 5000;
beforeAll(async () => {
  gw = await startGateway();
  const artist = Array.from({ length: COUNT }, (_, i) => ({
    name: `artist-${i}`,
    album: [{ name: `album-${i}`, year: 2001 }],
  }));
  const r = await gw.fetch(
    '/restconf/data',
    json('PUT', { 'example-jukebox:jukebox': { library: { artist } } }),
  );
  expect(r.status).toBe(204);
}, 60_000);
afterAll(() => gw.close());

test('a large response is streamed in chunks and stays valid JSON', async () => {
  const r = await gw.fetch('/restconf/data/example-jukebox:jukebox/library?content=config');
  expect(r.status).toBe(200);
  expect(r.headers.get('transfer-encoding')).toBe('chunked');
  expect(r.headers.get('content-length')).toBeNull();
  const body = (await r.json()) as { 'example-jukebox:library': { artist: { name: string }[] } };
  expect(body['example-jukebox:library'].artist).toHaveLength(COUNT);
  expect(body['example-jukebox:library'].artist[COUNT - 1]!.name).toBe(`artist-${COUNT - 1}`);
});

test('a large XML response is streamed and holds every entry', async () => {
  const r = await gw.fetch('/restconf/data/example-jukebox:jukebox/library?content=config', {
    headers: { accept: 'application/yang-data+xml' },
  });
  expect(r.headers.get('transfer-encoding')).toBe('chunked');
  const text = await r.text();
  expect(text.match(/<artist>/g)).toHaveLength(COUNT);
});

test('small requests are answered while a large response is being written', async () => {
  const big = gw.fetch('/restconf/data/example-jukebox:jukebox?content=config');
  const small = await Promise.all(
    Array.from({ length: 5 }, () =>
      gw.fetch('/restconf/data/example-jukebox:jukebox/library/artist=artist-7/name'),
    ),
  );
  for (const s of small) expect(await s.json()).toEqual({ 'example-jukebox:name': 'artist-7' });
  expect((await big).status).toBe(200);
  await (await big).arrayBuffer();
});

test('an artist is added beside thousands of others', async () => {
  const r = await gw.fetch(
    '/restconf/data/example-jukebox:jukebox/library',
    json('POST', { 'example-jukebox:artist': [{ name: 'new' }] }),
  );
  expect(r.status).toBe(201);
  expect((await gw.fetch('/restconf/data/example-jukebox:jukebox/library/artist=new')).status).toBe(200);
});
