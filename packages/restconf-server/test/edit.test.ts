import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());
beforeEach(async () => {
  const r = await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  expect(r.status).toBe(204);
});

const LIB = '/restconf/data/example-jukebox:jukebox/library';
const FOO = `${LIB}/artist=Foo%20Fighters`;

async function get(path: string): Promise<Response> {
  return gw.fetch(path);
}

describe('create with POST (RFC 8040 B.2.1)', () => {
  test('POST of a new child answers 201 with a Location built from the server URL', async () => {
    const r = await gw.fetch(LIB, json('POST', { 'example-jukebox:artist': [{ name: 'Nick Cave' }] }));
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(
      'http://localhost/restconf/data/example-jukebox:jukebox/library/artist=Nick%20Cave',
    );
    expect((await get(`${LIB}/artist=Nick%20Cave`)).status).toBe(200);
  });

  test('POST uses --restconf-server-url for Location', async () => {
    const other = await startGateway({ serverUrl: 'https://example.com' });
    try {
      await other.fetch('/restconf/data', json('PUT', JUKEBOX));
      const r = await other.fetch(
        `${FOO}`,
        json('POST', { 'example-jukebox:album': [{ name: 'Medicine' }] }),
      );
      expect(r.headers.get('location')).toBe(
        'https://example.com/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Medicine',
      );
    } finally {
      await other.close();
    }
  });

  test('POST of a child in XML answers 201', async () => {
    const r = await gw.fetch(FOO, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml' },
      body: '<album xmlns="http://example.com/ns/example-jukebox"><name>Wasting Light 2</name><year>2011</year></album>',
    });
    expect(r.status).toBe(201);
  });

  test('POST of an existing child is 409 data-exists', async () => {
    const r = await gw.fetch(LIB, json('POST', { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] }));
    expect(r.status).toBe(409);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-tag': string }[] } };
    expect(body['ietf-restconf:errors'].error[0]!['error-tag']).toBe('data-exists');
  });

  test('the 409 of a POST of an existing child names that child in error-path', async () => {
    const r = await gw.fetch(LIB, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+json', accept: 'application/yang-data+xml' },
      body: JSON.stringify({ 'example-jukebox:artist': [{ name: 'Foo Fighters' }] }),
    });
    expect(r.status).toBe(409);
    expect(await r.text()).toContain(
      '<error-path xmlns:jbox="http://example.com/ns/example-jukebox">/jbox:jukebox/jbox:library/jbox:artist[jbox:name=\'Foo Fighters\']</error-path>',
    );
  });

  test('POST on the datastore creates a top-level node', async () => {
    await gw.fetch('/restconf/data/example-jukebox:jukebox', { method: 'DELETE' });
    const r = await gw.fetch(
      '/restconf/data',
      json('POST', { 'example-jukebox:jukebox': { player: { gap: '1.0' } } }),
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe('http://localhost/restconf/data/example-jukebox:jukebox');
  });

  test('POST on the datastore of an existing node is 409', async () => {
    const r = await gw.fetch('/restconf/data', json('POST', { 'example-jukebox:jukebox': {} }));
    expect(r.status).toBe(409);
  });

  test('POST with two nodes in the body is 400', async () => {
    const r = await gw.fetch(LIB, json('POST', { 'example-jukebox:artist': [{ name: 'A' }, { name: 'B' }] }));
    expect(r.status).toBe(400);
  });

  test('a created resource answers with a new ETag and Last-Modified', async () => {
    const before = (await get('/restconf/data')).headers.get('etag');
    const r = await gw.fetch(LIB, json('POST', { 'example-jukebox:artist': [{ name: 'Mogwai' }] }));
    expect(r.headers.get('etag')).not.toBe(before);
    expect(r.headers.get('last-modified')).toBeTruthy();
  });
});

describe('replace with PUT (RFC 8040 B.2.2)', () => {
  test('PUT of a new resource answers 201', async () => {
    const r = await gw.fetch(
      `${FOO}/album=Medicine`,
      json('PUT', { 'example-jukebox:album': [{ name: 'Medicine', year: 2017 }] }),
    );
    expect(r.status).toBe(201);
  });

  test('PUT of an existing resource answers 204 and replaces it', async () => {
    const album = `${FOO}/album=Wasting%20Light`;
    const r = await gw.fetch(
      album,
      json('PUT', { 'example-jukebox:album': [{ name: 'Wasting Light', year: 2012 }] }),
    );
    expect(r.status).toBe(204);
    const got = (await (await get(album)).json()) as {
      'example-jukebox:album': { year: number; genre?: string }[];
    };
    expect(got['example-jukebox:album'][0]!.year).toBe(2012);
    expect(got['example-jukebox:album'][0]!.genre).toBeUndefined();
  });

  test('PUT whose body key differs from the URI key is 400', async () => {
    const r = await gw.fetch(
      `${FOO}/album=Medicine`,
      json('PUT', { 'example-jukebox:album': [{ name: 'Other' }] }),
    );
    expect(r.status).toBe(400);
  });

  test('PUT on the datastore replaces the whole configuration', async () => {
    const r = await gw.fetch(
      '/restconf/data',
      json('PUT', { 'example-jukebox:jukebox': { player: { gap: '0.3' } } }),
    );
    expect(r.status).toBe(204);
    expect((await get(FOO)).status).toBe(404);
    const player = await (await get('/restconf/data/example-jukebox:jukebox/player')).json();
    expect(player).toEqual({ 'example-jukebox:player': { gap: '0.3' } });
  });

  test('PUT on the datastore with an empty data body removes all configuration', async () => {
    const r = await gw.fetch('/restconf/data', json('PUT', { 'ietf-restconf:data': {} }));
    expect(r.status).toBe(204);
    expect((await get('/restconf/data/example-jukebox:jukebox')).status).toBe(404);
  });
});

