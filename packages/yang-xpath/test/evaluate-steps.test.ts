import type { Steps } from '@yangkit/xml';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Axis } from '../src/ast.js';
import {
  compileXPath,
  createEvaluationCache,
  UNITS_PER_STEP,
  type XmlNode,
  type XPathNavigator,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';
import { keyIndexNavigator } from './key-index-navigator.js';
import { buildTree, pathArb, shapeArb } from './random-trees.js';

/** Runs an evaluation in steps to its end: its result and how many times it yielded. */
function finish<T>(steps: Steps<T>): { result: T; yields: number } {
  let yields = 0;
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done === true) return { result: next.value, yields };
    yields++;
  }
}

/** Expects two node-sets to hold the same nodes (by identity) in the same order. */
function expectSameNodes(actual: readonly XmlNode[], expected: readonly XmlNode[]): void {
  expect(actual).toHaveLength(expected.length);
  const differing = actual.findIndex((n, i) => n !== expected[i]);
  expect(differing).toBe(-1);
}

/** The node-set of `expression` from `context` in one turn and in steps, with the yields counted. */
function both(expression: string, context: XmlNode, nav: XPathNavigator<XmlNode> = xmlNavigator) {
  const compiled = compileXPath(expression, { variables: { v: 'b' } });
  const { result, yields } = finish(compiled.evaluateNodesSteps(context, nav));
  return { once: compiled.evaluateNodes(context, nav), inSteps: result, yields };
}

const plainNavigator: XPathNavigator<XmlNode> = { ...xmlNavigator };
delete (plainNavigator as { childrenNamed?: unknown }).childrenNamed;

// a list of 100 entries of 4 leaves each: 500 elements below `list`
const entries = Array.from({ length: 100 }, (_, i) =>
  xmlElement(
    'e',
    '',
    Array.from({ length: 4 }, (_, j) => xmlElement(j === 0 ? 'k' : 'x', '', `${i}.${j}`)),
    { n: String(i) },
  ),
);
const tree = xmlDocument([xmlElement('list', '', entries)]);
const middle = entries[50]!;
const leafInMiddle = middle.children[2]!;

