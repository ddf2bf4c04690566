import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RestconfClient, RestconfClientError, RestconfResponseError } from '../src/index.js';
import { startTestServer } from './test-server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let client: RestconfClient;

beforeEach(async () => {
  server = await startTestServer();
  client = new RestconfClient({ baseUrl: server.url });
});
afterEach(() => server.close());

const LIBRARY = '/example-jukebox:jukebox/library';

describe('discovery', () => {
  test('finds the root through host-meta and asks only once', async () => {
    expect(await client.root()).toBe('/top/restconf');
    await client.get(LIBRARY);
    await client.get(LIBRARY);
    expect(server.seen.filter((r) => r.url === '/.well-known/host-meta')).toHaveLength(1);
  });

  test('skips discovery when the root is given', async () => {
    const direct = new RestconfClient({ baseUrl: server.url, root: server.root });
    await direct.get(LIBRARY);
    expect(server.seen.map((r) => r.url)).toEqual([`${server.root}/data${LIBRARY}`]);
  });
});

describe('reading', () => {
  test('gets a data resource as JSON with its entity-tag', async () => {
    const response = await client.get(LIBRARY);
    expect(response.data).toEqual({ 'example-jukebox:library': { artist: [{ name: 'Foo Fighters' }] } });
    expect(response.etag).toBe('"rev-1"');
    expect(server.seen.at(-1)?.headers.accept).toBe('application/yang-data+json');
  });

  test('gets a data resource as XML on request', async () => {
    const response = await client.get(LIBRARY, { encoding: 'xml' });
    expect(response.data).toContain('<artist><name>Foo Fighters</name></artist>');
    expect(server.seen.at(-1)?.headers.accept).toBe('application/yang-data+xml');
  });

  test('formats every GET query parameter through restconf-uri', async () => {
    await client.get(LIBRARY, {
      content: 'config',
      depth: 2,
      fields: 'artist(name;album)',
      withDefaults: 'report-all',
      withEtag: true,
      withLastModified: true,
      withOwners: true,
      vendor: { 'acme:trace': 'on', 'acme:flag': '' },
    });
    expect(server.seen.at(-1)?.url).toBe(
      `${server.root}/data${LIBRARY}?content=config&depth=2&fields=artist(name;album)&with-defaults=report-all&with-etag&with-last-modified&with-owners&acme:trace=on&acme:flag`,
    );
  });

  test('encodes list keys with reserved characters in the api-path', async () => {
    await client
      .get([
        { module: 'example-jukebox', name: 'jukebox' },
        { name: 'library' },
        { name: 'artist', keys: ['AC/DC, live'] },
      ])
      .catch(() => undefined);
    expect(server.seen.at(-1)?.url).toBe(`${server.root}/data${LIBRARY}/artist=AC%2FDC%2C%20live`);
  });

  test('reads an NMDA datastore under ds', async () => {
    await client.get(LIBRARY, { datastore: 'operational', withOrigin: true }).catch(() => undefined);
    expect(server.seen.at(-1)?.url).toBe(
      `${server.root}/ds/ietf-datastores:operational${LIBRARY}?with-origin`,
    );
  });

  test('answers a conditional GET with notModified when the entity-tag matches', async () => {
    const first = await client.get(LIBRARY);
    const second = await client.get(LIBRARY, { ifNoneMatch: first.etag as string });
    expect(second.notModified).toBe(true);
    expect(second.data).toBeUndefined();
  });

  test('sends If-Modified-Since as an HTTP date', async () => {
    await client.get(LIBRARY, { ifModifiedSince: new Date(Date.UTC(2026, 0, 2)) });
    expect(server.seen.at(-1)?.headers['if-modified-since']).toBe('Fri, 02 Jan 2026 00:00:00 GMT');
  });

  test('reads the yang-library-version and a module schema', async () => {
    expect(await client.yangLibraryVersion()).toBe('2019-01-04');
    expect(await client.schema('example-jukebox')).toMatch(/^module example-jukebox \{/);
  });
});

describe('editing', () => {
  test('creates an entry and resolves the Location header', async () => {
    const response = await client.create(LIBRARY, { 'example-jukebox:artist': [{ name: 'Nirvana' }] });
    expect(response.status).toBe(201);
    expect(response.location).toBe(`${server.url}${server.root}/data${LIBRARY}/artist=Nirvana`);
    expect(server.seen.at(-1)?.headers['content-type']).toBe('application/yang-data+json');
  });

  test('throws a RestconfResponseError carrying the errors entries on 409', async () => {
    const error = await client
      .create(LIBRARY, { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] })
      .catch((e: unknown) => e);
    expect(RestconfResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 409,
      code: 'HTTP_ERROR',
      errorTag: 'data-exists',
      errorType: 'protocol',
      errorPath: "/example-jukebox:jukebox/library/artist[name='Foo Fighters']",
      errors: [{ errorTag: 'data-exists', errorMessage: 'the entry exists' }],
    });
  });

  test('decodes an XML error body', async () => {
    const error = await client.get(`${LIBRARY}/nothing`, { encoding: 'xml' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 405, errorTag: 'operation-not-supported' });
  });

  test('replaces and merges with If-Match, adding the confirmed-commit parameters', async () => {
    const { etag } = await client.get(LIBRARY);
    await client.replace(
      `${LIBRARY}/artist=Foo%20Fighters`,
      { 'example-jukebox:artist': [{ name: 'Foo Fighters', genre: 'rock' }] },
      { ifMatch: etag as string, confirmed: true, confirmTimeout: 60, persist: 'p1' },
    );
    expect(server.seen.at(-1)).toMatchObject({
      method: 'PUT',
      url: `${server.root}/data${LIBRARY}/artist=Foo%20Fighters?confirmed=1&confirm-timeout=60&persist=p1`,
    });
    await client.merge(
      `${LIBRARY}/artist=Foo%20Fighters`,
      '{"example-jukebox:artist":[{"name":"Foo Fighters","x":1}]}',
    );
    expect(server.artists.get('Foo Fighters')).toEqual({ name: 'Foo Fighters', genre: 'rock', x: 1 });
  });

  test('fails with 412 when If-Match no longer matches', async () => {
    const error = await client
      .replace(`${LIBRARY}/artist=Foo%20Fighters`, { 'example-jukebox:artist': [{}] }, { ifMatch: '"old"' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 412 });
  });

  test('deletes an entry, and remove ignores a missing one where delete fails', async () => {
    expect((await client.delete(`${LIBRARY}/artist=Foo%20Fighters`)).status).toBe(204);
    expect((await client.remove(`${LIBRARY}/artist=Foo%20Fighters`)).status).toBe(404);
    await expect(client.delete(`${LIBRARY}/artist=Foo%20Fighters`)).rejects.toMatchObject({ status: 404 });
  });

  test('inserts with create as a POST to the parent with insert and point', async () => {
    await client.insert(
      `${LIBRARY}/artist=Nirvana`,
      { 'example-jukebox:artist': [{ name: 'Nirvana' }] },
      {
        operation: 'create',
        insert: 'before',
        point: `${LIBRARY}/artist=Foo%20Fighters`,
      },
    );
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: `${server.root}/data${LIBRARY}?insert=before&point=/example-jukebox:jukebox/library/artist%3DFoo%2520Fighters`,
    });
  });

  test('inserts with merge as a YANG Patch insert edit on the parent', async () => {
    await client
      .insert(
        `${LIBRARY}/artist=Nirvana`,
        { 'example-jukebox:artist': [{ name: 'Nirvana' }] },
        {
          operation: 'merge',
          insert: 'first',
        },
      )
      .catch(() => undefined);
    const request = server.seen.at(-1);
    expect(request?.headers['content-type']).toBe('application/yang-patch+json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'insert',
        edit: [
          {
            'edit-id': '1',
            operation: 'insert',
            target: '/artist=Nirvana',
            where: 'first',
            value: { 'example-jukebox:artist': [{ name: 'Nirvana' }] },
          },
        ],
      },
    });
  });

  test('inserts with merge in XML as a yang-patch document with where and point', async () => {
    await client
      .insert(
        `${LIBRARY}/artist=Nirvana`,
        '<artist xmlns="http://example.com/ns/example-jukebox"><name>Nirvana</name></artist>',
        {
          operation: 'merge',
          insert: 'after',
          point: `${LIBRARY}/artist=Foo%20Fighters`,
          encoding: 'xml',
        },
      )
      .catch(() => undefined);
    const request = server.seen.at(-1);
    expect(request?.headers['content-type']).toBe('application/yang-patch+xml');
    expect(request?.body).toBe(
      '<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>insert</patch-id>' +
        '<edit><edit-id>1</edit-id><operation>insert</operation><target>/artist=Nirvana</target>' +
        '<where>after</where><point>/artist=Foo%20Fighters</point>' +
        '<value><artist xmlns="http://example.com/ns/example-jukebox"><name>Nirvana</name></artist></value></edit></yang-patch>',
    );
  });

  test('rejects an api-path that does not parse before sending anything', async () => {
    const error = await client.get('/example-jukebox:jukebox//library').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(server.seen.filter((r) => r.url.includes('/data'))).toHaveLength(0);
  });

  test('rejects a fields expression that does not parse', async () => {
    await expect(client.get(LIBRARY, { fields: 'artist((' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  test('rejects a start-time that is no date-and-time', async () => {
    const events = client.subscribe('NETCONF', { startTime: 'yesterday' });
    await expect(events.next()).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  test('rejects a JSON value that is not JSON text', async () => {
    await expect(client.merge(LIBRARY, '{oops')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('operations', () => {
  test('wraps the input of an RPC in <module>:input and returns the output', async () => {
    const response = await client.invoke('example-jukebox:play', { playlist: 'Foo-One' });
    expect(JSON.parse(server.seen.at(-1)?.body ?? '')).toEqual({
      'example-jukebox:input': { playlist: 'Foo-One' },
    });
    expect(response.data).toEqual({ 'example-jukebox:output': { playing: 'Foo-One' } });
  });

  test('sends no body for an RPC without input, but says the encoding', async () => {
    await client.invoke('example-jukebox:play', undefined, { encoding: 'xml' });
    expect(server.seen.at(-1)).toMatchObject({
      body: '',
      headers: { 'content-type': 'application/yang-data+xml' },
    });
  });

  test('commits and cancels a confirmed commit with persist-id', async () => {
    await client.commit('p1').catch(() => undefined);
    expect(server.seen.at(-1)).toMatchObject({
      url: `${server.root}/operations/ietf-netconf:commit`,
      body: '{"ietf-netconf:input":{"persist-id":"p1"}}',
    });
    await client.cancelCommit('p1').catch(() => undefined);
    expect(server.seen.at(-1)?.url).toBe(`${server.root}/operations/ietf-netconf:cancel-commit`);
  });
});

describe('authentication and transport', () => {
  test('sends Basic credentials as UTF-8', async () => {
    const authed = new RestconfClient({ baseUrl: server.url, auth: { user: 'admin', password: 'sécret' } });
    await authed.get(LIBRARY);
    expect(server.seen.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('admin:sécret', 'utf8').toString('base64')}`,
    );
  });

  test('reports a refused connection as NETWORK', async () => {
    const nowhere = new RestconfClient({ baseUrl: 'http://127.0.0.1:1', root: '/restconf' });
    const error = await nowhere.get(LIBRARY).catch((e: unknown) => e);
    expect(RestconfClientError.isInstance(error) && error.code).toBe('NETWORK');
  });

  test('stops reading a body over maxResponseBytes', async () => {
    const small = new RestconfClient({ baseUrl: server.url, maxResponseBytes: 10 });
    await expect(small.get(LIBRARY)).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });
});