describe('merge with PATCH (RFC 8040 B.2.3)', () => {
  test('PATCH of a leaf answers 204 and changes it', async () => {
    const r = await gw.fetch(
      '/restconf/data/example-jukebox:jukebox/player/gap',
      json('PATCH', { 'example-jukebox:gap': '1.5' }),
    );
    expect(r.status).toBe(204);
    expect(await (await get('/restconf/data/example-jukebox:jukebox/player/gap')).json()).toEqual({
      'example-jukebox:gap': '1.5',
    });
  });

  test('PATCH merges and keeps what the body leaves out', async () => {
    const album = `${FOO}/album=Wasting%20Light`;
    const r = await gw.fetch(
      album,
      json('PATCH', { 'example-jukebox:album': [{ name: 'Wasting Light', year: 2013 }] }),
    );
    expect(r.status).toBe(204);
    const got = (await (await get(album)).json()) as {
      'example-jukebox:album': { year: number; genre: string }[];
    };
    expect(got['example-jukebox:album'][0]).toMatchObject({ year: 2013, genre: 'alternative' });
  });

  test('PATCH of a container merges into it', async () => {
    const r = await gw.fetch(
      `${LIB}`,
      json('PATCH', { 'example-jukebox:library': { artist: [{ name: 'Mogwai' }] } }),
    );
    expect(r.status).toBe(204);
    expect((await get(FOO)).status).toBe(200);
    expect((await get(`${LIB}/artist=Mogwai`)).status).toBe(200);
  });

  test('PATCH of a missing container is 404 and creates nothing', async () => {
    await gw.fetch('/restconf/data/example-jukebox:jukebox', { method: 'DELETE' });
    const r = await gw.fetch(
      LIB,
      json('PATCH', { 'example-jukebox:library': { artist: [{ name: 'Mogwai' }] } }),
    );
    expect(r.status).toBe(404);
    expect((await get('/restconf/data/example-jukebox:jukebox')).status).toBe(404);
  });

  test('PATCH of a missing resource is 404', async () => {
    const r = await gw.fetch(
      `${LIB}/artist=Nobody`,
      json('PATCH', { 'example-jukebox:artist': [{ name: 'Nobody' }] }),
    );
    expect(r.status).toBe(404);
  });

  test('PATCH on the datastore merges several top-level nodes (B.2.4)', async () => {
    const r = await gw.fetch(
      '/restconf/data',
      json('PATCH', {
        'ietf-restconf:data': { 'example-jukebox:jukebox': { library: { artist: [{ name: 'Mogwai' }] } } },
      }),
    );
    expect(r.status).toBe(204);
    expect((await get(FOO)).status).toBe(200);
    expect((await get(`${LIB}/artist=Mogwai`)).status).toBe(200);
  });
});

describe('DELETE (RFC 8040 4.7)', () => {
  test('DELETE of a resource answers 204 and removes it', async () => {
    const r = await gw.fetch(FOO, { method: 'DELETE' });
    expect(r.status).toBe(204);
    expect((await get(FOO)).status).toBe(404);
  });

  test('DELETE of a missing resource is 404', async () => {
    const r = await gw.fetch(`${LIB}/artist=Nobody`, { method: 'DELETE' });
    expect(r.status).toBe(404);
  });

  test('DELETE on the datastore is 405 with Allow', async () => {
    const r = await gw.fetch('/restconf/data', { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH');
  });
});

describe('edits are validated before anything is written', () => {
  test('a value outside its range is 400 and nothing changes', async () => {
    const r = await gw.fetch(
      '/restconf/data/example-jukebox:jukebox/player/gap',
      json('PATCH', { 'example-jukebox:gap': '9.9' }),
    );
    expect(r.status).toBe(400);
    expect(await (await get('/restconf/data/example-jukebox:jukebox/player/gap')).json()).toEqual({
      'example-jukebox:gap': '0.5',
    });
  });

  test('a missing mandatory leaf is refused by the backend with its error-path', async () => {
    const r = await gw.fetch(
      `${FOO}/album=Wasting%20Light`,
      json('POST', { 'example-jukebox:song': [{ name: 'Bridge Burning' }] }),
    );
    expect(r.status).toBeGreaterThanOrEqual(400);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-path'?: string }[] } };
    expect(body['ietf-restconf:errors'].error[0]!['error-path']).toContain('song');
  });
});