describe('evaluateNodesSteps', () => {
  // each axis from a node where it holds more nodes than a step's units
  const wideAxes: [Axis, XmlNode][] = [
    ['child', tree.children[0]!],
    ['descendant', tree],
    ['descendant-or-self', tree],
    ['following', leafInMiddle],
    ['preceding', leafInMiddle],
    ['following-sibling', entries[0]!],
    ['preceding-sibling', entries[99]!],
  ];
  test.each(wideAxes)('walks the %s axis in steps, selecting what evaluateNodes does', (axis, context) => {
    const { once, inSteps, yields } = both(`${axis}::node()`, context);
    expect(once.length).toBeGreaterThan(UNITS_PER_STEP);
    expectSameNodes(inSteps, once);
    expect(yields).toBeGreaterThanOrEqual(Math.floor(once.length / UNITS_PER_STEP));
  });

  const shortAxes: [Axis, XmlNode][] = [
    ['self', middle],
    ['parent', leafInMiddle],
    ['ancestor', leafInMiddle],
    ['ancestor-or-self', leafInMiddle],
    ['attribute', middle],
    ['namespace', middle],
  ];
  test.each(shortAxes)('selects on the %s axis what evaluateNodes does', (axis, context) => {
    const { once, inSteps } = both(`${axis}::node()`, context);
    expectSameNodes(inSteps, once);
  });

  test('counts positions on reverse axes nearest first, in steps as in one turn', () => {
    const key = middle.children[0]!;
    const cases: [string, string | undefined][] = [
      ['preceding::*[1]', '49.3'],
      ['preceding::*[5]/@n', '49'],
      ['preceding-sibling::*[1]', undefined],
      ['ancestor::*[1]/@n', '50'],
      ['following::*[1]', '50.1'],
    ];
    for (const [expression, value] of cases) {
      const { once, inSteps } = both(expression, key);
      expectSameNodes(inSteps, once);
      expect(once.map((n) => n.value)).toEqual(value === undefined ? [] : [value]);
    }
  });

  test('yields along a descendant axis that selects nothing, node by node rather than at its end', () => {
    const { once, inSteps, yields } = both('//nothing', tree);
    expect(once).toEqual([]);
    expect(inSteps).toEqual([]);
    expect(yields).toBeGreaterThanOrEqual(Math.floor(500 / UNITS_PER_STEP));
  });

  test('yields between the context nodes of a step and between the nodes a predicate tests', () => {
    const { once, inSteps, yields } = both("/list/e/x[contains(., '.3')]", tree);
    expect(once).toHaveLength(100);
    expectSameNodes(inSteps, once);
    // 100 entries' children visited, then 300 leaves tested
    expect(yields).toBeGreaterThanOrEqual(Math.floor((400 + 300) / UNITS_PER_STEP));
  });

  test('merges a union in document order, without duplicates, in steps', () => {
    const { once, inSteps, yields } = both('/list/e/x | //k | /list/e[2]/x', tree);
    expect(once).toHaveLength(400);
    expectSameNodes(inSteps, once);
    expect(yields).toBeGreaterThan(0);
  });

  test('sorts what a step gathers out of document order, in steps', () => {
    const { once, inSteps, yields } = both('//x/preceding-sibling::k', tree);
    expect(once).toHaveLength(100);
    expectSameNodes(inSteps, once);
    expect(yields).toBeGreaterThan(0);
  });

  test('applies the steps after a filter expression', () => {
    const { once, inSteps } = both('(/list/e[3] | /list/e[1])[last()]/x[2]', tree);
    expect(once.map((n) => n.value)).toEqual(['2.2']);
    expectSameNodes(inSteps, once);
  });

  test("keeps a key predicate's look-up in the navigator's own index", () => {
    const asked: string[] = [];
    const indexed = keyIndexNavigator(asked);
    const { result, yields } = finish(compileXPath("/list/e[k = '7.0']/x").evaluateNodesSteps(tree, indexed));
    expect(result.map((n) => n.value)).toEqual(['7.1', '7.2', '7.3']);
    expect(asked).toEqual(['e[k=7.0]']);
    expect(yields).toBe(0);
  });

  test('builds a key index of the evaluation cache in steps, then looks keys up in it', () => {
    const cache = createEvaluationCache();
    const byKey = compileXPath('/list/e[k = $v]/x[1]', { variables: { v: '' } });
    const first = finish(byKey.evaluateNodesSteps(tree, plainNavigator, { cache, variables: { v: '4.0' } }));
    expect(first.result.map((n) => n.value)).toEqual(['4.1']);
    expect(first.yields).toBeGreaterThan(0);
    const again = finish(byKey.evaluateNodesSteps(tree, plainNavigator, { cache, variables: { v: '9.0' } }));
    expect(again.result.map((n) => n.value)).toEqual(['9.1']);
    expect(again.yields).toBe(0);
  });

  test("walks a predicate's own paths in steps, inside function calls and operators", () => {
    const { once, inSteps, yields } = both('/list/e[count(//x) > 0 and -count(.//x) < 0]', tree);
    expect(once).toHaveLength(100);
    expectSameNodes(inSteps, once);
    // for each of the 100 entries, the 500 elements below the list walked: once in one step each
    expect(yields).toBeGreaterThanOrEqual(Math.floor((100 * 500) / UNITS_PER_STEP));
  });

  test('stops at the first operand of and/or that decides, as in one turn', () => {
    const { once, inSteps, yields } = both('/list/e[true() or count(//x) > 0]', tree);
    expectSameNodes(inSteps, once);
    expect(yields).toBeLessThan(10);
  });

  test('evaluates a top-level expression that is not a path in one step', () => {
    const { once, inSteps, yields } = both('current()', middle);
    expectSameNodes(inSteps, once);
    expect(yields).toBe(0);
  });

  test('throws TYPE for an expression that is not a node-set, as evaluateNodes does', () => {
    const compiled = compileXPath('count(//x)');
    expect(() => compiled.evaluateNodes(tree, xmlNavigator)).toThrow(/not a node-set/);
    expect(() => finish(compiled.evaluateNodesSteps(tree, xmlNavigator))).toThrow(/not a node-set/);
  });
});

