import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, errorsOf, type Server, sendJson, startServer } from './harness.js';

// RFC 8040 sections 4.8.5, 4.8.6: insert and point apply to a list or leaf-list ordered-by user.
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const artist = { 'example-jukebox:artist': [{ name: 'Ordered' }] };
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function artistExists(): Promise<boolean> {
  const r = await s.fetch(`${LIBRARY}/artist=Ordered`, { headers: { Accept: DATA_JSON } });
  return r.status === 200;
}

describe('insert and point on a list not ordered-by user', () => {
  test('POST with insert is 400 invalid-value and creates nothing', async () => {
    const r = await s.fetch(`${LIBRARY}?insert=first`, sendJson('POST', artist, { Accept: DATA_JSON }));
    expect(r.status).toBe(400);
    expect((await errorsOf(r))[0]).toMatchObject({ 'error-tag': 'invalid-value' });
    expect(await artistExists()).toBe(false);
  });

  test('PUT with insert and point is 400 invalid-value and creates nothing', async () => {
    const point = encodeURIComponent('/example-jukebox:jukebox/library/artist=Foo%20Fighters');
    const r = await s.fetch(
      `${LIBRARY}/artist=Ordered?insert=after&point=${point}`,
      sendJson('PUT', artist, { Accept: DATA_JSON }),
    );
    expect(r.status).toBe(400);
    expect((await errorsOf(r))[0]).toMatchObject({ 'error-tag': 'invalid-value' });
    expect(await artistExists()).toBe(false);
  });
});
