import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  decodeJson,
  decodeXml,
  decodeXmlSteps,
  encodeJson,
  encodeJsonChunks,
  encodeXml,
  encodeXmlChunks,
  readXml,
} from '../src/index';
import { drain, SHARED_YANG } from './helpers';

const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const JB = 'http://example.com/ns/example-jukebox';
const NACM = 'urn:ietf:params:xml:ns:yang:ietf-netconf-acm';
const NCM = 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadSchema({
    paths: [SHARED_YANG],
    modules: ['ietf-netconf', 'example-jukebox', 'ietf-netconf-acm', 'ietf-netconf-monitoring'],
  });
}, 60_000);

const getConfigOutput = `<rpc-reply xmlns="${NC}"><data>
  <jukebox xmlns="${JB}"><library><artist><name>Foo</name>
    <album><name>One</name><year>2011</year></album></artist></library></jukebox></data></rpc-reply>`;

describe('anydata content', () => {
  test('content of known top-level nodes is decoded as data and encodes by RFC 7951', () => {
    const tree = decodeXml(schema, getConfigOutput, {
      kind: 'rpc-output',
      operation: 'ietf-netconf:get-config',
    });
    expect(JSON.parse(encodeJson(tree))).toEqual({
      'ietf-netconf:output': {
        data: {
          'example-jukebox:jukebox': {
            library: { artist: [{ name: 'Foo', album: [{ name: 'One', year: 2011 }] }] },
          },
        },
      },
    });
  });

  test('JSON content of known top-level nodes decodes as data and writes back as XML', () => {
    const json = {
      'ietf-netconf:output': {
        data: { 'example-jukebox:jukebox': { library: { artist: [{ name: 'Foo' }] } } },
      },
    };
    const tree = decodeJson(schema, json, { kind: 'rpc-output', operation: 'ietf-netconf:get-config' });
    expect(encodeXml(tree)).toBe(
      `<output xmlns="${NC}"><data><jukebox xmlns="${JB}"><library><artist><name>Foo</name></artist></library></jukebox></data></output>`,
    );
  });

  test('content the schema does not know stays schema-less', () => {
    const tree = decodeXml(
      schema,
      `<rpc-reply xmlns="${NC}"><data><thing xmlns="urn:x">1</thing></data></rpc-reply>`,
      {
        kind: 'rpc-output',
        operation: 'ietf-netconf:get-config',
      },
    );
    const data = [...[...tree.children.values()][0]![0]!.children!.values()][0]![0]!;
    expect([data.children, data.any?.[0]?.name]).toEqual([undefined, 'thing']);
  });

  test('content of known nodes that does not decode as data stays schema-less', () => {
    const tree = decodeXml(
      schema,
      `<rpc-reply xmlns="${NC}"><data><jukebox xmlns="${JB}"><library><artist><name>a</name><album><name>b</name><year>soon</year></album></artist></library></jukebox></data></rpc-reply>`,
      { kind: 'rpc-output', operation: 'ietf-netconf:get-config' },
    );
    const data = [...[...tree.children.values()][0]![0]!.children!.values()][0]![0]!;
    expect([data.children, data.any?.[0]?.name]).toEqual([undefined, 'jukebox']);
  });

  test('big content is decoded in steps, from text and from elements, to the tree decoded at once', () => {
    const artists = Array.from({ length: 5_000 }, (_, i) => `<artist><name>a${i}</name></artist>`).join('');
    const reply = `<rpc-reply xmlns="${NC}"><data><jukebox xmlns="${JB}"><library>${artists}</library></jukebox></data></rpc-reply>`;
    const options = { kind: 'rpc-output', operation: 'ietf-netconf:get-config' } as const;
    const once = encodeJson(decodeXml(schema, reply, options));
    expect(once).toContain('"name":"a4999"');
    for (const input of [reply, readXml(reply)[0]!]) {
      const { value, yields } = drain(decodeXmlSteps(schema, input, options));
      // One step per few hundred elements: the content is not decoded in one.
      expect(yields).toBeGreaterThan(10);
      expect(encodeJson(value)).toBe(once);
    }
  });

  test('big content is encoded in chunks of about 64 KiB, JSON and XML, with metadata as at once', () => {
    const artists = Array.from({ length: 20_000 }, (_, i) => `<artist><name>a${i}</name></artist>`).join('');
    const reply = `<rpc-reply xmlns="${NC}"><data><jukebox xmlns="${JB}"><library>${artists}</library></jukebox></data></rpc-reply>`;
    const tree = decodeXml(schema, reply, { kind: 'rpc-output', operation: 'ietf-netconf:get-config' });
    for (const [chunks, once] of [
      [[...encodeJsonChunks(tree, { metadata: true })], encodeJson(tree, { metadata: true })],
      [[...encodeXmlChunks(tree)], encodeXml(tree)],
    ] as const) {
      expect(once.length).toBeGreaterThan(300_000);
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(100_000);
      expect(chunks.join('')).toBe(once);
    }
  });
});

