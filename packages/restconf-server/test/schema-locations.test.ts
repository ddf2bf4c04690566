import { decodeXml, encodeJson } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Settings } from '../src/context.js';
import { addSchemaLocations, servedSchema } from '../src/schema-locations.js';
import { exampleSchema, type Gateway, startGateway } from './harness.js';

const JSON_ACCEPT = { headers: { accept: 'application/yang-data+json' } };
const YLIB_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-library';
let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ serverUrl: 'https://device.example' });
});
afterAll(() => gw.close());

describe('schema locations in the YANG library (RFC 8040 3.7)', () => {
  test('modules-state names the schema URL of each module', async () => {
    const r = await gw.fetch(
      '/restconf/data/ietf-yang-library:modules-state/module=example-jukebox,2016-08-15/schema',
      JSON_ACCEPT,
    );
    expect(await r.json()).toEqual({
      'ietf-yang-library:schema': 'https://device.example/restconf/yang/example-jukebox@2016-08-15',
    });
  });

  test('yang-library names the location of each module', async () => {
    const r = await gw.fetch('/restconf/data/ietf-yang-library:yang-library', JSON_ACCEPT);
    const body = (await r.json()) as {
      'ietf-yang-library:yang-library': {
        'module-set': { module: { name: string; location?: string[] }[] }[];
      };
    };
    const modules = body['ietf-yang-library:yang-library']['module-set'][0]!.module;
    expect(modules.find((m) => m.name === 'example-ops')?.location).toEqual([
      'https://device.example/restconf/yang/example-ops@2016-07-07',
    ]);
    expect(modules.every((m) => m.location?.length === 1)).toBe(true);
  });

  test('the URL named answers the module text', async () => {
    const r = await gw.fetch(
      '/restconf/data/ietf-yang-library:modules-state/module=ietf-interfaces,2018-02-20/schema',
      JSON_ACCEPT,
    );
    const url = new URL(((await r.json()) as Record<string, string>)['ietf-yang-library:schema']!);
    const text = await (await gw.fetch(url.pathname)).text();
    expect(text).toMatch(/^module ietf-interfaces \{/);
  });

  test('a module whose text the handler lacks gets no URL', async () => {
    const schema = await exampleSchema();
    const tree = decodeXml(
      schema,
      `<data xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><modules-state xmlns="${YLIB_NS}"><module-set-id>1</module-set-id>` +
        '<module><name>acme-system</name><revision>2024-01-01</revision><namespace>urn:acme</namespace><conformance-type>implement</conformance-type></module>' +
        '<module><name>example-ops</name><revision>2000-01-01</revision><namespace>urn:x</namespace><conformance-type>implement</conformance-type></module>' +
        '</modules-state></data>',
      { kind: 'data' },
    );
    addSchemaLocations({ schema, serverUrl: 'http://h', root: '/restconf' } as Settings, tree);
    expect(encodeJson(tree)).not.toContain('"schema"');
  });
});

describe('schema retrieval (RFC 8040 3.7)', () => {
  test('{+restconf}/yang without a module is 404 naming the form of a schema URL', async () => {
    const r = await gw.fetch('/restconf/yang', JSON_ACCEPT);
    expect(r.status).toBe(404);
    const body = JSON.stringify(await r.json());
    expect(body).toContain('/yang/<module>[@<revision>]');
  });

  test('every revision of a module in the schema is served, not only the implemented one', () => {
    const old = { name: 'acme', revision: '2020-01-01', source: 'old', submodules: [] };
    const now = { name: 'acme', revision: '2024-01-01', source: 'new', submodules: [] };
    const schema = { moduleByName: () => now, modules: [old, now] } as unknown as SchemaTree;
    expect(servedSchema(schema, 'acme')?.source).toBe('new');
    expect(servedSchema(schema, 'acme', '2020-01-01')?.source).toBe('old');
    expect(servedSchema(schema, 'acme', '2022-01-01')).toBeUndefined();
  });
});