/** Random expressions over random trees: location paths, unions of them and filter expressions. */
const expressionArb = fc.oneof(
  pathArb,
  fc.tuple(pathArb, pathArb).map(([a, b]) => `${a} | ${b}`),
  fc
    .tuple(
      pathArb,
      pathArb,
      fc.constantFrom('[1]', '[last()]', '[b]', ''),
      fc.constantFrom('', '/*', '//b', '/..'),
    )
    .map(([a, b, predicate, rest]) => `(${a} | ${b})${predicate}${rest}`),
  fc.constantFrom("//*[k = 'b']", '//b[a = $v]', '//*[@k = $v]/*', 'current()/..//a', 'count(//a)', '$v'),
  // predicates whose paths are inside function calls and operators, walked in steps too
  fc
    .tuple(
      pathArb,
      fc.constantFrom(
        '[count(.//a) > 1]',
        '[not(b) and count(//a) >= 1]',
        "[-count(a) < 0 or string(.) = '']",
        '[count(//b) + 1 = 2]',
        '[position() = count(../*) div 2]',
        '[last() - 1]',
        "[concat(name(), 'x') = 'ax' or b = //a]",
      ),
    )
    .map(([path, predicate]) => `${path}${predicate}`),
);

describe('evaluateNodesSteps properties', () => {
  test('gives what evaluateNodes gives (document order, no duplicates) or throws the same error', () => {
    fc.assert(
      fc.property(
        fc.array(shapeArb, { minLength: 1, maxLength: 3 }),
        expressionArb,
        fc.boolean(),
        fc.boolean(),
        (shapes, expression, named, cached) => {
          const root = xmlDocument(shapes.map(buildTree));
          const nav = named ? xmlNavigator : plainNavigator;
          const compiled = compileXPath(expression, { variables: { v: 'b' } });
          const context = root.children[0]!;
          const options = cached ? { cache: createEvaluationCache() } : {};
          let once: XmlNode[] | Error;
          try {
            once = compiled.evaluateNodes(context, nav, options);
          } catch (error) {
            once = error as Error;
          }
          if (once instanceof Error) {
            expect(() => finish(compiled.evaluateNodesSteps(context, nav, options))).toThrow(once.message);
          } else {
            expectSameNodes(finish(compiled.evaluateNodesSteps(context, nav, options)).result, once);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('evaluateBooleanSteps', () => {
  test.each([
    ['//e[count(//x) > 0]', true],
    ["//e[k = 'none']", false],
    ['count(//x) = 300', true],
    ['count(//x) = 300 and not(//e/zz)', true],
    ["string(/list/e[1]/k) = '0.0'", true],
  ])('%s is what evaluateBoolean says, %s', (expression, expected) => {
    const compiled = compileXPath(expression);
    expect(compiled.evaluateBoolean(tree, xmlNavigator)).toBe(expected);
    expect(finish(compiled.evaluateBooleanSteps(tree, xmlNavigator)).result).toBe(expected);
  });

  test('yields along a walk of the tree for every node, and stops at maxWork', () => {
    const compiled = compileXPath('//*[count(//*) > 0]');
    expect(finish(compiled.evaluateBooleanSteps(tree, xmlNavigator)).yields).toBeGreaterThan(5);
    expect(() => finish(compiled.evaluateBooleanSteps(tree, xmlNavigator, { maxWork: 5000 }))).toThrow(
      expect.objectContaining({ code: 'WORK_LIMIT' }),
    );
  });
});
