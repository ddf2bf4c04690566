import { XmlError } from '@yangkit/xml';
import { compileSchema, parseModule, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeJson, decodeXml, encodeJson } from '../src/index';
import { codecError, testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
}, 60_000);

const CT = 'urn:example:codec-types';
const xmlTypes = (inner: string) => `<types xmlns="${CT}">${inner}</types>`;
const jsonTypes = (inner: Record<string, unknown>) => ({ 'codec-types:types': inner });

describe('decoding errors name the node and the rule', () => {
  test('rejects an integer out of its type range in XML', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8>256</u8>')));
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'INVALID_VALUE',
      'invalid-value',
      '/codec-types:types/u8',
    ]);
    expect(e.message).toContain('"u8"');
    expect(e.errorInfo).toEqual({ 'bad-value': '256' });
  });

  test('an error of the input carries no stack frames, and leaves the stack limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8>256</u8>')));
    expect(e.stack).toBe(`CodecError: ${e.message}`);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('x').stack).toContain('    at ');
  });

  test('rejects a leaf that holds an element, and takes its text in pieces split by comments', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8>1<x/></u8>')));
    expect([e.code, e.errorTag, e.errorPath?.json, e.errorInfo]).toEqual([
      'BAD_ELEMENT',
      'bad-element',
      '/codec-types:types/u8',
      { 'bad-element': 'u8' },
    ]);
    expect(e.message).toContain('holds an element <x> instead of a value');
    const tree = decodeXml(schema, xmlTypes('<u8> 2<!-- c -->5<![CDATA[5]]> </u8>'));
    expect(encodeJson(tree)).toBe('{"codec-types:types":{"u8":255}}');
  });

  test('says an identity is disabled by a feature, in JSON and XML', () => {
    const feat = compileSchema(
      [
        parseModule(`module feat { yang-version 1.1; namespace "urn:feat"; prefix f;
          feature json; identity encoding; identity encode-json { base encoding; if-feature json; }
          leaf e { type identityref { base encoding; } } }`),
      ],
      { features: { feat: [] } },
    );
    const json = codecError(() => decodeJson(feat, { 'feat:e': 'encode-json' }));
    const xml = codecError(() => decodeXml(feat, '<e xmlns="urn:feat" xmlns:x="urn:feat">x:encode-json</e>'));
    for (const e of [json, xml]) {
      expect(e.errorTag).toBe('invalid-value');
      expect(e.message).toContain(
        'identity feat:encode-json is unavailable, feature disabled (if-feature "json")',
      );
    }
  });

  test('gives the XML form of the error path with schema prefixes', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8>x</u8>')));
    expect(e.errorPath?.xml).toBe('/ct:types/ct:u8');
  });

  test('names the whole data-resource path of a resource body below parentPath', () => {
    const parent = schema.find('/codec-types:types');
    const parentPath = { json: '/codec-types:types', xml: '/ct:types' };
    const options = { kind: 'resource' as const, ...(parent ? { parent } : {}), parentPath };
    const json = codecError(() => decodeJson(schema, '{"codec-types:u8": 256}', options));
    expect(json.errorPath).toEqual({ json: '/codec-types:types/u8', xml: '/ct:types/ct:u8' });
    expect(json.message).toContain('(/codec-types:types/u8)');
    const xml = codecError(() => decodeXml(schema, `<nope xmlns="${CT}"/>`, options));
    expect(xml.errorPath?.json).toBe('/codec-types:types/nope');
  });

  test('rejects a typedef range violation', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ pct: 101 })));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.message).toContain('"pct"');
  });

  test('rejects a length violation', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ code: 'ABCDE' })));
    expect([e.code, e.errorPath?.json]).toEqual(['INVALID_VALUE', '/codec-types:types/code']);
  });

  test('a JSON string value is its bad-value without the JSON quotes, as in XML', () => {
    const json = codecError(() => decodeJson(schema, jsonTypes({ code: 'ABCDE' })));
    const xml = codecError(() => decodeXml(schema, xmlTypes('<code>ABCDE</code>')));
    expect(json.errorInfo).toEqual({ 'bad-value': 'ABCDE' });
    expect(json.errorInfo).toEqual(xml.errorInfo);
  });

  test('a JSON number value is its bad-value as written', () => {
    expect(codecError(() => decodeJson(schema, jsonTypes({ pct: 101 }))).errorInfo).toEqual({
      'bad-value': '101',
    });
  });

  test('reports the error-message and error-app-tag of a failing pattern', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ code: 'ab' })));
    expect(e.errorAppTag).toBe('bad-code');
    expect(e.message).toBe('code must be upper-case letters');
  });

  test('rejects a JSON string where RFC 7951 wants a number', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ u8: '5' })));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.message).toContain('RFC 7951');
  });

  test('rejects a JSON number for an int64 leaf, which RFC 7951 writes as a string', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ i64: 5 })));
    expect(e.errorPath?.json).toBe('/codec-types:types/i64');
  });

  test('rejects an empty leaf that is not [null]', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ flag: null })));
    expect(e.message).toContain('"flag"');
  });

  test('rejects an identity not derived from the base', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ pet: 'codec-types:animal' })));
    expect(e.code).toBe('INVALID_VALUE');
    expect(e.message).toContain('"pet"');
  });

  test('rejects an identityref whose prefix is unbound in XML', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<pet>zz:cat</pet>')));
    expect(e.code).toBe('INVALID_VALUE');
  });

  test('rejects an instance-identifier naming no schema node', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ target: '/codec-types:nothing' })));
    expect([e.code, e.errorPath?.json]).toEqual(['INVALID_VALUE', '/codec-types:types/target']);
  });

  test('rejects an unknown element with unknown-element', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<nope>1</nope>')));
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'UNKNOWN_ELEMENT',
      'unknown-element',
      '/codec-types:types/nope',
    ]);
    expect(e.errorInfo).toEqual({ 'bad-element': 'nope' });
  });

  test('rejects an unknown JSON member', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ nope: 1 })));
    expect([e.code, e.errorPath?.json]).toEqual(['UNKNOWN_ELEMENT', '/codec-types:types/nope']);
  });

  test('rejects an element in a namespace no module has', () => {
    const e = codecError(() => decodeXml(schema, '<types xmlns="urn:nowhere"/>'));
    expect([e.code, e.errorTag]).toEqual(['UNKNOWN_NAMESPACE', 'unknown-namespace']);
    expect(e.errorInfo?.['bad-namespace']).toBe('urn:nowhere');
  });

  test('rejects a known name in the wrong module namespace', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8 xmlns="http://example.com/foomod">1</u8>')));
    expect([e.code, e.errorTag]).toEqual(['UNKNOWN_NAMESPACE', 'unknown-namespace']);
  });

  test('rejects a JSON member naming an unknown module', () => {
    const e = codecError(() => decodeJson(schema, { 'no-such-module:x': {} }));
    expect(e.code).toBe('UNKNOWN_NAMESPACE');
  });

  test('rejects a top-level JSON member without its module name', () => {
    const e = codecError(() => decodeJson(schema, { types: {} }));
    expect(e.code).toBe('UNKNOWN_NAMESPACE');
    expect(e.message).toContain('RFC 7951');
  });

  test('rejects a list entry without its key', () => {
    const e = codecError(() =>
      decodeXml(schema, `<entry xmlns="${CT}"><id>1</id><weight>1</weight></entry>`),
    );
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'MISSING_ELEMENT',
      'missing-element',
      "/codec-types:entry[id='1']/region",
    ]);
  });

  test('rejects two list entries with the same keys', () => {
    const entry = { id: 1, region: 'eu', weight: 1 };
    const e = codecError(() => decodeJson(schema, { 'codec-types:entry': [entry, entry] }));
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'DATA_EXISTS',
      'data-exists',
      "/codec-types:entry[region='eu'][id='1']",
    ]);
  });

  test('rejects a duplicate value in a configuration leaf-list', () => {
    const e = codecError(() => decodeJson(schema, jsonTypes({ tags: ['a', 'a'] })));
    expect([e.code, e.errorPath?.json]).toEqual(['DATA_EXISTS', "/codec-types:types/tags[.='a']"]);
  });

  test('rejects a repeated key far into a long list, in JSON and XML', () => {
    const ids = [...Array.from({ length: 20 }, (_, i) => i), 13];
    const json = codecError(() =>
      decodeJson(schema, { 'codec-types:entry': ids.map((id) => ({ id, region: 'eu', weight: 1 })) }),
    );
    const xml = codecError(() =>
      decodeXml(
        schema,
        ids
          .map((id) => `<entry xmlns="${CT}"><id>${id}</id><region>eu</region><weight>1</weight></entry>`)
          .join(''),
      ),
    );
    for (const e of [json, xml]) {
      expect([e.code, e.errorPath?.json]).toEqual([
        'DATA_EXISTS',
        "/codec-types:entry[region='eu'][id='13']",
      ]);
    }
  });

  test('accepts list entries that share one key leaf but not the other, in a short and a long list', () => {
    for (const count of [3, 20]) {
      const entries = Array.from({ length: count }, (_, i) => ({
        id: i >> 1,
        region: i % 2 === 0 ? 'eu' : 'us',
        weight: 1,
      }));
      const tree = decodeJson(schema, { 'codec-types:entry': entries });
      expect(JSON.parse(encodeJson(tree))['codec-types:entry']).toHaveLength(count);
    }
  });

  test('rejects a value repeated far into a long leaf-list, in JSON and XML', () => {
    const tags = [...Array.from({ length: 20 }, (_, i) => `t${i}`), 't7'];
    const json = codecError(() => decodeJson(schema, jsonTypes({ tags })));
    const xml = codecError(() => decodeXml(schema, xmlTypes(tags.map((t) => `<tags>${t}</tags>`).join(''))));
    for (const e of [json, xml]) {
      expect([e.code, e.errorPath?.json]).toEqual(['DATA_EXISTS', "/codec-types:types/tags[.='t7']"]);
    }
  });

  test('rejects a leaf given twice', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<u8>1</u8><u8>2</u8>')));
    expect([e.code, e.errorTag]).toEqual(['BAD_ELEMENT', 'bad-element']);
  });

  test('rejects a JSON object where a list array belongs', () => {
    const e = codecError(() => decodeJson(schema, { 'codec-types:entry': { id: 1 } }));
    expect([e.code, e.errorPath?.json]).toEqual(['BAD_ELEMENT', '/codec-types:entry']);
  });

  test('rejects an element inside a leaf', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<str><b/></str>')));
    expect(e.code).toBe('BAD_ELEMENT');
  });

  test('rejects state data in a configuration body', () => {
    const e = codecError(() =>
      decodeJson(schema, { 'codec-types:settings': { 'state-counter': 1 } }, { kind: 'config' }),
    );
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'CONFIG_FALSE',
      'invalid-value',
      '/codec-types:settings/state-counter',
    ]);
  });

  test('accepts state data in a data body', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { 'state-counter': 1 } });
    expect(tree.children.size).toBe(1);
  });

  test('rejects metadata from a namespace no module has', () => {
    const e = codecError(() => decodeXml(schema, `<types xmlns="${CT}" xmlns:q="urn:q" q:x="1"/>`));
    expect(e.code).toBe('UNKNOWN_ATTRIBUTE');
  });

  test('rejects an unqualified XML attribute', () => {
    const e = codecError(() => decodeXml(schema, `<types xmlns="${CT}" x="1"/>`));
    expect([e.code, e.errorTag]).toEqual(['UNKNOWN_ATTRIBUTE', 'unknown-attribute']);
  });

  test('rejects a with-defaults annotation that is not a boolean', () => {
    const e = codecError(() =>
      decodeJson(schema, {
        'codec-types:settings': { mode: 'x', '@mode': { 'ietf-netconf-with-defaults:default': 'yes' } },
      }),
    );
    expect(e.code).toBe('INVALID_VALUE');
  });

  test('skips unknown nodes when not strict', () => {
    const tree = decodeXml(schema, xmlTypes('<nope/><u8>1</u8>'), { strict: false });
    expect([...tree.children.values()][0]![0]!.children!.size).toBe(1);
  });

  test('rejects malformed JSON with JSON_MALFORMED', () => {
    expect(codecError(() => decodeJson(schema, '{"a":')).code).toBe('JSON_MALFORMED');
  });

  test('rejects JSON over the size limit', () => {
    expect(codecError(() => decodeJson(schema, '{}'.padEnd(100), { maxSize: 10 })).code).toBe(
      'LIMIT_EXCEEDED',
    );
  });

  test('rejects anydata nesting deeper than the depth limit', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) deep = { a: deep };
    const e = codecError(() => decodeJson(schema, jsonTypes({ extra: deep }), { maxDepth: 20 }));
    expect(e.code).toBe('BAD_ELEMENT');
  });

  test('rejects arrays nested in anydata deeper than the depth limit', () => {
    // Within the text bound (twice the limit), so the decoder's own count refuses it.
    const arrays = `${'['.repeat(300)}${']'.repeat(300)}`;
    const e = codecError(() => decodeJson(schema, `{"codec-types:types":{"extra":{"a":${arrays}}}}`));
    expect(e.code).toBe('BAD_ELEMENT');
    expect(e.message).toContain('nesting deeper than 256');
  });

  test('rejects an anyxml array nested deeper than the depth limit', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 30; i++) deep = [deep];
    const e = codecError(() => decodeJson(schema, jsonTypes({ 'blob-xml': deep }), { maxDepth: 20 }));
    expect(e.code).toBe('BAD_ELEMENT');
  });

  test('keeps an array nested in anydata within the depth limit as text', () => {
    const tree = decodeJson(schema, jsonTypes({ extra: { a: [[1, [2]]] } }));
    const extra = [...tree.children.values()][0]?.[0]?.children?.values().next().value?.[0];
    expect(extra?.any?.[0]?.text).toBe('[1,[2]]');
  });

  test('refuses JSON text nested deeper than twice the depth limit before parsing it', () => {
    const e = codecError(() => decodeJson(schema, `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`));
    expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'malformed-message']);
    expect(e.message).toContain('deeper than 514 levels');
  });

  test('rejects a DOCTYPE in a data body', () => {
    const e = codecError(() =>
      decodeXml(schema, `<!DOCTYPE types [<!ENTITY a "b">]>${xmlTypes('<str>&a;</str>')}`),
    );
    expect(e.code).toBe('XML_FORBIDDEN');
  });

  test('reports XML that is not well-formed as XML_MALFORMED with the reader error and its position', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes('<str>\n</u8>')));
    expect([e.code, e.errorTag, e.message]).toEqual([
      'XML_MALFORMED',
      'malformed-message',
      'malformed XML: expected </str>, found </u8> (line 2, column 1)',
    ]);
    expect(XmlError.isInstance(e.cause) && [e.cause.code, e.cause.line]).toEqual(['XML_MALFORMED', 2]);
  });

  test('reports XML over the size limit as LIMIT_EXCEEDED with error-tag too-big', () => {
    const e = codecError(() => decodeXml(schema, xmlTypes(''), { maxSize: 10 }));
    expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'too-big']);
  });

  test('reports XML nested deeper than maxDepth as LIMIT_EXCEEDED, a malformed message', () => {
    const deep = xmlTypes('<a><b><c/></b></a>');
    const e = codecError(() => decodeXml(schema, deep, { maxDepth: 2, strict: false }));
    expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'malformed-message']);
  });

  test('names an unknown rpc option with BAD_OPTION', () => {
    const e = codecError(() =>
      decodeJson(schema, {}, { kind: 'rpc-input', operation: 'example-ops:nothing' }),
    );
    expect(e.code).toBe('BAD_OPTION');
  });

  test('rejects an rpc input member named after another module', () => {
    const e = codecError(() =>
      decodeJson(
        schema,
        { 'example-jukebox:input': {} },
        { kind: 'rpc-input', operation: 'example-ops:reboot' },
      ),
    );
    expect(e.code).toBe('BAD_ELEMENT');
  });

  test('rejects an unknown rpc input parameter with its path', () => {
    const e = codecError(() =>
      decodeJson(
        schema,
        { 'example-ops:input': { nope: 1 } },
        { kind: 'rpc-input', operation: 'example-ops:reboot' },
      ),
    );
    expect([e.code, e.errorPath?.json]).toEqual(['UNKNOWN_ELEMENT', '/example-ops:reboot/nope']);
  });
});

