import type { SchemaTree } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath } from '@yangkit/yang-xpath';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyContent,
  decodeJson,
  encodeJson,
  type FilterElement,
  findPath,
  finishSteps,
  type InstanceTree,
  overlayTree,
  type Steps,
  selectSubtree,
  selectSubtreeSteps,
  selectXPath,
  selectXPathSteps,
} from '../src/index';
import { sampleTop, steps, topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await treeSchema();
});

const TT = 'urn:example:tree-test';
const el = (
  name: string,
  children: FilterElement[] | string = [],
  namespace: string | undefined = TT,
): FilterElement => ({
  name,
  namespace,
  text: typeof children === 'string' ? children : '',
  children: typeof children === 'string' ? [] : children,
});
const json = (tree: Parameters<typeof encodeJson>[0]) => JSON.parse(encodeJson(tree));

const sample = () => sampleTop(schema);

/** A subtree selection run to its end step by step. */
function stepBySteps(tree: InstanceTree, filter: readonly FilterElement[]): InstanceTree {
  return finishSteps(selectSubtreeSteps(tree, filter));
}

describe.each([
  ['selectSubtree', selectSubtree],
  ['selectSubtreeSteps', stepBySteps],
])('%s', (_, selectSubtree) => {
  test('a selection node selects its whole subtree', () => {
    expect(json(selectSubtree(sample(), [el('top', [el('words')])]))).toEqual({
      'tree-test:top': { words: ['w1', 'w2'] },
    });
  });

  test('a content match on the key selects one entry, with its keys and the selected children', () => {
    const out = selectSubtree(sample(), [el('top', [el('item', [el('name', 'b'), el('size')])])]);
    expect(json(out)).toEqual({ 'tree-test:top': { item: [{ name: 'b', size: 2 }] } });
  });

  test('the copies of the selected entry and its ancestors hold their selection in themselves', () => {
    const s = steps(schema);
    const out = selectSubtree(sample(), [el('top', [el('item', [el('name', 'b'), el('size')])])]);
    const top = findPath(out, [s.top])!;
    const entry = findPath(out, [s.top, s.item('b')])!;
    expect(top.children).toBe(top);
    expect(entry.children).toBe(entry);
  });

  test('an entry whose content match fails is left out', () => {
    const out = selectSubtree(sample(), [el('top', [el('item', [el('size', '2'), el('tags')])])]);
    expect(json(out)).toEqual({ 'tree-test:top': { item: [{ name: 'b', size: 2 }] } });
  });

  test('an element without namespace matches a node of any module', () => {
    const out = selectSubtree(sample(), [el('top', [el('words', [], undefined)], undefined)]);
    expect(json(out)).toEqual({ 'tree-test:top': { words: ['w1', 'w2'] } });
  });

  test('the selection shares the selected subtree with the source', () => {
    const tree = sample();
    const s = steps(schema);
    const out = selectSubtree(tree, [el('top', [el('item', [el('name', 'a')])])]);
    expect(findPath(out, [s.top, s.item('a')])).toBe(findPath(tree, [s.top, s.item('a')]));
  });
});

/** Runs `steps` to its end: its result and how many times it yielded. */
function stepped(steps: Steps<InstanceTree>): { value: InstanceTree; yields: number } {
  let yields = 0;
  let next = steps.next();
  for (; next.done !== true; next = steps.next()) yields++;
  return { value: next.value, yields };
}

