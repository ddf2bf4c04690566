import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

const DS = '/restconf/ds/ietf-datastores';
const IF_NS = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
const JSON_ACCEPT = { headers: { accept: 'application/yang-data+json' } };
const XML_ACCEPT = { headers: { accept: 'application/yang-data+xml' } };

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ withNmda: true });
  // State the system reports: oper-status of the configured eth0 and a loopback it created itself.
  gw.netconf.provideState({
    provides: ['ietf-interfaces:interfaces'],
    get: () =>
      `<interfaces xmlns="${IF_NS}"><interface><name>eth0</name><oper-status>up</oper-status></interface>` +
      `<interface><name>lo0</name><oper-status>up</oper-status></interface></interfaces>`,
  });
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  const put = await gw.fetch(
    `${DS}:running/ietf-interfaces:interfaces/interface=eth0`,
    json('PUT', {
      'ietf-interfaces:interface': [
        { name: 'eth0', type: 'iana-if-type:ethernetCsmacd', description: 'uplink' },
      ],
    }),
  );
  expect(put.status).toBe(201);
});
afterAll(() => gw.close());

async function getJson(path: string): Promise<Record<string, unknown>> {
  const r = await gw.fetch(path, JSON_ACCEPT);
  expect(r.status).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

describe('datastore resources (RFC 8527 section 3.1)', () => {
  test('GET on the running datastore resource returns its configuration', async () => {
    const got = await getJson(`${DS}:running`);
    const data = got['ietf-restconf:data'] as Record<string, unknown>;
    expect(data).toHaveProperty('example-jukebox:jukebox');
    expect(data).toHaveProperty('ietf-interfaces:interfaces');
  });

  test('running holds no state data', async () => {
    const got = await getJson(`${DS}:running/example-jukebox:jukebox/library`);
    expect(got['example-jukebox:library']).not.toHaveProperty('artist-count');
  });

  test('operational holds configuration in use and state together', async () => {
    const got = await getJson(`${DS}:operational/example-jukebox:jukebox/library`);
    expect(got['example-jukebox:library']).toHaveProperty('artist-count', 1);
    expect(got['example-jukebox:library']).toHaveProperty('artist');
  });

  test('intended shows the configuration written to running', async () => {
    const got = await getJson(`${DS}:intended/ietf-interfaces:interfaces/interface=eth0/description`);
    expect(got).toEqual({ 'ietf-interfaces:description': 'uplink' });
  });

  test('operational shows an interface the system created', async () => {
    const got = await getJson(`${DS}:operational/ietf-interfaces:interfaces/interface=lo0`);
    expect(got).toEqual({ 'ietf-interfaces:interface': [{ name: 'lo0', 'oper-status': 'up' }] });
  });

  test('the system-created interface is not in running', async () => {
    const r = await gw.fetch(`${DS}:running/ietf-interfaces:interfaces/interface=lo0`, JSON_ACCEPT);
    expect(r.status).toBe(404);
  });

  test('XML is served on request', async () => {
    const r = await gw.fetch(`${DS}:running/example-jukebox:jukebox/player`, XML_ACCEPT);
    expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
    expect(await r.text()).toBe(
      '<player xmlns="http://example.com/ns/example-jukebox"><gap>0.5</gap></player>',
    );
  });

  test('HEAD answers the headers of GET without a body', async () => {
    const r = await gw.fetch(`${DS}:operational/example-jukebox:jukebox`, { method: 'HEAD', ...JSON_ACCEPT });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yang-data+json');
    expect(await r.text()).toBe('');
  });

  test('a datastore the server does not implement is 404', async () => {
    const r = await gw.fetch(`${DS}:startup`, JSON_ACCEPT);
    expect(r.status).toBe(404);
  });

  test('a datastore identity of another module is 404', async () => {
    const r = await gw.fetch('/restconf/ds/example-jukebox:running', JSON_ACCEPT);
    expect(r.status).toBe(404);
  });

  test('a leaf with a default and no value answers the default in operational', async () => {
    const got = await getJson(`${DS}:operational/ietf-interfaces:interfaces/interface=eth0/enabled`);
    expect(got).toEqual({ 'ietf-interfaces:enabled': true });
  });

  test('a leaf with a default and no value is 404 in running, which holds what was written', async () => {
    const r = await gw.fetch(`${DS}:running/ietf-interfaces:interfaces/interface=eth0/enabled`, JSON_ACCEPT);
    expect(r.status).toBe(404);
  });

  test('a missing instance is 404', async () => {
    const r = await gw.fetch(`${DS}:operational/ietf-interfaces:interfaces/interface=eth9`, JSON_ACCEPT);
    expect(r.status).toBe(404);
  });
});

describe('with-origin (RFC 8527 section 3.2.2)', () => {
  test('configuration in use has origin intended and system state has origin system', async () => {
    const got = await getJson(`${DS}:operational/ietf-interfaces:interfaces/interface=eth0?with-origin`);
    const entry = (got['ietf-interfaces:interface'] as Record<string, unknown>[])[0]!;
    expect(entry['@']).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
    expect(entry.description).toBe('uplink');
    expect(entry['@description']).toBeUndefined();
    expect(entry['oper-status']).toBe('up');
    expect(entry['@oper-status']).toEqual({ 'ietf-origin:origin': 'ietf-origin:system' });
  });

  test('system-created counters carry origin system', async () => {
    const got = await getJson(`${DS}:operational/example-jukebox:jukebox/library?with-origin`);
    const library = got['example-jukebox:library'] as Record<string, unknown>;
    expect(library['@']).toEqual({ 'ietf-origin:origin': 'ietf-origin:intended' });
    expect(library['@artist-count']).toEqual({ 'ietf-origin:origin': 'ietf-origin:system' });
  });

  test('origin is an XML attribute in the ietf-origin namespace', async () => {
    const r = await gw.fetch(`${DS}:operational/example-jukebox:jukebox/player?with-origin`, XML_ACCEPT);
    expect(await r.text()).toBe(
      '<player xmlns="http://example.com/ns/example-jukebox" xmlns:or="urn:ietf:params:xml:ns:yang:ietf-origin" or:origin="or:intended"><gap>0.5</gap></player>',
    );
  });

  test('defaults added by with-defaults=report-all have origin default', async () => {
    const got = await getJson(
      `${DS}:operational/ietf-interfaces:interfaces/interface=eth0?with-origin&with-defaults=report-all`,
    );
    const entry = (got['ietf-interfaces:interface'] as Record<string, unknown>[])[0]!;
    expect(entry.enabled).toBe(true);
    expect(entry['@enabled']).toEqual({ 'ietf-origin:origin': 'ietf-origin:default' });
    expect(entry['@description']).toBeUndefined();
  });

  test('origin default is written as or:default in XML', async () => {
    const r = await gw.fetch(
      `${DS}:operational/ietf-interfaces:interfaces/interface=eth0?with-origin&with-defaults=report-all`,
      XML_ACCEPT,
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/<enabled [^>]*or:origin="or:default">true<\/enabled>/);
  });

  test('without with-origin no origin is written', async () => {
    const got = await getJson(`${DS}:operational/example-jukebox:jukebox/library`);
    expect(JSON.stringify(got)).not.toContain('ietf-origin');
  });

  test('with-origin on running is 400 invalid-value', async () => {
    const r = await gw.fetch(`${DS}:running/example-jukebox:jukebox?with-origin`, JSON_ACCEPT);
    expect(r.status).toBe(400);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-tag': string }[] } };
    expect(body['ietf-restconf:errors'].error[0]!['error-tag']).toBe('invalid-value');
  });

  test('with-origin on intended is 400', async () => {
    const r = await gw.fetch(`${DS}:intended?with-origin`, JSON_ACCEPT);
    expect(r.status).toBe(400);
  });

  test('with-origin on /data is 400', async () => {
    const r = await gw.fetch('/restconf/data/example-jukebox:jukebox?with-origin', JSON_ACCEPT);
    expect(r.status).toBe(400);
  });
});

describe('query parameters on datastore resources (RFC 8527 section 3.2)', () => {
  test('with-defaults=report-all adds default values', async () => {
    const got = await getJson(
      `${DS}:running/ietf-interfaces:interfaces/interface=eth0?with-defaults=report-all`,
    );
    const entry = (got['ietf-interfaces:interface'] as Record<string, unknown>[])[0]!;
    expect(entry.enabled).toBe(true);
  });

  test('with-defaults=trim leaves default values out', async () => {
    const got = await getJson(`${DS}:running/ietf-interfaces:interfaces/interface=eth0?with-defaults=trim`);
    const entry = (got['ietf-interfaces:interface'] as Record<string, unknown>[])[0]!;
    expect(entry).not.toHaveProperty('enabled');
  });

  test('depth=1 returns only the target', async () => {
    const got = await getJson(`${DS}:operational/example-jukebox:jukebox?depth=1`);
    expect(got).toEqual({ 'example-jukebox:jukebox': {} });
  });

  test('fields selects descendants', async () => {
    const got = await getJson(`${DS}:operational/example-jukebox:jukebox/library?fields=artist-count`);
    expect(got).toEqual({ 'example-jukebox:library': { 'artist-count': 1 } });
  });

  test('fields naming no schema node is 400', async () => {
    const r = await gw.fetch(`${DS}:operational/example-jukebox:jukebox/library?fields=nope`, JSON_ACCEPT);
    expect(r.status).toBe(400);
  });

  test('content is not taken on datastore resources', async () => {
    const r = await gw.fetch(`${DS}:operational?content=config`, JSON_ACCEPT);
    expect(r.status).toBe(400);
  });
});

describe('discovery (RFC 8527 section 2)', () => {
  test('the yang-library-version is 2019-01-04', async () => {
    const got = await getJson('/restconf/yang-library-version');
    expect(got).toEqual({ 'ietf-restconf:yang-library-version': '2019-01-04' });
  });

  test('the yang library in operational lists the datastores with their schemas', async () => {
    const got = await getJson(`${DS}:operational/ietf-yang-library:yang-library/datastore`);
    const names = (got['ietf-yang-library:datastore'] as { name: string; schema: string }[]).map(
      (d) => d.name,
    );
    expect(names).toEqual(expect.arrayContaining(['ietf-datastores:running', 'ietf-datastores:operational']));
  });

  test('operational holds restconf-state as /data does', async () => {
    const got = await getJson(`${DS}:operational/ietf-restconf-monitoring:restconf-state/capabilities`);
    const caps = (got['ietf-restconf-monitoring:capabilities'] as { capability: string[] }).capability;
    expect(caps).toContain('urn:ietf:params:restconf:capability:with-origin:1.0');
  });

  test('restconf-state in operational has origin system', async () => {
    const got = await getJson(`${DS}:operational/ietf-restconf-monitoring:restconf-state?with-origin`);
    expect(got['ietf-restconf-monitoring:restconf-state']).toHaveProperty('@', {
      'ietf-origin:origin': 'ietf-origin:system',
    });
  });

  test('running holds no restconf-state', async () => {
    const got = await getJson(`${DS}:running`);
    expect(got['ietf-restconf:data']).not.toHaveProperty('ietf-restconf-monitoring:restconf-state');
  });

  test('restconf-state lists the with-origin and with-operational-defaults capabilities', async () => {
    const got = await getJson('/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities');
    const caps = (got['ietf-restconf-monitoring:capabilities'] as { capability: string[] }).capability;
    expect(caps).toContain('urn:ietf:params:restconf:capability:with-origin:1.0');
    expect(caps).toContain('urn:ietf:params:restconf:capability:with-operational-defaults:1.0');
  });
});