describe('NETCONF action requests', () => {
  test('reject an <action> path that does not lead to the action', () => {
    const xml = `<action xmlns="urn:ietf:params:xml:ns:yang:1"><jukebox xmlns="http://example.com/ns/example-jukebox"/></action>`;
    const e = codecError(() =>
      decodeXml(schema, xml, {
        kind: 'action-input',
        operation: '/example-actions:interfaces/interface/reset',
      }),
    );
    expect([e.code, e.errorInfo]).toEqual(['BAD_ELEMENT', { 'bad-element': 'jukebox' }]);
  });
});

describe('value length limits', () => {
  const feat = () =>
    compileSchema([
      parseModule(`module lim { yang-version 1.1; namespace "urn:lim"; prefix l;
        list item { key name; leaf name { type string; } leaf text { type string; } } }`),
    ]);

  test('a list key longer than maxKeyLength in UTF-8 bytes is invalid-value naming the limit, in JSON and XML', () => {
    const s = feat();
    const name = 'é'.repeat(9); // 18 bytes
    const json = codecError(() => decodeJson(s, { 'lim:item': [{ name }] }, { maxKeyLength: 16 }));
    const xml = codecError(() =>
      decodeXml(s, `<item xmlns="urn:lim"><name>${name}</name></item>`, { maxKeyLength: 16 }),
    );
    for (const e of [json, xml]) {
      expect([e.code, e.errorTag]).toEqual(['INVALID_VALUE', 'invalid-value']);
      expect(e.message).toContain('16 bytes');
    }
    expect(() =>
      decodeJson(s, { 'lim:item': [{ name: 'é'.repeat(8) }] }, { maxKeyLength: 16 }),
    ).not.toThrow();
  });

  test('a value longer than maxStringLength is invalid-value, a key is bounded by both limits', () => {
    const s = feat();
    const e = codecError(() =>
      decodeJson(s, { 'lim:item': [{ name: 'a', text: 'x'.repeat(33) }] }, { maxStringLength: 32 }),
    );
    expect(e.message).toContain('32 bytes');
    expect(() =>
      decodeJson(s, { 'lim:item': [{ name: 'a', text: 'x'.repeat(33) }] }, { maxKeyLength: 8 }),
    ).not.toThrow();
  });
});

describe('node count limit', () => {
  const s = compileSchema([
    parseModule(`module cnt { yang-version 1.1; namespace "urn:cnt"; prefix c;
      list item { key name; leaf name { type string; } } }`),
  ]);
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `i${i}` }));
  const xmlItems = (n: number) =>
    items(n)
      .map((i) => `<item xmlns="urn:cnt"><name>${i.name}</name></item>`)
      .join('');

  test('a document of more data nodes than maxNodes is too-big, in JSON and XML', () => {
    // Each entry is two nodes: the entry and its key leaf.
    const json = codecError(() => decodeJson(s, { 'cnt:item': items(6) }, { maxNodes: 10 }));
    const xml = codecError(() => decodeXml(s, xmlItems(6), { maxNodes: 10 }));
    for (const e of [json, xml]) {
      expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'too-big']);
      expect(e.message).toContain('more than 10 data nodes');
    }
  });

  test('a document of exactly maxNodes data nodes is decoded', () => {
    expect(() => decodeJson(s, { 'cnt:item': items(5) }, { maxNodes: 10 })).not.toThrow();
    expect(() => decodeXml(s, xmlItems(5), { maxNodes: 10 })).not.toThrow();
  });
});
