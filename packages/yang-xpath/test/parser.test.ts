import { describe, expect, test } from 'vitest';
import {
  compileXPath,
  type Expr,
  parseXPath,
  printXPath,
  XPathCompileError,
  XPathSyntaxError,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';

function syntaxError(expression: string): XPathSyntaxError {
  try {
    parseXPath(expression);
  } catch (error) {
    expect(error).toBeInstanceOf(XPathSyntaxError);
    return error as XPathSyntaxError;
  }
  throw new Error(`'${expression}' parsed`);
}

function compileError(expression: string, prefixes: Record<string, string> = {}): XPathCompileError {
  try {
    compileXPath(expression, { prefixes });
  } catch (error) {
    expect(error).toBeInstanceOf(XPathCompileError);
    return error as XPathCompileError;
  }
  throw new Error(`'${expression}' compiled`);
}

describe('parsing', () => {
  test('expands abbreviations into axis steps', () => {
    const ast = parseXPath('//a/../@b/.');
    expect(ast).toMatchObject({
      type: 'Path',
      absolute: true,
      steps: [
        { axis: 'descendant-or-self', test: { kind: 'node' } },
        { axis: 'child', test: { kind: 'name', localName: 'a' } },
        { axis: 'parent', test: { kind: 'node' } },
        { axis: 'attribute', test: { kind: 'name', localName: 'b' } },
        { axis: 'self', test: { kind: 'node' } },
      ],
    });
  });

  test('gives multiplication precedence over addition and addition over comparison', () => {
    expect(printXPath(parseXPath('1 + 2 * 3 = 7 or 0'))).toBe('1 + 2 * 3 = 7 or 0');
    expect(parseXPath('1 + 2 * 3')).toMatchObject({ operator: '+', right: { operator: '*' } });
    expect(parseXPath('a = b and c')).toMatchObject({ operator: 'and', left: { operator: '=' } });
  });

  test('reads operator names as names where an operator cannot stand', () => {
    const ast = parseXPath('div div div');
    expect(ast).toMatchObject({
      type: 'Binary',
      operator: 'div',
      left: { type: 'Path', steps: [{ test: { localName: 'div' } }] },
      right: { type: 'Path', steps: [{ test: { localName: 'div' } }] },
    });
  });

  test('reads * as a name test after an operator and as multiplication after an operand', () => {
    expect(parseXPath('* * *')).toMatchObject({
      operator: '*',
      left: { type: 'Path', steps: [{ test: { localName: '*' } }] },
      right: { type: 'Path', steps: [{ test: { localName: '*' } }] },
    });
  });

  test('reads a name before ( as a function and before :: as an axis', () => {
    expect(parseXPath('count (child :: x)')).toMatchObject({
      type: 'FunctionCall',
      localName: 'count',
      args: [{ type: 'Path', steps: [{ axis: 'child' }] }],
    });
  });

  test('parses prefixed names, prefix wildcards and variables', () => {
    expect(parseXPath('p:a/q:*[$v:x]')).toMatchObject({
      steps: [
        { test: { prefix: 'p', localName: 'a' } },
        {
          test: { prefix: 'q', localName: '*' },
          predicates: [{ type: 'Variable', prefix: 'v', localName: 'x' }],
        },
      ],
    });
  });

  test('builds filter expressions for predicates and paths after a primary', () => {
    expect(parseXPath('current()/../x')).toMatchObject({
      type: 'Filter',
      primary: { type: 'FunctionCall', localName: 'current' },
      steps: [{ axis: 'parent' }, { axis: 'child' }],
    });
    expect(parseXPath('(a | b)[2]')).toMatchObject({
      type: 'Filter',
      predicates: [{ type: 'Number', value: 2 }],
    });
  });

  test('parses a lone slash as the root', () => {
    expect(parseXPath('/')).toMatchObject({ type: 'Path', absolute: true, steps: [] });
    expect(parseXPath('/ | a')).toMatchObject({ operator: '|', left: { steps: [] } });
  });

  test('keeps the position of every step', () => {
    const ast = parseXPath('/a/bb[c]') as Expr & { type: 'Path' };
    expect(ast.steps.map((s) => s.position)).toEqual([1, 3]);
  });

  test('parses processing-instruction with a literal', () => {
    expect(parseXPath("processing-instruction('x')")).toMatchObject({
      steps: [{ test: { kind: 'processing-instruction', literal: 'x' } }],
    });
  });
});

describe('syntax errors', () => {
  test('names the unexpected token and its position', () => {
    const error = syntaxError('/a/b]');
    expect(error.code).toBe('SYNTAX');
    expect(error.position).toBe(4);
    expect(error.token).toBe(']');
    expect(error.message).toContain("']'");
  });

  test('reports the end of the expression', () => {
    const error = syntaxError('count(a');
    expect(error.position).toBe(7);
    expect(error.message).toContain('end of expression');
  });

  test('rejects an unterminated literal at its opening quote', () => {
    expect(syntaxError("a = 'abc").position).toBe(4);
  });

  test('rejects an unknown axis', () => {
    const error = syntaxError('sideways::a');
    expect(error.position).toBe(0);
    expect(error.message).toContain('sideways');
  });

  test('rejects a name where an operator is required', () => {
    expect(syntaxError('a b').message).toContain("'b'");
  });

  test('rejects an empty expression and a dangling operator', () => {
    expect(syntaxError('').position).toBe(0);
    expect(syntaxError('1 +').position).toBe(3);
  });

  test('rejects exponent notation in number literals', () => {
    expect(syntaxError('1e3').token).toBe('e3');
  });

  test('rejects expressions longer than maxLength', () => {
    expect(() => parseXPath('a'.repeat(11), { maxLength: 10 })).toThrow(
      expect.objectContaining({ code: 'TOO_LONG' }),
    );
  });

  test('rejects nesting deeper than maxDepth without exhausting the stack', () => {
    const deep = `${'('.repeat(100_000)}1${')'.repeat(100_000)}`;
    expect(() => parseXPath(deep, { maxLength: 1_000_000 })).toThrow(
      expect.objectContaining({ code: 'TOO_DEEP' }),
    );
    const chain = Array.from({ length: 10_000 }, () => '1').join(' + ');
    expect(() => parseXPath(chain)).toThrow(expect.objectContaining({ code: 'TOO_DEEP' }));
    expect(() => parseXPath(`${'-'.repeat(10_000)}1`)).toThrow(expect.objectContaining({ code: 'TOO_DEEP' }));
  });
});

describe('compile errors', () => {
  test('reports an unknown prefix at the step that uses it', () => {
    const error = compileError('/a:x/b:y', { a: 'urn:a' });
    expect(error.code).toBe('UNKNOWN_PREFIX');
    expect(error.position).toBe(5);
  });

  test('reports an unknown function', () => {
    const error = compileError('1 + frobnicate()');
    expect(error.code).toBe('UNKNOWN_FUNCTION');
    expect(error.position).toBe(4);
  });

  test('reports a wrong argument count', () => {
    expect(compileError('substring("a")').code).toBe('ARITY');
    expect(compileError('concat("a")').code).toBe('ARITY');
    expect(compileError('current(.)').code).toBe('ARITY');
  });

  test('reports an undeclared variable', () => {
    expect(compileError('$nope').code).toBe('UNKNOWN_VARIABLE');
  });

  test('reports an invalid literal re-match pattern', () => {
    const error = compileError("re-match(., '[a-')");
    expect(error.code).toBe('INVALID_REGEX');
    expect(error.position).toBe(12);
  });

  test('reports an unknown prefix in a literal identity', () => {
    expect(compileError("derived-from(., 'nope:x')").code).toBe('UNKNOWN_PREFIX');
  });
});

describe('extension functions and variables', () => {
  const tree = xmlDocument([xmlElement('a', '', [xmlElement('b', '', '2'), xmlElement('b', '', '3')])]);

  test('calls an unprefixed extension function with evaluated arguments', () => {
    const double = compileXPath('twice(sum(/a/b))', {
      functions: { twice: (_ctx, value) => 2 * (value as number) },
    });
    expect(double.evaluate(tree, xmlNavigator)).toBe(10);
  });

  test('resolves a prefixed extension function by namespace', () => {
    const expr = compileXPath('f:count-b(/a)', {
      prefixes: { f: 'urn:f' },
      functions: { '{urn:f}count-b': (ctx, nodes) => (nodes as unknown[]).length + ctx.position },
    });
    expect(expr.evaluate(tree, xmlNavigator)).toBe(2);
  });

  test('wraps an exception of an extension function in a typed error', () => {
    const expr = compileXPath('boom()', {
      functions: {
        boom: () => {
          throw new RangeError('bad');
        },
      },
    });
    expect(() => expr.evaluate(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'FUNCTION_FAILED' }),
    );
  });

  test('refuses an extension function result that is not an XPath value', () => {
    const expr = compileXPath('nothing()', { functions: { nothing: () => undefined as unknown as string } });
    expect(() => expr.evaluate(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'FUNCTION_FAILED' }),
    );
  });

  test('lets evaluate() override a declared variable', () => {
    const expr = compileXPath('/a/b[. = $want]', { variables: { want: '2' } });
    expect(expr.evaluateString(tree, xmlNavigator)).toBe('2');
    expect(expr.evaluateString(tree, xmlNavigator, { variables: { want: '3' } })).toBe('3');
  });
});

