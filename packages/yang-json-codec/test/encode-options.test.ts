import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeJson, encodeJson, encodeXml } from '../src/index';
import { testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
}, 60_000);

describe('encoder options', () => {
  test('leaves out empty non-presence containers when return-empty-npcontainers is off', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { timers: {}, opt: {}, mode: 'x' } });
    expect(JSON.parse(encodeJson(tree, { returnEmptyNpContainers: false }))).toEqual({
      'codec-types:settings': { mode: 'x', opt: {} },
    });
    expect(encodeXml(tree, { returnEmptyNpContainers: false })).toBe(
      '<settings xmlns="urn:example:codec-types"><mode>x</mode><opt/></settings>',
    );
  });

  test('writes empty non-presence containers by default', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { timers: {} } });
    expect(encodeJson(tree)).toBe('{"codec-types:settings":{"timers":{}}}');
  });

  test('sorts system-ordered lists by key and leaf-lists by value when asked', () => {
    const tree = decodeJson(schema, {
      'codec-types:entry': [
        { region: 'us', id: 10, weight: 1 },
        { region: 'eu', id: 9, weight: 1 },
        { region: 'eu', id: 10, weight: 1 },
      ],
      'codec-types:types': { tags: ['b', 'a'], counts: [3, 1] },
    });
    const out = JSON.parse(encodeJson(tree, { sortSystemOrdered: true }));
    expect(out['codec-types:entry'].map((e: { region: string; id: number }) => `${e.region}${e.id}`)).toEqual(
      ['eu9', 'eu10', 'us10'],
    );
    expect(out['codec-types:types'].tags).toEqual(['a', 'b']);
    // ordered-by user keeps the order given
    expect(out['codec-types:types'].counts).toEqual([3, 1]);
  });

  test('sorts system-ordered entries in descending order when asked', () => {
    const tree = decodeJson(schema, {
      'codec-types:entry': [
        { region: 'eu', id: 9, weight: 1 },
        { region: 'us', id: 10, weight: 1 },
        { region: 'eu', id: 10, weight: 1 },
      ],
      'codec-types:types': { tags: ['a', 'c', 'b'] },
    });
    const out = JSON.parse(encodeJson(tree, { sortSystemOrdered: 'descending' }));
    expect(out['codec-types:entry'].map((e: { region: string; id: number }) => `${e.region}${e.id}`)).toEqual(
      ['us10', 'eu10', 'eu9'],
    );
    expect(out['codec-types:types'].tags).toEqual(['c', 'b', 'a']);
  });

  test('keeps document order without sorting', () => {
    const tree = decodeJson(schema, { 'codec-types:types': { tags: ['b', 'a'] } });
    expect(JSON.parse(encodeJson(tree))['codec-types:types'].tags).toEqual(['b', 'a']);
  });

  test('leaves metadata out when metadata is off', () => {
    const tree = decodeJson(schema, {
      'codec-types:settings': { mode: 'x', '@mode': { 'ietf-netconf-with-defaults:default': true } },
    });
    expect(encodeJson(tree, { metadata: false })).toBe('{"codec-types:settings":{"mode":"x"}}');
    expect(encodeJson(tree)).toBe(
      '{"codec-types:settings":{"mode":"x","@mode":{"ietf-netconf-with-defaults:default":true}}}',
    );
  });

  test('names rpc parameters after the operation when asked (NETCONF form)', () => {
    const tree = decodeJson(
      schema,
      { 'codec-types:input': { host: 'h' } },
      { kind: 'rpc-input', operation: 'codec-types:ping' },
    );
    expect(encodeXml(tree, { operationElement: true })).toBe(
      '<ping xmlns="urn:example:codec-types"><host>h</host></ping>',
    );
    expect(encodeXml(tree)).toBe('<input xmlns="urn:example:codec-types"><host>h</host></input>');
  });

  test('indents JSON like JSON.stringify with the given width', () => {
    const tree = decodeJson(schema, { 'codec-types:types': { u8: 1, tags: ['a'] } });
    expect(encodeJson(tree, { indent: 4 })).toBe(JSON.stringify(JSON.parse(encodeJson(tree)), null, 4));
  });

  test('leaves module names out with simple names', () => {
    const tree = decodeJson(schema, { 'codec-types:types': { 'codec-aug:extra-leaf': 'x' } });
    expect(encodeJson(tree, { simpleNames: true })).toBe('{"types":{"extra-leaf":"x"}}');
    expect(encodeJson(tree)).toBe('{"codec-types:types":{"codec-aug:extra-leaf":"x"}}');
  });

  test('reads bare member names with simpleNames', () => {
    const tree = decodeJson(schema, { types: { 'extra-leaf': 'x' } }, { simpleNames: true });
    expect(encodeJson(tree)).toBe('{"codec-types:types":{"codec-aug:extra-leaf":"x"}}');
  });
  test('wraps several instances of a resource in one XML data element, and leaves JSON as it is', () => {
    const library = schema.find('/example-jukebox:jukebox/library')!;
    const tree = decodeJson(
      schema,
      { 'example-jukebox:artist': [{ name: 'A' }, { name: 'B' }] },
      { kind: 'resource', parent: library },
    );
    expect(encodeXml(tree, { wrapper: true })).toBe(
      '<data xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><artist xmlns="http://example.com/ns/example-jukebox"><name>A</name></artist><artist xmlns="http://example.com/ns/example-jukebox"><name>B</name></artist></data>',
    );
    expect(encodeJson(tree, { wrapper: true })).toBe(
      '{"example-jukebox:artist":[{"name":"A"},{"name":"B"}]}',
    );
  });
});
