import { readXml, type XmlElement } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  isCombinable,
  NETCONF_BASE_NS,
  parseYangPatch,
  planPatch,
  toEditConfig,
  YANG_XML_NS,
} from '../src/index.js';
import { ALBUM, jsonPatch, jukeboxSchema, patchError } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await jukeboxSchema();
});

const PLAYLIST = '/example-jukebox:jukebox/playlist=Foo-One';
const song = (name: string) => ({ 'example-jukebox:song': [{ name, location: `/media/${name}.mp3` }] });

function plan(edits: Record<string, unknown>[], target?: string) {
  return planPatch(
    parseYangPatch(schema, jsonPatch(edits), { encoding: 'json', ...(target ? { target } : {}) }),
  );
}

/** The element the operation attribute sits on, read back with the codec's XML reader. */
function operated(config: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (e: XmlElement) => {
    if (e.attributes.some((a) => a.ns === NETCONF_BASE_NS && a.local === 'operation')) found.push(e);
    for (const c of e.children) if (typeof c !== 'string') visit(c);
  };
  for (const e of readXml(config)) visit(e);
  return found;
}

const attr = (e: XmlElement, ns: string, local: string) =>
  e.attributes.find((a) => a.ns === ns && a.local === local)?.value;

describe('toEditConfig', () => {
  test('wraps the edited node in its ancestors with their list keys', () => {
    const { documents } = toEditConfig(
      schema,
      plan([{ 'edit-id': 'd', operation: 'delete', target: '/song=Rope' }], ALBUM),
    );
    expect(documents[0]!.config).toBe(
      `<config xmlns="${NETCONF_BASE_NS}" xmlns:nc="${NETCONF_BASE_NS}" xmlns:yang="${YANG_XML_NS}">` +
        '<jukebox xmlns="http://example.com/ns/example-jukebox"><library><artist><name>Foo Fighters</name>' +
        '<album><name>Wasting Light</name><song nc:operation="delete"><name>Rope</name></song></album></artist></library></jukebox></config>',
    );
  });

  test('carries each RFC 6241 operation on the edited node', () => {
    for (const operation of ['create', 'merge', 'replace'] as const) {
      const { documents } = toEditConfig(
        schema,
        plan([{ 'edit-id': 'e', operation, target: '/song=R', value: song('R') }], ALBUM),
      );
      const [e] = operated(documents[0]!.config);
      expect(attr(e!, NETCONF_BASE_NS, 'operation')).toBe(operation);
      expect(e!.local).toBe('song');
    }
  });

  test('maps remove to nc:operation remove', () => {
    const { documents } = toEditConfig(
      schema,
      plan([{ 'edit-id': 'r', operation: 'remove', target: '/song=R' }], ALBUM),
    );
    expect(attr(operated(documents[0]!.config)[0]!, NETCONF_BASE_NS, 'operation')).toBe('remove');
  });

  test('combines edits of separate nodes into one document', () => {
    const result = toEditConfig(
      schema,
      plan(
        [
          { 'edit-id': 'a', operation: 'create', target: '/song=A', value: song('A') },
          { 'edit-id': 'b', operation: 'delete', target: '/song=B' },
        ],
        ALBUM,
      ),
    );
    expect(result.combined).toBe(true);
    expect(result.documents).toHaveLength(1);
    expect(result.documents[0]!.editIds).toEqual(['a', 'b']);
    expect(operated(result.documents[0]!.config).map((e) => attr(e, NETCONF_BASE_NS, 'operation'))).toEqual([
      'create',
      'delete',
    ]);
  });

  test('keeps one document per edit when two edits touch the same node', () => {
    const result = toEditConfig(
      schema,
      plan(
        [
          { 'edit-id': 'a', operation: 'delete', target: '/song=A' },
          { 'edit-id': 'b', operation: 'create', target: '/song=A', value: song('A') },
        ],
        ALBUM,
      ),
    );
    expect(result.combined).toBe(false);
    expect(result.documents.map((d) => d.editIds)).toEqual([['a'], ['b']]);
  });

  test('keeps one document per edit when one target lies inside another', () => {
    const edits = [
      { 'edit-id': 'a', operation: 'merge', target: '/song=A', value: song('A') },
      { 'edit-id': 'b', operation: 'remove', target: '/song=A/format' },
    ];
    expect(toEditConfig(schema, plan(edits, ALBUM)).combined).toBe(false);
    expect(toEditConfig(schema, plan([...edits].reverse(), ALBUM)).combined).toBe(false);
  });

  test('keeps one document per edit when a whole list and one of its entries are both edited', () => {
    const edits = [
      { 'edit-id': 'a', operation: 'create', target: '/song=A', value: song('A') },
      { 'edit-id': 'b', operation: 'remove', target: '/song' },
    ];
    expect(isCombinable(plan(edits, ALBUM).edits)).toBe(false);
  });

  test('keeps one document per edit when a move is placed relative to an inserted entry', () => {
    const id =
      "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Bridge Burning']";
    const result = toEditConfig(
      schema,
      plan(
        [
          {
            'edit-id': 'a',
            operation: 'insert',
            target: '/song=9',
            where: 'first',
            value: { 'example-jukebox:song': [{ index: 9, id }] },
          },
          { 'edit-id': 'b', operation: 'move', target: '/song=1', where: 'after', point: '/song=9' },
        ],
        PLAYLIST,
      ),
    );
    expect(result.combined).toBe(false);
  });

  test('writes per-edit documents when asked to', () => {
    const result = toEditConfig(
      schema,
      plan(
        [
          { 'edit-id': 'a', operation: 'remove', target: '/song=A' },
          { 'edit-id': 'b', operation: 'remove', target: '/song=B' },
        ],
        ALBUM,
      ),
      { mode: 'per-edit' },
    );
    expect(result.documents).toHaveLength(2);
  });

  test('writes a move as a merge with yang:insert and yang:key (RFC 7950 7.8.6)', () => {
    const { documents } = toEditConfig(
      schema,
      plan(
        [{ 'edit-id': 'm', operation: 'move', target: '/song=1', where: 'before', point: '/song=3' }],
        PLAYLIST,
      ),
    );
    const [e] = operated(documents[0]!.config);
    expect(attr(e!, NETCONF_BASE_NS, 'operation')).toBe('merge');
    expect(attr(e!, YANG_XML_NS, 'insert')).toBe('before');
    expect(attr(e!, YANG_XML_NS, 'key')).toBe("[jbox:index='3']");
    expect(e!.scope.lookup('jbox')).toBe('http://example.com/ns/example-jukebox');
  });

  test('writes a leaf-list move with yang:value', () => {
    const { documents } = toEditConfig(
      schema,
      plan([
        {
          'edit-id': 'm',
          operation: 'move',
          target: '/patch-test:settings/dns=b',
          where: 'after',
          point: '/patch-test:settings/dns=c',
        },
      ]),
    );
    const [e] = operated(documents[0]!.config);
    expect(documents[0]!.config).toContain(
      '<dns nc:operation="merge" yang:insert="after" yang:value="c">b</dns>',
    );
    expect(e!.local).toBe('dns');
  });

  test('writes a move to the first position without a key', () => {
    const { documents } = toEditConfig(
      schema,
      plan([{ 'edit-id': 'm', operation: 'move', target: '/song=2', where: 'first' }], PLAYLIST),
    );
    const [e] = operated(documents[0]!.config);
    expect(attr(e!, YANG_XML_NS, 'insert')).toBe('first');
    expect(attr(e!, YANG_XML_NS, 'key')).toBeUndefined();
  });

  test('declares the module prefix of an identityref key', () => {
    const { documents } = toEditConfig(
      schema,
      plan([{ 'edit-id': 'd', operation: 'delete', target: '/patch-test:palette=patch-test%3Ared' }]),
    );
    const [e] = operated(documents[0]!.config);
    const key = e!.children.find((c): c is XmlElement => typeof c !== 'string')!;
    expect(key.scope.lookup('patch-test')).toBe('urn:yangkit:test:patch');
  });

  test('splits a merge of the datastore into one edit per top-level node', () => {
    const result = toEditConfig(
      schema,
      plan([
        {
          'edit-id': 'e',
          operation: 'merge',
          target: '/',
          value: {
            'example-jukebox:jukebox': { player: { gap: '0.5' } },
            'patch-test:settings': { mode: 'x' },
          },
        },
      ]),
    );
    expect(result.documents).toHaveLength(1);
    expect(operated(result.documents[0]!.config).map((e) => e.local)).toEqual(['jukebox', 'settings']);
  });

  test('refuses to delete every entry of a list it cannot name', () => {
    const e = patchError(() =>
      toEditConfig(schema, plan([{ 'edit-id': 'all', operation: 'delete', target: '/song' }], ALBUM)),
    );
    expect(e).toMatchObject({ code: 'NOT_REPRESENTABLE', editId: 'all' });
  });

  test('escapes key values in text', () => {
    const { documents } = toEditConfig(
      schema,
      plan([{ 'edit-id': 'd', operation: 'delete', target: '/song=a%3Cb%26c' }], ALBUM),
    );
    expect(documents[0]!.config).toContain('<name>a&lt;b&amp;c</name>');
    expect(() => readXml(documents[0]!.config)).not.toThrow();
  });
});
