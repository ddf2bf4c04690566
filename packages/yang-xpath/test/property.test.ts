import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AXES } from '../src/ast.js';
import {
  compileXPath,
  type Expr,
  parseXPath,
  printXPath,
  type Step,
  XPathError,
  XPathSyntaxError,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';

/** Drops positions so trees can be compared after printing and parsing again. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'position')
        .map(([key, v]) => [key, strip(v)]),
    );
  }
  return value;
}

const XPATH_ALPHABET = [
  ...'abcxyz019 ./@*:$()[],|=!<>-+\'"',
  'div ',
  'mod ',
  'and ',
  'or ',
  '::',
  '//',
  'child::',
  'ancestor::',
  'text()',
  'node()',
  'current()',
  'count(',
  '\u{1F600}',
  '\t',
];

const ncname = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,6}$/)
  .filter((n) => !['and', 'or', 'div', 'mod'].includes(n));

const nodeTest = fc.oneof(
  fc.record({
    kind: fc.constant('name' as const),
    prefix: fc.option(ncname, { nil: undefined }),
    localName: fc.oneof(ncname, fc.constant('*')),
  }),
  fc.record({ kind: fc.constantFrom('node' as const, 'text' as const, 'comment' as const) }),
);

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr; step: Step }>((tie) => ({
  step: fc.record({
    axis: fc.constantFrom(...AXES),
    test: nodeTest,
    predicates: fc.array(tie('expr'), { maxLength: 1 }),
    position: fc.constant(0),
  }) as fc.Arbitrary<Step>,
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      type: fc.constant('Literal' as const),
      value: fc.string({ maxLength: 5 }).map((s) => s.replace(/'/g, '')),
      position: fc.constant(0),
    }),
    fc.record({
      type: fc.constant('Number' as const),
      value: fc.oneof(fc.nat(1000), fc.double({ min: 0, max: 1e6, noNaN: true }).map(Math.abs)),
      position: fc.constant(0),
    }),
    fc.record({
      type: fc.constant('Variable' as const),
      prefix: fc.option(ncname, { nil: undefined }),
      localName: ncname,
      position: fc.constant(0),
    }),
    fc.record({
      type: fc.constant('Path' as const),
      absolute: fc.boolean(),
      steps: fc.array(tie('step'), { minLength: 1, maxLength: 3 }),
      position: fc.constant(0),
    }),
    fc.record({
      type: fc.constant('FunctionCall' as const),
      prefix: fc.option(ncname, { nil: undefined }),
      localName: ncname.filter((n) => !['comment', 'text', 'node', 'processing-instruction'].includes(n)),
      args: fc.array(tie('expr'), { maxLength: 3 }),
      position: fc.constant(0),
    }),
    fc.record({ type: fc.constant('Negate' as const), operand: tie('expr'), position: fc.constant(0) }),
    fc.record({
      type: fc.constant('Binary' as const),
      operator: fc.constantFrom(
        'or',
        'and',
        '=',
        '!=',
        '<',
        '<=',
        '>',
        '>=',
        '+',
        '-',
        '*',
        'div',
        'mod',
        '|',
      ),
      left: tie('expr'),
      right: tie('expr'),
      position: fc.constant(0),
    }),
    fc.record({
      type: fc.constant('Filter' as const),
      primary: tie('expr'),
      predicates: fc.array(tie('expr'), { minLength: 1, maxLength: 2 }),
      steps: fc.array(tie('step'), { maxLength: 2 }),
      position: fc.constant(0),
    }),
  ) as fc.Arbitrary<Expr>,
})).expr;

describe('parser properties', () => {
  test('no string crashes the parser: it parses or throws XPathSyntaxError with a position', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.array(fc.constantFrom(...XPATH_ALPHABET), { maxLength: 40 }).map((a) => a.join('')),
        ),
        (text) => {
          try {
            parseXPath(text);
          } catch (error) {
            expect(error).toBeInstanceOf(XPathSyntaxError);
            const position = (error as XPathSyntaxError).position;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(text.length);
          }
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('compiling and evaluating any string throws only this package’s errors', () => {
    const tree = xmlDocument([
      xmlElement('a', '', [xmlElement('b', '', '1'), xmlElement('c', '', 'x')], { n: '2' }),
    ]);
    const root = tree.children[0]!;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...XPATH_ALPHABET), { maxLength: 30 }).map((a) => a.join('')),
        (text) => {
          try {
            compileXPath(text, { prefixes: { a: 'urn:a' }, variables: { x: 1 } }).evaluate(
              root,
              xmlNavigator,
            );
          } catch (error) {
            expect(XPathError.isInstance(error)).toBe(true);
          }
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('printing a generated expression and parsing it again gives the same tree', () => {
    fc.assert(
      fc.property(exprArb, (expr) => {
        const printed = printXPath(expr);
        expect(strip(parseXPath(printed, { maxDepth: 10_000 }))).toEqual(strip(expr));
      }),
      { numRuns: 2000 },
    );
  });
});
