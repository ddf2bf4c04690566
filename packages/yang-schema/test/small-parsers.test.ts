import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { evalFeatureExpr, parseIfFeature } from '../src/compiler/if-feature';
import { parseLeafrefPath } from '../src/compiler/leafref-path';
import { YangSchemaError } from '../src/errors';
import type { YangStatement } from '../src/parser/statement';

const ifFeature = (argument: string): YangStatement => ({
  keyword: 'if-feature',
  argument,
  substatements: [],
  location: { line: 1, column: 1 },
});

function onlyOwnErrors(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (e) {
    return YangSchemaError.isInstance(e);
  }
}

describe('leafref path-arg parser (RFC 7950 9.9.2)', () => {
  test('parses an absolute path with a current() predicate', () => {
    expect(parseLeafrefPath('/if:interfaces/if:interface[if:name = current()/../ifname]/if:mtu')).toEqual({
      absolute: true,
      up: 0,
      steps: [
        { prefix: 'if', name: 'interfaces', predicates: [] },
        { prefix: 'if', name: 'interface', predicates: [{ key: 'if:name', value: 'current()/../ifname' }] },
        { prefix: 'if', name: 'mtu', predicates: [] },
      ],
    });
  });

  test('counts the leading "../" steps of a relative path', () => {
    expect(parseLeafrefPath('../../a/b')).toMatchObject({
      absolute: false,
      up: 2,
      steps: [{ name: 'a' }, { name: 'b' }],
    });
  });

  test('rejects a relative path without "../"', () => {
    expect(() => parseLeafrefPath('a/b')).toThrow(/must start with/);
  });

  test('rejects a predicate that is not a current() key expression', () => {
    expect(() => parseLeafrefPath('/a[b = 3]')).toThrow(/invalid predicate/);
  });

  test('throws only its own errors on arbitrary text', () => {
    const piece = fc.constantFrom(
      '/',
      '../',
      'a',
      'p:b',
      '[',
      ']',
      '=',
      'current()',
      ' ',
      '..',
      ':',
      '(',
      ')',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) =>
        onlyOwnErrors(() => parseLeafrefPath(parts.join(''))),
      ),
    );
    fc.assert(fc.property(fc.string({ maxLength: 100 }), (s) => onlyOwnErrors(() => parseLeafrefPath(s))));
  });
});

describe('if-feature expressions (RFC 7950 7.20.2)', () => {
  const on = new Set(['a', 'b']);
  const run = (text: string) =>
    evalFeatureExpr(parseIfFeature(ifFeature(text), 'm'), (_p, name) => on.has(name));

  test('binds "and" tighter than "or"', () => {
    expect(run('c or a and b')).toBe(true);
    expect(run('(c or a) and c')).toBe(false);
  });

  test('negates with "not"', () => {
    expect(run('not c and not not a')).toBe(true);
  });

  test('keeps the prefix of a feature reference', () => {
    expect(parseIfFeature(ifFeature('x:f'), 'm')).toEqual({ op: 'ref', prefix: 'x', name: 'f' });
  });

  test('rejects an unbalanced expression', () => {
    expect(() => parseIfFeature(ifFeature('(a or b'), 'm')).toThrow(/missing/);
  });

  test('throws only its own errors on arbitrary text', () => {
    const piece = fc.constantFrom('a', 'b', 'x:c', 'not', 'and', 'or', '(', ')', ' ', '1bad');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) =>
        onlyOwnErrors(() => parseIfFeature(ifFeature(parts.join(' ')), 'm')),
      ),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (s) =>
        onlyOwnErrors(() => parseIfFeature(ifFeature(s), 'm')),
      ),
    );
  });

  test('does not overflow the stack on deeply nested input', () => {
    expect(onlyOwnErrors(() => parseIfFeature(ifFeature(`${'not '.repeat(200000)}a`), 'm'))).toBe(true);
    expect(
      onlyOwnErrors(() => parseIfFeature(ifFeature(`${'('.repeat(200000)}a${')'.repeat(200000)}`), 'm')),
    ).toBe(true);
  });
});
