import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsOf, PATCH_JSON, type Server, sendJson, startServer } from './harness.js';

// The "Endpoints" tables of the interface specification, over HTTP against the gateway.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
let s: Server;
beforeAll(async () => {
  s = await startServer({ serverStatus: true, metrics: true });
});
afterAll(() => s.close());

describe('discovery and API', () => {
  test('GET /.well-known/host-meta answers an XRD whose restconf link is the root', async () => {
    const r = await s.fetch('/.well-known/host-meta', { headers: { Accept: 'application/xrd+xml' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xrd+xml');
    expect(await r.text()).toContain('<Link rel="restconf" href="/restconf"/>');
  });

  test('GET /restconf/operations answers one empty child per operation', async () => {
    const r = await s.fetch('/restconf/operations', { headers: { Accept: DATA_JSON } });
    const ops = ((await r.json()) as Record<string, Record<string, unknown>>)['ietf-restconf:operations']!;
    expect(ops['example-ops:reboot']).toEqual([null]);
    expect(ops['yangkit-get-bulk:get-bulk']).toEqual([null]);
    expect(ops['ietf-netconf:get-config']).toEqual([null]);
  });

  test('GET /restconf/yang-library-version answers a date', async () => {
    const r = await s.fetch('/restconf/yang-library-version');
    const body = (await r.json()) as Record<string, string>;
    expect(body['ietf-restconf:yang-library-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('OPTIONS on a data resource answers Allow and Accept-Patch', async () => {
    const r = await s.fetch(`${JUKEBOX}/library`, { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')?.split(/, */)).toEqual(
      expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']),
    );
    expect(r.headers.get('accept-patch')).toContain('application/yang-patch+json');
    expect(r.headers.get('accept-patch')).toContain('application/yang-patch+xml');
  });

  test('GET /server-status answers uptime and requests by status', async () => {
    const r = await s.fetch('/server-status');
    expect(r.status).toBe(200);
    expect(JSON.stringify(await r.json())).toMatch(/uptime/);
  });

  test('GET /metrics answers Prometheus text', async () => {
    const r = await s.fetch('/metrics');
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await r.text()).toMatch(/^# TYPE /m);
  });
});

describe('datastore and data resources', () => {
  test('GET /restconf/data answers configuration and state together', async () => {
    const r = await s.fetch('/restconf/data', { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toContain('"example-jukebox:jukebox"');
    expect(text).toContain('"artist-count"');
  });

  test('HEAD answers the headers of GET without a body', async () => {
    const r = await s.fetch(`${JUKEBOX}/player`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"/);
    expect(await r.text()).toBe('');
  });

  test('with-etag and with-last-modified annotate the target with its ETag and Last-Modified', async () => {
    const r = await s.fetch(`${JUKEBOX}/player?with-etag&with-last-modified`, {
      headers: { Accept: DATA_JSON },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'example-jukebox:player': { '@': Record<string, string> } };
    const annotations = body['example-jukebox:player']['@'];
    expect(annotations['yangkit-restconf-metadata:etag']).toBe(r.headers.get('etag'));
    const modified = new Date(annotations['yangkit-restconf-metadata:last-modified']!);
    expect(modified.toUTCString()).toBe(r.headers.get('last-modified'));
  });

  test('GET of a missing instance answers 404 with an error body', async () => {
    const r = await s.fetch(`${JUKEBOX}/library/artist=Nobody`);
    expect(r.status).toBe(404);
    expect((await errorsOf(r))[0]?.['error-tag']).toBe('invalid-value');
  });

  test('PUT of a new data resource answers 201, of an existing one 204', async () => {
    const body = { 'example-jukebox:artist': [{ name: 'Put Artist' }] };
    const created = await s.fetch(`${JUKEBOX}/library/artist=Put%20Artist`, sendJson('PUT', body));
    expect(created.status).toBe(201);
    const replaced = await s.fetch(`${JUKEBOX}/library/artist=Put%20Artist`, sendJson('PUT', body));
    expect(replaced.status).toBe(204);
  });

  test('PATCH with a YANG Patch answers 200 with yang-patch-status ok', async () => {
    const patch = {
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'add-two',
        edit: [
          {
            'edit-id': 'e1',
            operation: 'create',
            target: '/artist=Patch%20One',
            value: { 'example-jukebox:artist': [{ name: 'Patch One' }] },
          },
          {
            'edit-id': 'e2',
            operation: 'merge',
            target: '/artist=Patch%20Two',
            value: { 'example-jukebox:artist': [{ name: 'Patch Two' }] },
          },
        ],
      },
    };
    const r = await s.fetch(`${JUKEBOX}/library`, {
      method: 'PATCH',
      headers: { 'Content-Type': PATCH_JSON, Accept: DATA_JSON },
      body: JSON.stringify(patch),
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      'ietf-yang-patch:yang-patch-status': { 'patch-id': 'add-two', ok: [null] },
    });
  });

  test('a YANG Patch whose second edit fails changes nothing and answers 409 with the failed edit', async () => {
    const patch = {
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'atomic',
        edit: [
          {
            'edit-id': 'e1',
            operation: 'create',
            target: '/artist=Atomic',
            value: { 'example-jukebox:artist': [{ name: 'Atomic' }] },
          },
          {
            'edit-id': 'e2',
            operation: 'create',
            target: '/artist=Patch%20One',
            value: { 'example-jukebox:artist': [{ name: 'Patch One' }] },
          },
        ],
      },
    };
    const r = await s.fetch(`${JUKEBOX}/library`, {
      method: 'PATCH',
      headers: { 'Content-Type': PATCH_JSON, Accept: DATA_JSON },
      body: JSON.stringify(patch),
    });
    expect(r.status).toBe(409);
    expect(JSON.stringify(await r.json())).toContain('"edit-id":"e2"');
    expect((await s.fetch(`${JUKEBOX}/library/artist=Atomic`)).status).toBe(404);
  });

  test('DELETE of a data resource answers 204 and the resource is gone', async () => {
    const r = await s.fetch(`${JUKEBOX}/library/artist=Patch%20Two`, { method: 'DELETE' });
    expect(r.status).toBe(204);
    expect((await s.fetch(`${JUKEBOX}/library/artist=Patch%20Two`)).status).toBe(404);
  });

  test('DELETE of /restconf/data answers 405 with Allow', async () => {
    const r = await s.fetch('/restconf/data', { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).not.toContain('DELETE');
  });

  test('GET of restconf-state/streams answers the stream list', async () => {
    const r = await s.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/streams');
    expect(r.status).toBe(200);
    expect(Object.keys((await r.json()) as object)).toEqual(['ietf-restconf-monitoring:streams']);
  });

  test('GET /restconf/yang/<module> answers the module text as application/yang', async () => {
    const r = await s.fetch('/restconf/yang/example-jukebox@2016-08-15', {
      headers: { Accept: 'application/yang' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yang');
    expect(await r.text()).toMatch(/^module example-jukebox \{/);
  });

  test('POST of an action on a data resource answers 204 when the action returns nothing', async () => {
    const created = await s.fetch(
      '/restconf/data/example-actions:interfaces',
      sendJson('POST', { 'example-actions:interface': [{ name: 'eth0' }] }),
    );
    expect(created.status).toBe(201);
    const r = await s.fetch(
      '/restconf/data/example-actions:interfaces/interface=eth0/reset',
      sendJson('POST', { 'example-actions:input': { delay: 0 } }),
    );
    expect(r.status).toBe(204);
  });
});

describe('operation resource', () => {
  test('POST of an operation without input answers its output wrapped in output', async () => {
    const r = await s.fetch('/restconf/operations/example-ops:get-reboot-info', { method: 'POST' });
    expect(r.status).toBe(200);
    expect(Object.keys((await r.json()) as object)).toEqual(['example-ops:output']);
  });

  test('the module prefix may be left out when the name is unique', async () => {
    const r = await s.fetch('/restconf/operations/get-reboot-info', { method: 'POST' });
    expect(r.status).toBe(200);
  });

  test('output is XML when the input was XML', async () => {
    const r = await s.fetch('/restconf/operations/example-ops:get-reboot-info', {
      method: 'POST',
      headers: { 'Content-Type': DATA_XML },
      body: '<input xmlns="https://example.com/ns/example-ops"/>',
    });
    expect(r.headers.get('content-type')).toBe(DATA_XML);
    expect(await r.text()).toMatch(/^<output xmlns="https:\/\/example.com\/ns\/example-ops">/);
  });

  test('get-bulk pages through the artists with last-keys', async () => {
    const call = async (input: object) => {
      const r = await s.fetch(
        '/restconf/operations/yangkit-get-bulk:get-bulk',
        sendJson('POST', { 'yangkit-get-bulk:input': input }),
      );
      expect(r.status).toBe(200);
      return (
        (await r.json()) as {
          'yangkit-get-bulk:output': {
            bulk: { data: Record<string, { name: string }[]>; 'last-keys': object };
          };
        }
      )['yangkit-get-bulk:output'].bulk;
    };
    const first = await call({ 'list-target': '/example-jukebox:jukebox/library/artist', count: 1 });
    expect(first.data['example-jukebox:artist']?.map((a) => a.name)).toEqual(['Foo Fighters']);
    const second = await call({
      'list-target': '/example-jukebox:jukebox/library/artist',
      count: 1,
      'last-keys': first['last-keys'],
    });
    expect(second.data['example-jukebox:artist']?.map((a) => a.name)).toEqual([
      'Nick Cave and the Bad Seeds',
    ]);
  });

  test('ietf-netconf:get-config is reachable under /operations', async () => {
    const r = await s.fetch(
      '/restconf/operations/ietf-netconf:get-config',
      sendJson('POST', { 'ietf-netconf:input': { source: { running: [null] } } }),
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Foo Fighters');
  });
});

describe('media types and errors', () => {
  test('answers JSON when nothing is asked', async () => {
    const r = await s.fetch(`${JUKEBOX}/player`);
    expect(r.headers.get('content-type')).toBe(DATA_JSON);
  });

  test('answers 406 to an Accept it cannot serve', async () => {
    const r = await s.fetch(`${JUKEBOX}/player`, { headers: { Accept: 'image/png' } });
    expect(r.status).toBe(406);
  });

  test('answers 415 to a body of an unknown media type', async () => {
    const r = await s.fetch(`${JUKEBOX}/player`, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(r.status).toBe(415);
  });

  test('answers 400 when the body does not match its Content-Type', async () => {
    const r = await s.fetch(`${JUKEBOX}/player`, {
      method: 'PUT',
      headers: { 'Content-Type': DATA_XML },
      body: '{"a":1}',
    });
    expect(r.status).toBe(400);
    // No Accept: the error is in the request body's media type (RFC 8040 section 7.1).
    expect(r.headers.get('content-type')).toBe(DATA_XML);
  });

  test('echoes Message-ID and sends Cache-Control and Date on every response', async () => {
    const r = await s.fetch(`${JUKEBOX}/library/artist=Nobody`, { headers: { 'Message-ID': 'm-42' } });
    expect(r.headers.get('message-id')).toBe('m-42');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('date')).not.toBeNull();
  });

  test('If-None-Match with the current tag answers 304', async () => {
    const first = await s.fetch(`${JUKEBOX}/player`);
    const r = await s.fetch(`${JUKEBOX}/player`, {
      headers: { 'If-None-Match': first.headers.get('etag')! },
    });
    expect(r.status).toBe(304);
  });

  test('If-Unmodified-Since before the last change answers 412', async () => {
    const r = await s.fetch(
      `${JUKEBOX}/player/gap`,
      sendJson(
        'PUT',
        { 'example-jukebox:gap': '1.0' },
        {
          'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT',
        },
      ),
    );
    expect(r.status).toBe(412);
  });
});
