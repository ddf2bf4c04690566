import { childElement, readXmlDocument, textOf } from '@yangkit/xml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

const JB = '/restconf/data/example-jukebox:jukebox';

interface ErrorsBody {
  'ietf-restconf:errors': { error: Record<string, unknown>[] };
}

describe('headers on every response (RFC 8040 section 5)', () => {
  test('a success carries Cache-Control: no-cache and Date', async () => {
    const r = await gw.fetch(JB);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(Date.parse(r.headers.get('date') ?? '')).not.toBeNaN();
  });

  test('an error carries Cache-Control and Date too', async () => {
    const r = await gw.fetch(`${JB}/nothing-here`);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('date')).toBeTruthy();
  });

  test('Message-ID is echoed', async () => {
    const r = await gw.fetch(JB, { headers: { 'message-id': 'req-42' } });
    expect(r.headers.get('message-id')).toBe('req-42');
  });

  test('Message-ID is echoed on errors', async () => {
    const r = await gw.fetch(`${JB}?depth=zero`, { headers: { 'message-id': 'req-43' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('message-id')).toBe('req-43');
  });
});

describe('error bodies (RFC 8040 section 7.1)', () => {
  test('an unknown node is 400 unknown-element in JSON', async () => {
    const r = await gw.fetch(`${JB}/nothing-here`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/yang-data+json');
    const body = (await r.json()) as ErrorsBody;
    expect(body['ietf-restconf:errors'].error[0]).toMatchObject({
      'error-type': 'protocol',
      'error-tag': 'unknown-element',
    });
  });

  test('the error body follows the negotiated encoding', async () => {
    const r = await gw.fetch(`${JB}/library/artist=Nobody`, {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
    expect(await r.text()).toMatch(
      /^<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error><error-type>protocol<\/error-type><error-tag>invalid-value<\/error-tag>/,
    );
  });

  test('a leafref to a missing instance is data-missing with instance-required and an error-path', async () => {
    const r = await gw.fetch(
      `${JB}/playlist=Foo-One`,
      json('POST', {
        'example-jukebox:song': [
          {
            index: 7,
            id: "/example-jukebox:jukebox/library/artist[name='Nobody']/album[name='X']/song[name='Y']",
          },
        ],
      }),
    );
    expect(r.status).toBe(409);
    const e = ((await r.json()) as ErrorsBody)['ietf-restconf:errors'].error[0]!;
    expect(e).toMatchObject({
      'error-type': 'application',
      'error-tag': 'data-missing',
      'error-app-tag': 'instance-required',
    });
    expect(e['error-path']).toBe("/example-jukebox:jukebox/playlist[name='Foo-One']/song[index='7']/id");
  });

  test('the XML error-path declares the prefixes it uses', async () => {
    const r = await gw.fetch(`${JB}/playlist=Foo-One`, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml', accept: 'application/yang-data+xml' },
      body: `<song xmlns="http://example.com/ns/example-jukebox" xmlns:j="http://example.com/ns/example-jukebox"><index>8</index><id>/j:jukebox/j:library/j:artist[j:name='Nobody']/j:album[j:name='X']/j:song[j:name='Y']</id></song>`,
    });
    expect(r.status).toBe(409);
    expect(await r.text()).toMatch(
      /<error-path xmlns:jbox="http:\/\/example.com\/ns\/example-jukebox">\/jbox:jukebox/,
    );
  });

  test('an XML error body quoting a character XML cannot carry stays well-formed, with U+FFFD in its place', async () => {
    const r = await gw.fetch(JB, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+json', accept: 'application/yang-data+xml' },
      body: JSON.stringify({ 'example-jukebox:bell\u0007': 1 }),
    });
    expect(r.status).toBe(400);
    const errors = readXmlDocument(await r.text());
    const message = textOf(childElement(childElement(errors, 'error')!, 'error-message')!);
    expect(message).toContain('bell\uFFFD');
  });

  test('an error in a body names its whole data-resource path, not one from the body', async () => {
    const put = await gw.fetch(`${JB}/player/gap`, json('PUT', { 'example-jukebox:gap': 'abc' }));
    expect(put.status).toBe(400);
    const e = ((await put.json()) as ErrorsBody)['ietf-restconf:errors'].error[0]!;
    expect(e['error-path']).toBe('/example-jukebox:jukebox/player/gap');
    expect(e['error-message']).toContain('(/example-jukebox:jukebox/player/gap)');
    const post = await gw.fetch(`${JB}/library`, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml', accept: 'application/yang-data+xml' },
      body: '<artist xmlns="http://example.com/ns/example-jukebox"><name>X</name><bogus/></artist>',
    });
    expect(post.status).toBe(400);
    expect(await post.text()).toContain(
      `<error-path xmlns:jbox="http://example.com/ns/example-jukebox">/jbox:jukebox/jbox:library/jbox:artist[jbox:name='X']/jbox:bogus</error-path>`,
    );
  });

  test('a query parameter not allowed for the method is 400 invalid-value', async () => {
    const r = await gw.fetch(`${JB}?depth=1`, { method: 'DELETE' });
    expect(r.status).toBe(400);
    const e = ((await r.json()) as ErrorsBody)['ietf-restconf:errors'].error[0]!;
    expect(e['error-tag']).toBe('invalid-value');
  });

  test('a path outside the root is 404', async () => {
    const r = await gw.fetch('/elsewhere');
    expect(r.status).toBe(404);
  });
});

describe('methods (RFC 8040 section 4)', () => {
  test('OPTIONS on a data resource lists the methods and Accept-Patch', async () => {
    const r = await gw.fetch(JB, { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE');
    expect(r.headers.get('accept-patch')).toContain('application/yang-patch+json');
  });

  test('OPTIONS on the datastore lists no DELETE', async () => {
    const r = await gw.fetch('/restconf/data', { method: 'OPTIONS' });
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH');
    expect(r.headers.get('accept-patch')).toContain('application/yang-patch+xml');
  });

  test('a state-only resource allows reads only', async () => {
    const r = await gw.fetch(
      `${JB}/library/artist-count`,
      json('PUT', { 'example-jukebox:artist-count': 3 }),
    );
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  test('PUT on the API root is 405', async () => {
    const r = await gw.fetch('/restconf', json('PUT', {}));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  test('HEAD on a data resource has the headers of GET and no body', async () => {
    const r = await gw.fetch(JB, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBeTruthy();
    expect(await r.text()).toBe('');
  });
});

describe('media types (RFC 8040 section 5.2)', () => {
  test('JSON is answered when nothing is asked', async () => {
    const r = await gw.fetch(JB);
    expect(r.headers.get('content-type')).toBe('application/yang-data+json');
  });

  test('--restconf-default-encoding=xml answers XML when nothing is asked', async () => {
    const other = await startGateway({ defaultEncoding: 'xml' });
    try {
      const r = await other.fetch('/restconf/yang-library-version');
      expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
    } finally {
      await other.close();
    }
  });

  test('an Accept naming nothing the server produces is 406', async () => {
    const r = await gw.fetch(JB, { headers: { accept: 'image/png' } });
    expect(r.status).toBe(406);
    expect(await r.json()).toHaveProperty('ietf-restconf:errors');
  });

  test('q-values pick the preferred encoding', async () => {
    const r = await gw.fetch(JB, {
      headers: { accept: 'application/yang-data+json;q=0.5, application/yang-data+xml' },
    });
    expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
  });

  test('application/json is accepted when strict headers are off', async () => {
    const r = await gw.fetch(`${JB}/player/gap`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ 'example-jukebox:gap': '0.7' }),
    });
    expect(r.status).toBe(204);
    const g = await gw.fetch(`${JB}/player/gap`, { headers: { accept: 'text/xml' } });
    expect(await g.text()).toBe('<gap xmlns="http://example.com/ns/example-jukebox">0.7</gap>');
  });

  test('strict headers refuse application/json with 406 and 415', async () => {
    const other = await startGateway({ strictHeaders: true });
    try {
      expect(
        (await other.fetch('/restconf/yang-library-version', { headers: { accept: 'application/json' } }))
          .status,
      ).toBe(406);
      const r = await other.fetch('/restconf/data', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(r.status).toBe(415);
    } finally {
      await other.close();
    }
  });

  test('an unknown Content-Type is 415', async () => {
    const r = await gw.fetch(JB, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(r.status).toBe(415);
  });

  test('a JSON body sent as XML is 400 malformed-message', async () => {
    const r = await gw.fetch(`${JB}/player/gap`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/yang-data+xml', accept: 'application/yang-data+json' },
      body: JSON.stringify({ 'example-jukebox:gap': '0.7' }),
    });
    expect(r.status).toBe(400);
    const e = ((await r.json()) as ErrorsBody)['ietf-restconf:errors'].error[0]!;
    expect(e['error-tag']).toBe('malformed-message');
  });

  test('a body larger than maxBodyBytes is 413', async () => {
    const other = await startGateway({ maxBodyBytes: 64 });
    try {
      const r = await other.fetch(
        '/restconf/data',
        json('PATCH', { 'example-jukebox:jukebox': { player: { gap: '0.1' } }, pad: 'x'.repeat(100) }),
      );
      expect(r.status).toBe(413);
    } finally {
      await other.close();
    }
  });
});
