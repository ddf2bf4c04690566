import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsOf, type Server, sendJson, sendXml, startServer } from './harness.js';

// RFC 8040 Appendix B.2: data resource and datastore resource examples, run in order on a
// gateway that starts with an empty jukebox (the examples create Foo Fighters themselves).
const JB = 'http://example.com/ns/example-jukebox';
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const FOO = `${LIBRARY}/artist=Foo%20Fighters`;
let s: Server;
beforeAll(async () => {
  s = await startServer({ initialData: '' });
  const r = await s.fetch('/restconf/data', sendJson('POST', { 'example-jukebox:jukebox': { library: {} } }));
  expect(r.status).toBe(201);
});
afterAll(() => s.close());

describe('B.2.1 create new data resources', () => {
  test('POST of an artist answers 201 with Location, ETag and Last-Modified and no body', async () => {
    const r = await s.fetch(
      LIBRARY,
      sendJson('POST', { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] }),
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.gateway.url}${FOO}`);
    expect(r.headers.get('etag')).toMatch(/^"/);
    expect(Date.parse(r.headers.get('last-modified') ?? '')).not.toBeNaN();
    expect(await r.text()).toBe('');
  });

  test('POST of an album in XML answers 201 with the album in Location', async () => {
    const r = await s.fetch(
      FOO,
      sendXml('POST', `<album xmlns="${JB}"><name>Wasting Light</name><year>2011</year></album>`),
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.gateway.url}${FOO}/album=Wasting%20Light`);
  });

  test('POST of the same artist again answers 409 data-exists', async () => {
    const r = await s.fetch(
      LIBRARY,
      sendJson('POST', { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] }),
    );
    expect(r.status).toBe(409);
    expect((await errorsOf(r))[0]?.['error-tag']).toBe('data-exists');
  });
});

describe('B.2.2 detect datastore resource entity-tag change', () => {
  test('PUT with a stale If-Match answers 412 and changes nothing', async () => {
    const r = await s.fetch(
      `${FOO}/album=Wasting%20Light`,
      sendXml(
        'PUT',
        `<album xmlns="${JB}" xmlns:g="${JB}"><name>Wasting Light</name><genre>g:alternative</genre><year>2011</year></album>`,
        { 'If-Match': '"a74eefc993a2b"' },
      ),
    );
    expect(r.status).toBe(412);
    const album = await s.fetch(`${FOO}/album=Wasting%20Light`, { headers: { Accept: DATA_JSON } });
    expect(await album.json()).toEqual({ 'example-jukebox:album': [{ name: 'Wasting Light', year: 2011 }] });
  });

  test('PUT with the current entity tag answers 204', async () => {
    const etag = (await s.fetch('/restconf/data', { method: 'HEAD' })).headers.get('etag')!;
    const r = await s.fetch(
      `${FOO}/album=Wasting%20Light`,
      sendXml(
        'PUT',
        `<album xmlns="${JB}" xmlns:g="${JB}"><name>Wasting Light</name><genre>g:alternative</genre><year>2011</year></album>`,
        { 'If-Match': etag },
      ),
    );
    expect(r.status).toBe(204);
  });
});

describe('B.2.3 edit a datastore resource', () => {
  test('PATCH of /data merges several artists at once', async () => {
    const body = `<data xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">
  <jukebox xmlns="${JB}">
    <library>
      <artist><name>Foo Fighters</name><album><name>One by One</name><year>2012</year></album></artist>
      <artist><name>Nick Cave and the Bad Seeds</name><album><name>Tender Prey</name><year>1988</year></album></artist>
    </library>
  </jukebox>
</data>`;
    const r = await s.fetch('/restconf/data', sendXml('PATCH', body));
    expect(r.status).toBe(204);
    const albums = await s.fetch(`${FOO}/album?fields=name`, { headers: { Accept: DATA_JSON } });
    expect(await albums.json()).toEqual({
      'example-jukebox:album': [{ name: 'Wasting Light' }, { name: 'One by One' }],
    });
  });
});

describe('B.2.5 edit a data resource', () => {
  test('PATCH of an artist merges an album into it', async () => {
    const body = `<artist xmlns="${JB}"><name>Foo Fighters</name><album><name>Sonic Highways</name><year>2014</year></album></artist>`;
    const r = await s.fetch(FOO, sendXml('PATCH', body));
    expect(r.status).toBe(204);
    const year = await s.fetch(`${FOO}/album=Sonic%20Highways/year`, { headers: { Accept: DATA_XML } });
    expect(await year.text()).toBe(`<year xmlns="${JB}">2014</year>`);
  });
});

describe('B.2.4 replace a datastore resource', () => {
  test('PUT of /data replaces the whole datastore', async () => {
    const body = `<data xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">
  <jukebox xmlns="${JB}">
    <library>
      <artist><name>Foo Fighters</name><album><name>One by One</name><year>2012</year></album></artist>
    </library>
  </jukebox>
</data>`;
    const r = await s.fetch('/restconf/data', sendXml('PUT', body));
    expect(r.status).toBe(204);
    const artists = await s.fetch(`${LIBRARY}/artist?fields=name`, { headers: { Accept: DATA_JSON } });
    expect(await artists.json()).toEqual({ 'example-jukebox:artist': [{ name: 'Foo Fighters' }] });
    expect((await s.fetch(`${FOO}/album=Wasting%20Light`)).status).toBe(404);
  });
});