describe('steps over a big list', () => {
  /** A top holding `count` items, each with a size. */
  const bigTop = (count: number) =>
    topDoc(schema, { item: Array.from({ length: count }, (_, i) => ({ name: `i${i}`, size: i % 7 })) });

  test.each([
    ['a selection node', [el('top', [el('item')])]],
    ['a content match scanning every entry', [el('top', [el('item', [el('size', '3'), el('name')])])]],
  ])('%s over a big list yields between steps and gives the selection of selectSubtree', (_, filter) => {
    const tree = bigTop(5_000);
    const { value, yields } = stepped(selectSubtreeSteps(tree, filter));
    expect(yields).toBeGreaterThan(5_000 / 64);
    expect(json(value)).toEqual(json(selectSubtree(tree, filter)));
  });

  test('an XPath selection of a big list yields between steps and gives the selection of selectXPath', () => {
    const tree = bigTop(5_000);
    const expr = compileXPath('/t:top/t:item', { prefixes: { t: TT } });
    const { value, yields } = stepped(selectXPathSteps(tree, expr));
    expect(yields).toBeGreaterThan(5_000 / 64);
    expect(json(value)).toEqual(json(selectXPath(tree, expr)));
  });

  test.each([
    ['a predicate tested on every entry', '/t:top/t:item[t:size > 6]'],
    ['a descendant walk', '//t:size[. = 7]'],
  ])('an XPath expression with %s is evaluated in steps, even when it selects nothing', (_, xpath) => {
    const tree = bigTop(5_000);
    const expr = compileXPath(xpath, { prefixes: { t: TT } });
    const { value, yields } = stepped(selectXPathSteps(tree, expr));
    expect(yields).toBeGreaterThan(5_000 / 64);
    expect(json(value)).toEqual({});
  });
});

describe.each([
  ['selectXPath', selectXPath],
  [
    'selectXPathSteps',
    (tree: InstanceTree, expr: CompiledXPath, options?: { maxWork?: number }) =>
      finishSteps(selectXPathSteps(tree, expr, options)),
  ],
])('%s', (_, selectXPath) => {
  test('selected nodes come with their ancestors and list keys', () => {
    const expr = compileXPath("/t:top/t:item[t:name='b']/t:part/t:note", { prefixes: { t: TT } });
    expect(json(selectXPath(sample(), expr))).toEqual({
      'tree-test:top': { item: [{ name: 'b', part: [{ a: 'p', b: 1, note: 'n' }] }] },
    });
  });

  test('an expression that selects the document selects everything', () => {
    const tree = sample();
    expect(selectXPath(tree, compileXPath('/'))).toBe(tree);
  });

  test('an evaluation past maxWork throws WORK_LIMIT; within it, selects as without it', () => {
    const every = compileXPath('//t:item[count(//t:note) > 0]', { prefixes: { t: TT } });
    expect(() => selectXPath(sample(), every, { maxWork: 10 })).toThrow(
      expect.objectContaining({ code: 'WORK_LIMIT' }),
    );
    const unbounded = json(selectXPath(sample(), every));
    expect(json(selectXPath(sample(), every, { maxWork: 10_000 }))).toEqual(unbounded);
  });
});

describe('overlayTree', () => {
  test('merges state into a copy of the path and shares the rest', () => {
    const base = sample();
    const extra = topDoc(schema, { item: [{ name: 'b', size: 9 }, { name: 'c' }] });
    const view = overlayTree(base, extra);
    const s = steps(schema);
    expect(
      json(view)['tree-test:top'].item.map((i: { name: string; size?: number }) => [i.name, i.size]),
    ).toEqual([
      ['a', 1],
      ['b', 9],
      ['c', undefined],
    ]);
    expect(findPath(view, [s.top, s.item('a')])).toBe(findPath(base, [s.top, s.item('a')]));
    expect(json(base)['tree-test:top'].item).toHaveLength(2);
  });
});

describe('applyContent', () => {
  test('config keeps configuration and nonconfig keeps state with the ancestors that lead to it', async () => {
    const { loadSchema } = await import('@yangkit/yang-schema');
    const s = await loadSchema({
      texts: [
        `module mixed { namespace "urn:mixed"; prefix m;
          container c { leaf a { type string; } leaf s { type string; config false; }
            list l { key k; leaf k { type string; } leaf v { type string; } leaf st { type uint8; config false; } } } }`,
      ],
      modules: ['mixed'],
    });
    const doc = () =>
      decodeJson(s, { 'mixed:c': { a: 'x', s: 'y', l: [{ k: 'one', v: 'v', st: 1 }, { k: 'two' }] } });
    expect(json(applyContent(doc(), 'config'))).toEqual({
      'mixed:c': { a: 'x', l: [{ k: 'one', v: 'v' }, { k: 'two' }] },
    });
    expect(json(applyContent(doc(), 'nonconfig'))).toEqual({
      'mixed:c': { s: 'y', l: [{ k: 'one', st: 1 }] },
    });
  });
});
