import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

describe('root discovery (RFC 8040 B.1.1)', () => {
  test('host-meta answers an XRD whose restconf link names the root', async () => {
    const r = await gw.fetch('/.well-known/host-meta', { headers: { accept: 'application/xrd+xml' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xrd+xml');
    expect(await r.text()).toContain('<Link rel="restconf" href="/restconf"/>');
  });

  test('host-meta answers JSON when JSON is asked for', async () => {
    const r = await gw.fetch('/.well-known/host-meta', { headers: { accept: 'application/json' } });
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json()).toEqual({ links: [{ rel: 'restconf', href: '/restconf' }] });
  });

  test('host-meta.json answers the JSON form', async () => {
    const r = await gw.fetch('/.well-known/host-meta.json');
    expect(await r.json()).toEqual({ links: [{ rel: 'restconf', href: '/restconf' }] });
  });

  test('a root configured elsewhere is announced in host-meta', async () => {
    const other = await startGateway({ root: '/top/restconf' });
    try {
      const r = await other.fetch('/.well-known/host-meta');
      expect(await r.text()).toContain('href="/top/restconf"');
      expect((await other.fetch('/top/restconf/yang-library-version')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('API resource (RFC 8040 B.1.1, 3.3)', () => {
  test('the API root lists data, operations and yang-library-version in JSON by default', async () => {
    const r = await gw.fetch('/restconf');
    expect(r.headers.get('content-type')).toBe('application/yang-data+json');
    expect(await r.json()).toEqual({
      'ietf-restconf:restconf': { data: {}, operations: {}, 'yang-library-version': '2019-01-04' },
    });
  });

  test('the API root is XML in the ietf-restconf namespace when asked', async () => {
    const r = await gw.fetch('/restconf', { headers: { accept: 'application/yang-data+xml' } });
    expect(await r.text()).toBe(
      '<restconf xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><data/><operations/><yang-library-version>2019-01-04</yang-library-version></restconf>',
    );
  });

  test('yang-library-version answers the yang-library revision (B.1.3)', async () => {
    const r = await gw.fetch('/restconf/yang-library-version');
    expect(await r.json()).toEqual({ 'ietf-restconf:yang-library-version': '2019-01-04' });
  });

  test('yang-library-version in XML', async () => {
    const r = await gw.fetch('/restconf/yang-library-version', {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(await r.text()).toBe(
      '<yang-library-version xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">2019-01-04</yang-library-version>',
    );
  });

  test('the operations resource lists every rpc with module names (B.1.2)', async () => {
    const r = await gw.fetch('/restconf/operations');
    const ops = ((await r.json()) as { 'ietf-restconf:operations': Record<string, unknown> })[
      'ietf-restconf:operations'
    ];
    expect(ops['example-jukebox:play']).toEqual([null]);
    expect(ops['example-ops:reboot']).toEqual([null]);
    expect(ops['ietf-netconf:get-config']).toEqual([null]);
  });

  test('the operations resource in XML has one empty element per rpc in its namespace', async () => {
    const r = await gw.fetch('/restconf/operations', { headers: { accept: 'application/yang-data+xml' } });
    expect(await r.text()).toContain('<play xmlns="http://example.com/ns/example-jukebox"/>');
  });

  test('HEAD on the API root sends the headers of GET without a body', async () => {
    const r = await gw.fetch('/restconf', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(Number(r.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await r.text()).toBe('');
  });
});

describe('schema retrieval (RFC 8040 3.7)', () => {
  test('a module is served as application/yang', async () => {
    const r = await gw.fetch('/restconf/yang/example-jukebox@2016-08-15');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yang');
    expect(await r.text()).toMatch(/^module example-jukebox/);
  });

  test('a module without revision is served', async () => {
    const r = await gw.fetch('/restconf/yang/example-ops');
    expect(await r.text()).toContain('rpc reboot');
  });

  test('a wrong revision is 404', async () => {
    const r = await gw.fetch('/restconf/yang/example-jukebox@2000-01-01');
    expect(r.status).toBe(404);
  });

  test('an unknown module is 404 with an errors body', async () => {
    const r = await gw.fetch('/restconf/yang/no-such-module');
    expect(r.status).toBe(404);
    expect(await r.json()).toHaveProperty('ietf-restconf:errors');
  });
});

describe('monitoring and yang library', () => {
  test('restconf-state lists the capabilities that work', async () => {
    const r = await gw.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities');
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'ietf-restconf-monitoring:capabilities': { capability: string[] } };
    expect(body['ietf-restconf-monitoring:capabilities'].capability).toEqual([
      'urn:ietf:params:restconf:capability:defaults:1.0?basic-mode=explicit',
      'urn:ietf:params:restconf:capability:depth:1.0',
      'urn:ietf:params:restconf:capability:fields:1.0',
      'urn:ietf:params:restconf:capability:with-defaults:1.0',
      'urn:ietf:params:restconf:capability:yang-patch:1.0',
      'urn:ietf:params:restconf:capability:filter:1.0',
      'urn:ietf:params:restconf:capability:replay:1.0',
    ]);
  });

  test('a configured capability is added to the list', async () => {
    const other = await startGateway({ capabilities: ['urn:example:capability:extra:1.0'] });
    try {
      const r = await other.fetch(
        '/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities/capability',
        {
          headers: { accept: 'application/yang-data+xml' },
        },
      );
      expect(await r.text()).toContain('urn:example:capability:extra:1.0');
    } finally {
      await other.close();
    }
  });

  test('the stream list is served under restconf-state', async () => {
    const r = await gw.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/streams');
    expect(r.status).toBe(200);
    expect(await r.json()).toHaveProperty('ietf-restconf-monitoring:streams');
  });

  test('ietf-yang-library lists the implemented modules', async () => {
    const r = await gw.fetch('/restconf/data/ietf-yang-library:yang-library');
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('"name":"example-jukebox"');
  });

  test('the deprecated modules-state is served too', async () => {
    const r = await gw.fetch('/restconf/data/ietf-yang-library:modules-state');
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('example-jukebox');
  });
});
