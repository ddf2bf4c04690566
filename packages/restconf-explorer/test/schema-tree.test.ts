import path from 'node:path';
import { toOpenApi } from '@yangkit/restconf-openapi';
import { loadSchema } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type ApiDocument,
  buildTree,
  fillTemplate,
  filterTree,
  inputSkeleton,
  jsonValue,
  leafSchema,
  type TreeNode,
  treeLine,
} from '../app/src/schema-tree';

let doc: ApiDocument;
let tree: { data: TreeNode[]; operations: TreeNode[] };
beforeAll(async () => {
  const schema = await loadSchema({
    paths: [path.resolve(__dirname, '../../../yang/examples')],
    modules: ['example-jukebox', 'example-ops', 'example-actions', 'ietf-restconf', 'ietf-yang-patch'],
  });
  doc = toOpenApi(schema) as unknown as ApiDocument;
  tree = buildTree(doc);
});

const find = (nodes: readonly TreeNode[], ...names: string[]): TreeNode => {
  let list = nodes;
  let node: TreeNode | undefined;
  for (const name of names) {
    node = list.find((n) => n.yang.name === name);
    if (node === undefined) throw new Error(`no ${name}`);
    list = node.children;
  }
  return node!;
};

describe('buildTree', () => {
  test('gives a list one node with the templates of one entry and of every entry', () => {
    const artist = find(tree.data, 'jukebox', 'library', 'artist');
    expect(artist.template).toBe('/data/example-jukebox:jukebox/library/artist={name}');
    expect(artist.listTemplate).toBe('/data/example-jukebox:jukebox/library/artist');
    expect(artist.params).toEqual(['name']);
    expect(find(artist.children, 'album').params).toEqual(['name', 'album-name']);
  });

  test('puts actions below their list entry and rpcs apart', () => {
    expect(find(tree.data, 'interfaces', 'interface', 'reset').yang.kind).toBe('action');
    expect(tree.operations.map((n) => n.yang.name)).toEqual(
      expect.arrayContaining(['play', 'reboot', 'get-reboot-info']),
    );
  });

  test('writes each node as its RFC 8340 tree diagram line', () => {
    expect(treeLine(find(tree.data, 'jukebox', 'library', 'artist'))).toBe('rw artist* [name]');
    expect(treeLine(find(tree.data, 'jukebox', 'library', 'artist-count'))).toBe('ro artist-count?   uint32');
  });

  test('knows which methods each node allows', () => {
    expect(find(tree.data, 'jukebox', 'library', 'artist-count').methods).toEqual(['GET']);
    expect(find(tree.data, 'jukebox', 'library', 'artist').methods).toEqual([
      'GET',
      'PUT',
      'POST',
      'PATCH',
      'DELETE',
    ]);
  });
});

test('filterTree keeps the matches and their ancestors', () => {
  const shown = filterTree(tree.data, 'album');
  expect(shown.has(find(tree.data, 'jukebox'))).toBe(true);
  expect(shown.has(find(tree.data, 'jukebox', 'library', 'artist', 'album'))).toBe(true);
  expect(shown.has(find(tree.data, 'jukebox', 'player'))).toBe(false);
});

test('fillTemplate percent-encodes key values, commas included', () => {
  expect(fillTemplate('/data/a:b/c={x},{y}', { x: 'Foo Fighters', y: 'a,b/c' })).toBe(
    '/data/a:b/c=Foo%20Fighters,a%2Cb%2Fc',
  );
});

test('jsonValue writes numbers, booleans and text as the leaf schema wants', () => {
  const year = leafSchema(doc, find(tree.data, 'jukebox', 'library', 'artist', 'album', 'year'));
  expect(jsonValue(year, '2012')).toBe(2012);
  expect(jsonValue(year, 'abc')).toBe('abc');
  expect(jsonValue({ type: 'boolean' }, 'true')).toBe(true);
  expect(jsonValue({ const: [null] }, '')).toEqual([null]);
  expect(jsonValue({ type: 'string' }, '42')).toBe('42');
});

test('inputSkeleton writes the input member of an operation with its leaves', () => {
  const reboot = tree.operations.find((n) => n.yang.name === 'reboot')!;
  expect(JSON.parse(inputSkeleton(doc, reboot)!)).toEqual({
    'example-ops:input': { delay: 0, message: '', language: '' },
  });
  expect(inputSkeleton(doc, tree.operations.find((n) => n.yang.name === 'get-reboot-info')!)).toBeUndefined();
});

test('treeLine names the module of a top-level node when asked', () => {
  expect(treeLine(find(tree.data, 'jukebox'), true)).toBe('rw example-jukebox:jukebox!');
});
