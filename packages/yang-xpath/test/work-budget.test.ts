import { finishSteps } from '@yangkit/xml';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  compileXPath,
  type XmlNode,
  XPathEvaluationError,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';

/** A library of `size` artists, each with a name and an album: about 5 nodes an artist with the texts. */
function library(size: number): XmlNode {
  const artists = Array.from({ length: size }, (_, i) =>
    xmlElement('artist', '', [xmlElement('name', '', `a${i}`), xmlElement('album', '', `b${i}`)]),
  );
  return xmlDocument([xmlElement('library', '', artists)]);
}

const big = library(2000);
// every artist runs a walk of the whole tree: about 2,000 x 6,000 units
const quadratic = compileXPath('//artist[count(//name) > 0]');

/** The error `run` throws, or a failure when it throws none. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('maxWork', () => {
  test('stops an evaluation in one turn past the budget with WORK_LIMIT naming the limit', () => {
    const error = thrown(() => quadratic.evaluateNodes(big, xmlNavigator, { maxWork: 100_000 }));
    expect(error).toBeInstanceOf(XPathEvaluationError);
    expect((error as XPathEvaluationError).code).toBe('WORK_LIMIT');
    expect((error as XPathEvaluationError).message).toContain('100000');
  });

  test('stops an evaluation in steps of fewer units than a step past a smaller budget, as in one turn', () => {
    const small = library(3);
    const every = compileXPath('//artist[count(//name) > 0]');
    expect(
      (thrown(() => every.evaluateNodes(small, xmlNavigator, { maxWork: 10 })) as XPathEvaluationError).code,
    ).toBe('WORK_LIMIT');
    const steps = every.evaluateNodesSteps(small, xmlNavigator, { maxWork: 10 });
    expect((thrown(() => finishSteps(steps)) as XPathEvaluationError).code).toBe('WORK_LIMIT');
    expect(finishSteps(every.evaluateNodesSteps(small, xmlNavigator, { maxWork: 1000 }))).toHaveLength(3);
  });

  test('stops an evaluation in steps past the budget, inside a predicate walked in steps', () => {
    const steps = quadratic.evaluateNodesSteps(big, xmlNavigator, { maxWork: 100_000 });
    const error = thrown(() => finishSteps(steps));
    expect((error as XPathEvaluationError).code).toBe('WORK_LIMIT');
  });

  test('stops a walk in steps without predicates past the budget', () => {
    const steps = compileXPath('//name | //album').evaluateNodesSteps(big, xmlNavigator, { maxWork: 1000 });
    expect((thrown(() => finishSteps(steps)) as XPathEvaluationError).code).toBe('WORK_LIMIT');
  });

  test('stops evaluate() of a non-node-set expression past the budget', () => {
    const sum = compileXPath('count(//artist[count(//name) > 0])');
    const error = thrown(() => sum.evaluate(big, xmlNavigator, { maxWork: 100_000 }));
    expect((error as XPathEvaluationError).code).toBe('WORK_LIMIT');
  });

  test('counts the walks of a descendant axis that selects nothing', () => {
    const nothing = compileXPath('//artist[count(//nothing) = 0]');
    const error = thrown(() => nothing.evaluateNodes(big, xmlNavigator, { maxWork: 100_000 }));
    expect((error as XPathEvaluationError).code).toBe('WORK_LIMIT');
  });

  test('lets a linear expression within the budget give its result', () => {
    const names = compileXPath('//artist[name != ""]/album');
    expect(names.evaluateNodes(big, xmlNavigator, { maxWork: 100_000 })).toHaveLength(2000);
    const steps = names.evaluateNodesSteps(big, xmlNavigator, { maxWork: 100_000 });
    expect(finishSteps(steps)).toHaveLength(2000);
  });

  test('gives each evaluation the whole budget', () => {
    const names = compileXPath('//name');
    for (let i = 0; i < 3; i++)
      expect(names.evaluateNodes(big, xmlNavigator, { maxWork: 20_000 })).toHaveLength(2000);
  });

  test('without a budget an evaluation is unbounded, as before', () => {
    const small = library(300);
    expect(quadratic.evaluateNodes(small, xmlNavigator)).toHaveLength(300);
    expect(finishSteps(quadratic.evaluateNodesSteps(small, xmlNavigator))).toHaveLength(300);
  });
});

describe('comparisons of two node-sets', () => {
  const value = fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom('x', '', '1.5', ' 2 '));
  const operators = ['=', '!=', '<', '<=', '>', '>='] as const;

  /** XPath 1.0 section 3.4 as written: some pair of string-values holds. */
  function pairwise(op: (typeof operators)[number], left: string[], right: string[]): boolean {
    const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s.trim()));
    return left.some((l) =>
      right.some((r) => {
        if (op === '=') return l === r;
        if (op === '!=') return l !== r;
        const [x, y] = [num(l), num(r)];
        return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
      }),
    );
  }

  test('hold as the test of every pair does', () => {
    fc.assert(
      fc.property(fc.array(value), fc.array(value), fc.constantFrom(...operators), (left, right, op) => {
        const doc = xmlDocument([
          xmlElement('r', '', [
            ...left.map((v) => xmlElement('a', '', v)),
            ...right.map((v) => xmlElement('b', '', v)),
          ]),
        ]);
        expect(compileXPath(`//a ${op} //b`).evaluateBoolean(doc, xmlNavigator)).toBe(
          pairwise(op, left, right),
        );
      }),
    );
  });

  test('cost the sum of the sizes, not their product', () => {
    const many = (name: string, from: number) =>
      Array.from({ length: 50_000 }, (_, i) => xmlElement(name, '', String(from - i)));
    const doc = xmlDocument([xmlElement('r', '', [...many('a', 200_000), ...many('b', 100_000)])]);
    const started = performance.now();
    expect(compileXPath('//a < //b').evaluateBoolean(doc, xmlNavigator)).toBe(false);
    expect(compileXPath('//a != //a').evaluateBoolean(doc, xmlNavigator)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

test('charges the string-values an evaluation asks for, a unit every 16 characters', () => {
  // every artist asks for the string-value of the whole tree: about 8 characters an artist, 1,000 units
  const everyText = compileXPath("//artist[string(/) != '']");
  const error = thrown(() => everyText.evaluateNodes(big, xmlNavigator, { maxWork: 500_000 }));
  expect((error as XPathEvaluationError).code).toBe('WORK_LIMIT');
  expect(
    compileXPath("//artist[string(name) != '']").evaluateNodes(big, xmlNavigator, { maxWork: 100_000 }),
  ).toHaveLength(2000);
});
