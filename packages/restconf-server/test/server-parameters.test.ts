import { afterEach, describe, expect, test } from 'vitest';
import { type Gateway, json, startGateway } from './harness.js';

const IF = '/restconf/data/ietf-interfaces:interfaces';
const LIB = '/restconf/data/example-jukebox:jukebox/library';
const TAGGED = `${IF}/interface=eth0?content=config&with-defaults=report-all-tagged`;
const JSON_ACCEPT = { headers: { accept: 'application/yang-data+json' } };
const XML_ACCEPT = { headers: { accept: 'application/yang-data+xml' } };

const eth0 = {
  'ietf-interfaces:interfaces': { interface: [{ name: 'eth0', type: 'iana-if-type:ethernetCsmacd' }] },
};
const library = {
  'example-jukebox:jukebox': {
    library: { artist: [{ name: 'Beck' }, { name: 'ABBA' }, { name: 'Cream' }] },
  },
};

let gw: Gateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

async function start(options: Parameters<typeof startGateway>[0], data: unknown): Promise<Gateway> {
  gw = await startGateway(options);
  const r = await gw.fetch('/restconf/data', json('PUT', data));
  expect(r.status).toBeLessThan(300);
  return gw;
}

async function artistNames(g: Gateway): Promise<string[]> {
  const r = await g.fetch(`${LIB}?content=config`, JSON_ACCEPT);
  const got = (await r.json()) as { 'example-jukebox:library': { artist: { name: string }[] } };
  return got['example-jukebox:library'].artist.map((a) => a.name);
}

describe('withYangMetadata (--with-yang-metadata)', () => {
  test('false leaves RFC 7952 annotations out of JSON', async () => {
    const g = await start({ withYangMetadata: false }, eth0);
    const text = await (await g.fetch(TAGGED, JSON_ACCEPT)).text();
    expect(text).toContain('"enabled":true');
    expect(text).not.toContain('ietf-netconf-with-defaults:default');
  });

  test('false leaves RFC 7952 annotations out of XML', async () => {
    const g = await start({ withYangMetadata: false }, eth0);
    const text = await (await g.fetch(TAGGED, XML_ACCEPT)).text();
    expect(text).toContain('<enabled>true</enabled>');
    expect(text).not.toContain('default="true"');
  });

  test('true (the default) writes the annotation', async () => {
    const g = await start({}, eth0);
    const text = await (await g.fetch(TAGGED, XML_ACCEPT)).text();
    expect(text).toMatch(/<enabled [^>]*default="true"[^>]*>true<\/enabled>/);
  });
});

describe('withJsonMetadata (--with-json-metadata)', () => {
  test('false leaves annotations out of JSON', async () => {
    const g = await start({ withJsonMetadata: false }, eth0);
    const got = (await (await g.fetch(TAGGED, JSON_ACCEPT)).json()) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(got['ietf-interfaces:interface']![0]).toHaveProperty('enabled', true);
    expect(got['ietf-interfaces:interface']![0]).not.toHaveProperty('@enabled');
  });

  test('false keeps annotations in XML', async () => {
    const g = await start({ withJsonMetadata: false }, eth0);
    const text = await (await g.fetch(TAGGED, XML_ACCEPT)).text();
    expect(text).toMatch(/default="true"/);
  });
});

describe('systemSorted and systemSortType (--system-sorted, --system-sort-type)', () => {
  test('without systemSorted the backend order is kept', async () => {
    const g = await start({}, library);
    expect(await artistNames(g)).toEqual(['Beck', 'ABBA', 'Cream']);
  });

  test('systemSorted sorts an ordered-by system list by key, ascending by default', async () => {
    const g = await start({ systemSorted: true }, library);
    expect(await artistNames(g)).toEqual(['ABBA', 'Beck', 'Cream']);
  });

  test('systemSortType descending reverses the order', async () => {
    const g = await start({ systemSorted: true, systemSortType: 'descending' }, library);
    expect(await artistNames(g)).toEqual(['Cream', 'Beck', 'ABBA']);
  });

  test('systemSortType alone does not sort', async () => {
    const g = await start({ systemSortType: 'descending' }, library);
    expect(await artistNames(g)).toEqual(['Beck', 'ABBA', 'Cream']);
  });
});

describe('wildcardKeys (--wildcard-keys)', () => {
  test('a * key in the last segment reads every entry', async () => {
    const g = await start({ wildcardKeys: true, systemSorted: true }, library);
    const r = await g.fetch(`${LIB}/artist=*`, JSON_ACCEPT);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      'example-jukebox:artist': [{ name: 'ABBA' }, { name: 'Beck' }, { name: 'Cream' }],
    });
  });

  test('a * key is for reads only', async () => {
    const g = await start({ wildcardKeys: true }, library);
    const r = await g.fetch(`${LIB}/artist=*`, { method: 'DELETE' });
    expect(r.status).toBe(400);
    expect(await artistNames(g)).toHaveLength(3);
  });

  test('a * key before the last segment is 400', async () => {
    const g = await start({ wildcardKeys: true }, library);
    const r = await g.fetch(`${LIB}/artist=*/album`, JSON_ACCEPT);
    expect(r.status).toBe(400);
  });

  test('a * key written %2A names the entry whose key is "*"', async () => {
    const g = await start(
      { wildcardKeys: true },
      {
        'example-jukebox:jukebox': { library: { artist: [{ name: '*' }, { name: 'Beck' }] } },
      },
    );
    const r = await g.fetch(`${LIB}/artist=%2A`, JSON_ACCEPT);
    expect(await r.json()).toEqual({ 'example-jukebox:artist': [{ name: '*' }] });
    expect((await g.fetch(`${LIB}/artist=%2A`, { method: 'DELETE' })).status).toBe(204);
    expect(await artistNames(g)).toEqual(['Beck']);
  });

  test('a wildcard answer in XML is one document: the entries inside one data element', async () => {
    const g = await start({ wildcardKeys: true }, library);
    const text = await (await g.fetch(`${LIB}/artist=*`, XML_ACCEPT)).text();
    expect(text).toBe(
      '<data xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">' +
        ['Beck', 'ABBA', 'Cream']
          .map((n) => `<artist xmlns="http://example.com/ns/example-jukebox"><name>${n}</name></artist>`)
          .join('') +
        '</data>',
    );
  });

  test('without wildcardKeys a * key names the entry whose key is "*"', async () => {
    const g = await start({}, library);
    const r = await g.fetch(`${LIB}/artist=*`, JSON_ACCEPT);
    expect(r.status).toBe(404);
  });
});

describe('withRestconf (--with-restconf)', () => {
  test('false answers 404 on the RESTCONF root, data and host-meta', async () => {
    gw = await startGateway({ withRestconf: false });
    for (const path of ['/restconf', '/restconf/data', '/.well-known/host-meta']) {
      expect((await gw.fetch(path)).status).toBe(404);
    }
  });

  test('false still serves the server status page', async () => {
    gw = await startGateway({ withRestconf: false, serverStatus: true });
    expect((await gw.fetch('/server-status')).status).toBe(200);
  });
});
