import { setFlagsFromString } from 'node:v8';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { encodeJson, findPath, holdsNoState, selectPath } from '../src/index';
import { sampleTop, steps, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await treeSchema();
});

const json = (tree: Parameters<typeof encodeJson>[0]) => JSON.parse(encodeJson(tree));

const sample = () => sampleTop(schema);

/** V8's `%HaveSameMap`: whether two objects have one hidden class (map). */
function sameMapCheck(): (a: object, b: object) => boolean {
  setFlagsFromString('--allow-natives-syntax');
  try {
    return new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  } finally {
    setFlagsFromString('--no-allow-natives-syntax');
  }
}

describe('selectPath', () => {
  test('a keyed path gives the entry whole inside its ancestors', () => {
    const s = steps(schema);
    expect(json(selectPath(sample(), [s.top, s.item('b')]))).toEqual({
      'tree-test:top': { item: [{ name: 'b', size: 2, part: [{ a: 'p', b: 1, note: 'n' }] }] },
    });
  });

  test('a leaf below an entry comes with the keys of the entry', () => {
    const s = steps(schema);
    expect(json(selectPath(sample(), [s.top, s.item('a'), s.size]))).toEqual({
      'tree-test:top': { item: [{ name: 'a', size: 1 }] },
    });
  });

  test('the selection shares no node with the source', () => {
    const tree = sample();
    const s = steps(schema);
    const out = selectPath(tree, [s.top, s.item('a')]);
    const copy = findPath(out, [s.top, s.item('a'), s.size])!;
    expect(copy).not.toBe(findPath(tree, [s.top, s.item('a'), s.size]));
    copy.value = '7';
    expect(findPath(tree, [s.top, s.item('a'), s.size])!.value).toBe('1');
  });

  test('a shared selection holds the instances of the source inside copies of their ancestors', () => {
    const tree = sample();
    const s = steps(schema);
    const out = selectPath(tree, [s.top, s.item('a')], true);
    expect(findPath(out, [s.top, s.item('a')])).toBe(findPath(tree, [s.top, s.item('a')]));
    expect(findPath(out, [s.top])).not.toBe(findPath(tree, [s.top]));
    expect(json(out)).toEqual(json(selectPath(tree, [s.top, s.item('a')])));
  });

  test('the copy of an ancestor on the path holds its keys and the selection in itself', () => {
    const tree = sample();
    const s = steps(schema);
    const out = selectPath(tree, [s.top, s.item('a'), s.size]);
    const top = findPath(out, [s.top])!;
    const entry = findPath(out, [s.top, s.item('a')])!;
    expect(top.children).toBe(top);
    expect(entry.children).toBe(entry);
    expect(json(out)).toEqual({ 'tree-test:top': { item: [{ name: 'a', size: 1 }] } });
  });

  test('the copies of the ancestors of two selections share one hidden class with the nodes of the tree', () => {
    // A copy spread from its node had a map of its own: V8 made one for each read, in the old generation.
    const sameMap = sameMapCheck();
    const tree = sample();
    const s = steps(schema);
    const first = findPath(selectPath(tree, [s.top, s.item('a')], true), [s.top])!;
    const second = findPath(selectPath(tree, [s.top, s.item('b')], true), [s.top])!;
    expect(sameMap(first, second)).toBe(true);
    expect(sameMap(first, findPath(tree, [s.top])!)).toBe(true);
  });

  test("a shared selection of a whole list holds the source's own array of its entries", () => {
    const tree = sample();
    const s = steps(schema);
    const list = s.items.schema;
    const out = selectPath(tree, [s.top, s.items], true);
    // The same array, so its index of keys serves lookups in the selection too.
    expect(findPath(out, [s.top])!.children!.get(list)).toBe(findPath(tree, [s.top])!.children!.get(list));
    expect(json(out)).toEqual(json(selectPath(tree, [s.top, s.items])));
  });

  test('an entry named by its keys is selected with them when the rest of the path is missing', () => {
    const s = steps(schema);
    expect(json(selectPath(sample(), [s.top, s.item('b'), s.tag('x')]))).toEqual({
      'tree-test:top': { item: [{ name: 'b' }] },
    });
  });

  test('a path through a missing entry selects nothing', () => {
    const s = steps(schema);
    expect(selectPath(sample(), [s.top, s.item('zz'), s.size]).children.size).toBe(0);
  });

  test('a step without keys goes through the entries that lead to the node', () => {
    const s = steps(schema);
    expect(json(selectPath(sample(), [s.top, s.items, s.tag('x')]))).toEqual({
      'tree-test:top': { item: [{ name: 'a', tags: ['x'] }] },
    });
  });

  test('an empty path copies the whole tree', () => {
    const tree = sample();
    const out = selectPath(tree, []);
    expect(json(out)).toEqual(json(tree));
    expect(findPath(out, [steps(schema).top])).not.toBe(findPath(tree, [steps(schema).top]));
  });
});

describe('holdsNoState', () => {
  test('is true for configuration all the way down and false above state', async () => {
    const mixed = await loadSchema({
      texts: [
        `module mixed { namespace "urn:mixed"; prefix m;
          container box { container settings { leaf a { type string; } }
            list l { key k; leaf k { type string; } leaf st { type uint8; config false; } } } }`,
      ],
      modules: ['mixed'],
    });
    expect(holdsNoState(mixed.find('/mixed:box/settings')!)).toBe(true);
    expect(holdsNoState(mixed.find('/mixed:box/l')!)).toBe(false);
    expect(holdsNoState(mixed.find('/mixed:box')!)).toBe(false);
  });
});
