import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, NetconfServer } from '@yangkit/netconf-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Backend } from '../src/backend.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { exampleSchema, type Gateway, JUKEBOX, json, startGateway } from './harness.js';

const DS = '/restconf/ds/ietf-datastores';
const JSON_ACCEPT = { headers: { accept: 'application/yang-data+json' } };
const ETH0 = `${DS}:running/ietf-interfaces:interfaces/interface=eth0`;

function iface(name: string, extra: Record<string, unknown> = {}): unknown {
  return { 'ietf-interfaces:interface': [{ name, type: 'iana-if-type:ethernetCsmacd', ...extra }] };
}

describe('edits on writable datastores (RFC 8527 section 3.1, RFC 8526 edit-data)', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({ withNmda: true });
    await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  });
  afterAll(() => gw.close());

  async function get(path: string): Promise<Response> {
    return gw.fetch(path, JSON_ACCEPT);
  }

  test('PUT creates a data resource in running (201) and replaces it after (204)', async () => {
    expect((await gw.fetch(ETH0, json('PUT', iface('eth0')))).status).toBe(201);
    expect((await gw.fetch(ETH0, json('PUT', iface('eth0', { description: 'b' })))).status).toBe(204);
    const r = await get(`${ETH0}/description`);
    expect(await r.json()).toEqual({ 'ietf-interfaces:description': 'b' });
  });

  test('PATCH merges into an existing data resource', async () => {
    await gw.fetch(ETH0, json('PUT', iface('eth0')));
    const r = await gw.fetch(ETH0, json('PATCH', iface('eth0', { description: 'merged' })));
    expect(r.status).toBe(204);
    expect(await (await get(`${ETH0}/description`)).json()).toEqual({
      'ietf-interfaces:description': 'merged',
    });
  });

  test('PATCH on a missing data resource is 404', async () => {
    const r = await gw.fetch(
      `${DS}:running/ietf-interfaces:interfaces/interface=eth7`,
      json('PATCH', iface('eth7')),
    );
    expect(r.status).toBe(404);
  });

  test('POST on the datastore creates a child and answers its /ds Location', async () => {
    const r = await gw.fetch(`${DS}:running/ietf-interfaces:interfaces`, json('POST', iface('eth1')));
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(
      'http://localhost/restconf/ds/ietf-datastores:running/ietf-interfaces:interfaces/interface=eth1',
    );
  });

  test('POST of an existing resource is 409 data-exists', async () => {
    await gw.fetch(`${DS}:running/ietf-interfaces:interfaces`, json('POST', iface('eth2')));
    const r = await gw.fetch(`${DS}:running/ietf-interfaces:interfaces`, json('POST', iface('eth2')));
    expect(r.status).toBe(409);
  });

  test('DELETE removes a data resource (204), then 404', async () => {
    await gw.fetch(`${DS}:running/ietf-interfaces:interfaces`, json('POST', iface('eth3')));
    const path = `${DS}:running/ietf-interfaces:interfaces/interface=eth3`;
    expect((await gw.fetch(path, { method: 'DELETE' })).status).toBe(204);
    expect((await gw.fetch(path, { method: 'DELETE' })).status).toBe(404);
  });

  test('PATCH on the running datastore resource merges top-level nodes', async () => {
    const r = await gw.fetch(
      `${DS}:running`,
      json('PATCH', { 'ietf-restconf:data': { 'example-jukebox:jukebox': { player: { gap: '1.5' } } } }),
    );
    expect(r.status).toBe(204);
    expect(await (await get(`${DS}:running/example-jukebox:jukebox/player`)).json()).toEqual({
      'example-jukebox:player': { gap: '1.5' },
    });
  });

  test('an edit of running is seen through /data too', async () => {
    await gw.fetch(ETH0, json('PUT', iface('eth0', { description: 'shared' })));
    const r = await get('/restconf/data/ietf-interfaces:interfaces/interface=eth0/description');
    expect(await r.json()).toEqual({ 'ietf-interfaces:description': 'shared' });
  });

  test('an edit of candidate leaves running alone until a commit', async () => {
    const cand = `${DS}:candidate/ietf-interfaces:interfaces/interface=eth5`;
    expect((await gw.fetch(cand, json('PUT', iface('eth5')))).status).toBe(201);
    expect((await get(cand)).status).toBe(200);
    expect((await get(`${DS}:running/ietf-interfaces:interfaces/interface=eth5`)).status).toBe(404);
    const commit = await gw.fetch('/restconf/operations/ietf-netconf:commit', { method: 'POST' });
    expect(commit.status).toBe(204);
    expect((await get(`${DS}:running/ietf-interfaces:interfaces/interface=eth5`)).status).toBe(200);
  });

  test('a YANG Patch body is refused with 415 on /ds', async () => {
    const r = await gw.fetch(`${DS}:running`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/yang-patch+json' },
      body: '{}',
    });
    expect(r.status).toBe(415);
  });

  test('OPTIONS on running lists the edit methods', async () => {
    const r = await gw.fetch(`${DS}:running`, { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH');
  });
});

