import { parseFields } from '@yangkit/restconf-uri';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyDepth,
  applyFields,
  applyWithDefaults,
  CompactChildMap,
  cloneNode,
  createNode,
  decodeJson,
  encodeJson,
  encodeXml,
} from '../src/index';
import { codecError, testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
}, 60_000);

const jukebox = {
  'example-jukebox:jukebox': {
    library: {
      artist: [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
      'artist-count': 42,
    },
    playlist: [
      {
        name: 'Foo-One',
        description: 'example playlist 1',
        song: [{ index: 1, id: '/example-jukebox:jukebox' }],
      },
    ],
    player: { gap: '0.5' },
  },
};

const json = (tree: Parameters<typeof encodeJson>[0]) => JSON.parse(encodeJson(tree));
const resource = () => decodeJson(schema, jukebox, { kind: 'resource' });

describe('applyDepth', () => {
  test('keeps only the target as an empty node at depth 1 (RFC 8040 B.3.2)', () => {
    expect(json(applyDepth(resource(), 1))).toEqual({ 'example-jukebox:jukebox': {} });
  });

  test('keeps containers and entries at the last level as empty nodes (RFC 8040 B.3.2 depth=3)', () => {
    expect(json(applyDepth(resource(), 3))).toEqual({
      'example-jukebox:jukebox': {
        library: { artist: [{}], 'artist-count': 42 },
        playlist: [{ name: 'Foo-One', description: 'example playlist 1', song: [{}] }],
        player: { gap: '0.5' },
      },
    });
  });

  test('writes truncated containers even when empty containers are otherwise left out', () => {
    const out = JSON.parse(encodeJson(applyDepth(resource(), 2), { returnEmptyNpContainers: false }));
    expect(out).toEqual({ 'example-jukebox:jukebox': { library: {}, playlist: [{}], player: {} } });
  });

  test('writes truncated nodes as empty elements in XML', () => {
    const xml = encodeXml(applyDepth(resource(), 2), { returnEmptyNpContainers: false });
    expect(xml).toContain('<library/>');
    expect(xml).toContain('<player/>');
  });

  test('counts the datastore as level 1 for a data document', () => {
    const tree = decodeJson(schema, jukebox);
    expect(json(applyDepth(tree, 1))).toEqual({});
  });

  test('changes nothing when unbounded', () => {
    expect(json(applyDepth(resource(), 'unbounded'))).toEqual(json(resource()));
  });
});

describe('applyFields', () => {
  test('applies a selection already parsed by restconf-uri', () => {
    expect(json(applyFields(resource(), parseFields('library(artist/name);player/gap')))).toEqual(
      json(applyFields(resource(), 'library(artist/name);player/gap')),
    );
  });

  test('keeps only the selected descendants of the target', () => {
    expect(json(applyFields(resource(), 'library(artist/name);player/gap'))).toEqual({
      'example-jukebox:jukebox': { library: { artist: [{ name: 'Foo Fighters' }] }, player: { gap: '0.5' } },
    });
  });

  test('accepts module-qualified names', () => {
    const tree = decodeJson(schema, jukebox);
    expect(Object.keys(json(applyFields(tree, 'example-jukebox:jukebox/player')))).toEqual([
      'example-jukebox:jukebox',
    ]);
  });

  test('keeps the key leafs of a target list entry (RFC 8040 section 4.8.3)', () => {
    const top = [...decodeJson(schema, jukebox).children.keys()][0]!;
    const library = top.dataChild('example-jukebox', 'library')!;
    const entry = decodeJson(
      schema,
      {
        'example-jukebox:artist': [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
      },
      { kind: 'resource', parent: library },
    );
    expect(json(applyFields(entry, 'album/year'))).toEqual({
      'example-jukebox:artist': [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
    });
  });

  test('keeps the key leafs of list entries on the way to a selected node', () => {
    expect(json(applyFields(resource(), 'library/artist/album/year;playlist/description'))).toEqual({
      'example-jukebox:jukebox': {
        library: { artist: [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }] },
        playlist: [{ name: 'Foo-One', description: 'example playlist 1' }],
      },
    });
  });

  test('drops non-key leafs of a list entry that are not selected', () => {
    expect(json(applyFields(resource(), 'playlist/song/index'))).toEqual({
      'example-jukebox:jukebox': { playlist: [{ name: 'Foo-One', song: [{ index: 1 }] }] },
    });
  });

  test('rejects a malformed expression', () => {
    expect(codecError(() => applyFields(resource(), 'a(b')).code).toBe('BAD_OPTION');
    expect(codecError(() => applyFields(resource(), 'a;;b')).code).toBe('BAD_OPTION');
  });
});

describe('applyWithDefaults', () => {
  const settings = () => decodeJson(schema, { 'codec-types:settings': { mode: 'auto', retries: 5 } });

  test('trim removes values equal to their default', () => {
    expect(json(applyWithDefaults(settings(), 'trim'))).toEqual({ 'codec-types:settings': { retries: 5 } });
  });

  test('report-all adds defaults, through non-presence containers and the default case', () => {
    expect(json(applyWithDefaults(settings(), 'report-all'))).toEqual({
      'codec-types:settings': { mode: 'auto', retries: 5, timers: { hello: 10 }, 'tcp-port': 830 },
    });
  });

  test('a non-presence container report-all adds holds its defaults in itself', () => {
    const out = applyWithDefaults(settings(), 'report-all');
    const top = [...out.children.values()][0]![0]!;
    const timers = [...top.children!.entries()].find(([s]) => s.name === 'timers')![1][0]!;
    expect(timers.children).toBe(timers);
    expect(timers.children!.size).toBe(1);
  });

  test('report-all follows the selected case instead of the default one', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { 'tls-port': 6513 } });
    const out = json(applyWithDefaults(tree, 'report-all'))['codec-types:settings'];
    expect(out['tcp-port']).toBeUndefined();
    expect(out['tls-port']).toBe(6513);
  });

  test('report-all-tagged marks default values with the with-defaults annotation', () => {
    const out = json(applyWithDefaults(settings(), 'report-all-tagged'))['codec-types:settings'];
    expect(out['@mode']).toEqual({ 'ietf-netconf-with-defaults:default': true });
    expect(out['@retries']).toBeUndefined();
    expect(out.timers['@hello']).toEqual({ 'ietf-netconf-with-defaults:default': true });
  });

  test('explicit leaves the tree as it is', () => {
    expect(json(applyWithDefaults(settings(), 'explicit'))).toEqual(json(settings()));
  });
});