describe('anyxml text content', () => {
  const schemaText = 'module m {\n  namespace "urn:m";\n  prefix m;\n}\n';
  const reply = `<rpc-reply xmlns="${NC}"><data xmlns="${NCM}">${schemaText.replace(/"/g, '&quot;')}</data></rpc-reply>`;
  const decode = () =>
    decodeXml(schema, reply, { kind: 'rpc-output', operation: 'ietf-netconf-monitoring:get-schema' });

  test('text alone (get-schema output) encodes as a JSON string', () => {
    expect(JSON.parse(encodeJson(decode()))).toEqual({
      'ietf-netconf-monitoring:output': { data: schemaText },
    });
  });

  test('text alone writes back as the XML text of the element', () => {
    expect(encodeXml(decode())).toBe(`<output xmlns="${NCM}"><data>${schemaText}</data></output>`);
  });
});

describe('NETCONF filter attributes (RFC 6241 section 7.1)', () => {
  const getConfig = (filter: string) =>
    decodeXml(schema, `<get-config xmlns="${NC}"><source><running/></source>${filter}</get-config>`, {
      kind: 'rpc-input',
      operation: 'ietf-netconf:get-config',
    });

  test('unqualified type and select become ietf-netconf metadata, select with module names', () => {
    const tree = getConfig(`<filter type="xpath" xmlns:j="${JB}" select="/j:jukebox/j:player"/>`);
    expect(JSON.parse(encodeJson(tree))['ietf-netconf:input']['@filter']).toEqual({
      'ietf-netconf:type': 'xpath',
      'ietf-netconf:select': '/example-jukebox:jukebox/example-jukebox:player',
    });
  });

  test('they write back unqualified, select with its prefixes declared', () => {
    const tree = getConfig(`<filter type="xpath" xmlns:j="${JB}" select="/j:jukebox/j:player"/>`);
    expect(encodeXml(tree)).toContain(
      `<filter type="xpath" xmlns:jbox="${JB}" select="/jbox:jukebox/jbox:player"/>`,
    );
  });

  test('a subtree filter keeps its type beside its content', () => {
    const tree = getConfig(`<filter type="subtree"><jukebox xmlns="${JB}"/></filter>`);
    expect(encodeXml(tree)).toContain(`<filter type="subtree"><jukebox xmlns="${JB}"/></filter>`);
  });

  test('another unqualified attribute on the filter is still refused', () => {
    expect(() => getConfig('<filter kind="subtree"/>')).toThrow(/attribute "kind"/);
  });
});

describe('yang:xpath1.0 values', () => {
  const nacm = (path: string, declarations: string) =>
    `<nacm xmlns="${NACM}"><rule-list><name>l</name><rule><name>r</name><path${declarations}>${path}</path><action>permit</action></rule></rule-list></nacm>`;

  test('XML prefixes become module names in the tree and in JSON', () => {
    const tree = decodeXml(schema, nacm('/ncm:netconf-state/ncm:sessions', ` xmlns:ncm="${NCM}"`));
    const json = JSON.parse(encodeJson(tree));
    expect(json['ietf-netconf-acm:nacm']['rule-list'][0].rule[0].path).toBe(
      '/ietf-netconf-monitoring:netconf-state/ietf-netconf-monitoring:sessions',
    );
  });

  test('module names become the schema prefixes, declared, in XML', () => {
    const tree = decodeJson(schema, {
      'ietf-netconf-acm:nacm': {
        'rule-list': [
          {
            name: 'l',
            rule: [
              {
                name: 'r',
                path: "/ietf-netconf-monitoring:netconf-state[ietf-netconf-monitoring:x='a:b']",
                action: 'permit',
              },
            ],
          },
        ],
      },
    });
    expect(encodeXml(tree)).toContain(`<path xmlns:ncm="${NCM}">/ncm:netconf-state[ncm:x='a:b']</path>`);
  });
});