describe('read-only datastores answer 405 with Allow', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({ withNmda: true });
  });
  afterAll(() => gw.close());

  test.each([
    ['PUT', `${DS}:operational/ietf-interfaces:interfaces/interface=eth0`],
    ['POST', `${DS}:operational`],
    ['PATCH', `${DS}:intended`],
    ['DELETE', `${DS}:intended/ietf-interfaces:interfaces/interface=eth0`],
  ])('%s on %s is 405 with Allow GET, HEAD, OPTIONS', async (method, path) => {
    const r = await gw.fetch(path, json(method, iface('eth0')));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  test('an action runs below operational', async () => {
    await gw.fetch(
      '/restconf/data',
      json('PATCH', {
        'ietf-restconf:data': { 'example-actions:interfaces': { interface: [{ name: 'eth0' }] } },
      }),
    );
    const r = await gw.fetch(
      `${DS}:operational/example-actions:interfaces/interface=eth0/reset`,
      json('POST', { 'example-actions:input': { delay: 0 } }),
    );
    expect(r.status).toBe(204);
  });

  test('an action below running is 405 (RFC 8527 section 3.1: operational only)', async () => {
    const r = await gw.fetch(
      `${DS}:running/example-actions:interfaces/interface=eth0/reset`,
      json('POST', { 'example-actions:input': { delay: 0 } }),
    );
    expect(r.status).toBe(405);
  });
});

describe('origin after configuration changes', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway({ withNmda: true });
  });
  afterAll(() => gw.close());

  async function operational(): Promise<Response> {
    return gw.fetch(`${DS}:operational/ietf-interfaces:interfaces/interface=eth0?with-origin`, JSON_ACCEPT);
  }

  test('a new interface appears in operational with origin intended', async () => {
    expect((await operational()).status).toBe(404);
    await gw.fetch(ETH0, json('PUT', iface('eth0', { description: 'one' })));
    const got = (await (await operational()).json()) as Record<string, Record<string, unknown>[]>;
    const entry = got['ietf-interfaces:interface']![0]!;
    expect(entry['@']).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
    expect(entry.description).toBe('one');
  });

  test('a changed value shows in operational at once, still intended', async () => {
    await gw.fetch(ETH0, json('PATCH', iface('eth0', { description: 'two' })));
    const got = (await (await operational()).json()) as Record<string, Record<string, unknown>[]>;
    const entry = got['ietf-interfaces:interface']![0]!;
    expect(entry.description).toBe('two');
    expect(entry['@']).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
  });

  test('a deleted interface leaves operational', async () => {
    await gw.fetch(ETH0, { method: 'DELETE' });
    expect((await operational()).status).toBe(404);
  });
});

/** The embedded server behind a backend that hides its NMDA module, as a pre-NMDA server would. */
async function backendWithoutNmda(): Promise<{ backend: Backend; netconf: NetconfServer }> {
  const schema = await exampleSchema();
  const netconf = await NetconfServer.create({ schema });
  const inner = createNetconfBackend({
    schema,
    openSession: async () => {
      const [a, b] = duplexPair();
      netconf.connect(a, { username: 'restconf' });
      return connectStream(b);
    },
  });
  const backend = Object.create(inner, {
    capabilities: { get: () => ({ ...inner.capabilities, nmda: false }) },
  }) as Backend;
  return { backend, netconf };
}

describe('without NMDA /ds is absent and not advertised', () => {
  const CAPS = '/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities';

  test('a backend without ietf-netconf-nmda gives 404 on /ds even with withNmda', async () => {
    const { backend, netconf } = await backendWithoutNmda();
    const gw = await startGateway({ withNmda: true, backend });
    try {
      expect((await gw.fetch(`${DS}:operational`, JSON_ACCEPT)).status).toBe(404);
      expect((await gw.fetch(`${DS}:running`, JSON_ACCEPT)).status).toBe(404);
      const caps = JSON.stringify(await (await gw.fetch(CAPS, JSON_ACCEPT)).json());
      expect(caps).not.toContain('with-origin');
    } finally {
      await gw.close();
      await netconf.close();
    }
  });

  test('without withNmda /ds is 404 and the capabilities stay unlisted', async () => {
    const gw = await startGateway();
    try {
      expect((await gw.fetch(`${DS}:operational`, JSON_ACCEPT)).status).toBe(404);
      const caps = JSON.stringify(await (await gw.fetch(CAPS, JSON_ACCEPT)).json());
      expect(caps).not.toContain('with-origin');
      expect(caps).not.toContain('with-operational-defaults');
    } finally {
      await gw.close();
    }
  });
});
