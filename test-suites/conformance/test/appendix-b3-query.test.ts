import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, errorsOf, type Server, sendJson, startServer } from './harness.js';

// RFC 8040 Appendix B.3: query parameter examples, on the sample jukebox. B.3.6 to B.3.8
// (filter, start-time, stop-time) apply to event streams: see appendix-b3-streams.test.ts.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const PLAYLIST = `${JUKEBOX}/playlist=Foo-One`;
const ROPE =
  "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Rope']";
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function get(path: string): Promise<unknown> {
  const r = await s.fetch(path, { headers: { Accept: DATA_JSON } });
  expect(r.status).toBe(200);
  return r.json();
}

async function songIndexes(): Promise<number[]> {
  const body = (await get(`${PLAYLIST}/song?fields=index`)) as {
    'example-jukebox:song': { index: number }[];
  };
  return body['example-jukebox:song'].map((x) => x.index);
}

describe('B.3.1 "content" parameter', () => {
  test('content=nonconfig answers only the state counters of the library', async () => {
    expect(await get(`${JUKEBOX}/library?content=nonconfig`)).toEqual({
      'example-jukebox:library': { 'artist-count': 3, 'album-count': 3, 'song-count': 5 },
    });
  });

  test('content=config leaves the state counters out', async () => {
    const body = JSON.stringify(await get(`${JUKEBOX}/library?content=config`));
    expect(body).toContain('"name":"Foo Fighters"');
    expect(body).not.toContain('artist-count');
  });

  test('content=all answers configuration and state together', async () => {
    const body = JSON.stringify(await get(`${JUKEBOX}/library?content=all`));
    expect(body).toContain('"name":"Foo Fighters"');
    expect(body).toContain('"artist-count":3');
  });

  test('content on a POST answers 400', async () => {
    const r = await s.fetch(
      `${JUKEBOX}/library?content=config`,
      sendJson('POST', { 'example-jukebox:artist': [{ name: 'X' }] }),
    );
    expect(r.status).toBe(400);
  });
});

describe('B.3.2 "depth" parameter', () => {
  test('depth=1 answers the target alone', async () => {
    expect(await get(`${JUKEBOX}?depth=1`)).toEqual({ 'example-jukebox:jukebox': {} });
  });

  test('depth=3 answers three levels, the child resources at the last one as empty nodes', async () => {
    const body = (await get(`${JUKEBOX}?depth=3`)) as { 'example-jukebox:jukebox': Record<string, unknown> };
    const jukebox = body['example-jukebox:jukebox'];
    expect(jukebox.player).toEqual({ gap: '0.5' });
    // RFC 8040 B.3.2 (with erratum 6473: lists are arrays): "artist" and "song" stand empty at level 3.
    expect(jukebox.playlist).toEqual([
      { name: 'Foo-One', description: 'example playlist 1', song: [{}, {}] },
    ]);
    expect((jukebox.library as { artist: unknown[] }).artist.every((a) => JSON.stringify(a) === '{}')).toBe(
      true,
    );
    expect(JSON.stringify(jukebox)).not.toContain('Wasting Light');
  });

  test('depth=0 answers 400 invalid-value', async () => {
    const r = await s.fetch(`${JUKEBOX}?depth=0`);
    expect(r.status).toBe(400);
    expect((await errorsOf(r))[0]?.['error-tag']).toBe('invalid-value');
  });
});

describe('B.3.3 "fields" parameter', () => {
  test('selects module name and revision in the YANG library', async () => {
    const body = (await get(
      '/restconf/data?fields=ietf-yang-library:modules-state/module(name;revision)',
    )) as {
      'ietf-restconf:data': { 'ietf-yang-library:modules-state': { module: Record<string, unknown>[] } };
    };
    const modules = body['ietf-restconf:data']['ietf-yang-library:modules-state'].module;
    expect(modules.find((m) => m.name === 'example-jukebox')).toEqual({
      name: 'example-jukebox',
      revision: '2016-08-15',
    });
    for (const m of modules) expect(Object.keys(m).sort()).toEqual(['name', 'revision']);
  });

  test('a field naming no schema node below the target is 400, not an empty answer', async () => {
    for (const fields of ['nope', 'library(nope)', 'library/artist/nope']) {
      const r = await s.fetch(`/restconf/data/example-jukebox:jukebox?fields=${fields}`, {
        headers: { Accept: DATA_JSON },
      });
      expect([fields, r.status]).toEqual([fields, 400]);
      expect((await errorsOf(r))[0]).toMatchObject({
        'error-type': 'protocol',
        'error-tag': 'unknown-element',
      });
    }
  });
});

describe('B.3.4 "insert" parameter', () => {
  test('insert=first puts a new playlist song first and answers its Location', async () => {
    const r = await s.fetch(
      `${PLAYLIST}?insert=first`,
      sendJson('POST', { 'example-jukebox:song': [{ index: 10, id: ROPE }] }),
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.gateway.url}${PLAYLIST}/song=10`);
    expect(await songIndexes()).toEqual([10, 1, 2]);
  });
});

describe('B.3.5 "point" parameter', () => {
  test('insert=after with point puts a new song right after the one named', async () => {
    const point = encodeURIComponent('/example-jukebox:jukebox/playlist=Foo-One/song=1');
    const r = await s.fetch(
      `${PLAYLIST}?insert=after&point=${point}`,
      sendJson('POST', { 'example-jukebox:song': [{ index: 11, id: ROPE }] }),
    );
    expect(r.status).toBe(201);
    expect(await songIndexes()).toEqual([10, 1, 11, 2]);
  });

  test('point without insert=before or after answers 400', async () => {
    const point = encodeURIComponent('/example-jukebox:jukebox/playlist=Foo-One/song=1');
    const r = await s.fetch(
      `${PLAYLIST}?point=${point}`,
      sendJson('POST', { 'example-jukebox:song': [{ index: 12, id: ROPE }] }),
    );
    expect(r.status).toBe(400);
  });
});

describe('B.3.9 "with-defaults" parameter', () => {
  test('accepts each RFC 6243 mode on a GET', async () => {
    for (const mode of ['report-all', 'report-all-tagged', 'trim', 'explicit']) {
      const r = await s.fetch(`${JUKEBOX}/player?with-defaults=${mode}`);
      expect(r.status).toBe(200);
    }
  });

  test('refuses an unknown mode with 400', async () => {
    expect((await s.fetch(`${JUKEBOX}/player?with-defaults=all`)).status).toBe(400);
  });
});