describe('createNode and cloneNode', () => {
  test('a node reads member, any and annotations as undefined until set, and a copy keeps what was set', () => {
    const leaf = schema.find('/example-jukebox:jukebox/player/gap')!;
    const node = createNode(leaf, undefined);
    expect([node.value, node.member, node.any, node.annotations, node.children]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    node.value = '0.5';
    node.annotations = [{ module: 'ietf-origin', name: 'origin', value: 'or:intended' }];
    const copy = cloneNode(node, undefined);
    expect([copy.value, copy.member, copy.annotations]).toEqual(['0.5', undefined, node.annotations]);
    expect(copy.annotations).not.toBe(node.annotations);
    expect(createNode(leaf, undefined).annotations).toBeUndefined();
  });

  test('an inner node is its own children map until another map is assigned to it', () => {
    const player = schema.find('/example-jukebox:jukebox/player')!;
    const gap = schema.find('/example-jukebox:jukebox/player/gap')!;
    const node = createNode(player, undefined);
    expect(node.children).toBe(node);
    expect(node.children).toBeInstanceOf(CompactChildMap);
    const leaf = createNode(gap, node);
    leaf.value = '0.5';
    node.children!.set(gap, [leaf]);
    expect([...node.children!.keys()]).toEqual([gap]);
    // A copy holds copies of the children, in itself too.
    const copy = cloneNode(node, undefined);
    expect(copy.children).toBe(copy);
    const copied = copy.children!.get(gap)![0]!;
    expect(copied).not.toBe(leaf);
    expect([copied.value, copied.parent]).toEqual(['0.5', copy]);
    // A decoded tree's inner nodes are their own maps too.
    const jukebox = [...resource().children.values()][0]![0]!;
    expect(jukebox.children).toBe(jukebox);
    // A map assigned is read from then on; the node's own pairs are left aside.
    const other = new CompactChildMap();
    node.children = other;
    expect(node.children).toBe(other);
    expect(node.children.size).toBe(0);
    expect(json({ ...resource(), children: new CompactChildMap([[player, [node]]]) })).toEqual({
      'example-jukebox:player': {},
    });
  });
});