describe('printing', () => {
  test('prints steps unabbreviated and keeps needed parentheses', () => {
    expect(printXPath(parseXPath('//a[1]/@b'))).toBe('/descendant-or-self::node()/child::a[1]/attribute::b');
    expect(printXPath(parseXPath('(1 + 2) * 3'))).toBe('(1 + 2) * 3');
    expect(printXPath(parseXPath('1 - (2 - 3)'))).toBe('1 - (2 - 3)');
    expect(printXPath(parseXPath('-(a | b)'))).toBe('-child::a | child::b');
    expect(printXPath(parseXPath('(a)[1]/b'))).toBe('(child::a)[1]/child::b');
  });

  test('spells a literal holding both quotes with concat()', () => {
    const expr = compileXPath(printXPath({ type: 'Literal', value: `it's "x"`, position: 0 }));
    expect(expr.evaluate(xmlDocument([]), xmlNavigator)).toBe(`it's "x"`);
  });
});

describe('default namespace', () => {
  test('applies to unprefixed element names but not to attribute names', () => {
    const tree = xmlDocument([xmlElement('a', 'urn:m', [xmlElement('b', 'urn:m', 'v')], { id: '7' })]);
    const expr = compileXPath('concat(/a/b, /a/@id, count(/*[local-name() = "a"]/@*))', {
      defaultNamespace: 'urn:m',
    });
    expect(expr.evaluate(tree, xmlNavigator)).toBe('v71');
    expect(compileXPath('count(/a)').evaluate(tree, xmlNavigator)).toBe(0);
  });
});

describe('evaluation errors', () => {
  const tree = xmlDocument([xmlElement('a', '', 'v')]);

  test('a filter on a non-node-set is a TYPE error at the filter', () => {
    expect(() => compileXPath('1 + (1)[1]').evaluate(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ name: 'XPathEvaluationError', code: 'TYPE', position: 4 }),
    );
  });

  test('a union of non-node-sets is a TYPE error', () => {
    expect(() => compileXPath('a | "b"').evaluate(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'TYPE' }),
    );
  });

  test('count() of a string is a TYPE error at the call', () => {
    expect(() => compileXPath('1 = count("a")').evaluate(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'TYPE', position: 4 }),
    );
  });

  test('evaluateNodes() refuses a scalar result', () => {
    expect(() => compileXPath('1').evaluateNodes(tree, xmlNavigator)).toThrow(
      expect.objectContaining({ code: 'TYPE' }),
    );
  });
});
