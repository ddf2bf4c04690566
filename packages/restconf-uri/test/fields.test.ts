import { describe, expect, test } from 'vitest';
import { formatFields, parseFields } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';

const leaf = (name: string) => ({ name, children: [] });

describe('parseFields', () => {
  test('parses a single identifier', () => {
    expect(parseFields('name')).toEqual([leaf('name')]);
  });

  test('parses siblings joined by ;', () => {
    expect(parseFields('a;b;c')).toEqual([leaf('a'), leaf('b'), leaf('c')]);
  });

  test('parses a path into a chain', () => {
    expect(parseFields('a/b/c')).toEqual([{ name: 'a', children: [{ name: 'b', children: [leaf('c')] }] }]);
  });

  test('parses a sub-selector', () => {
    expect(parseFields('a(b;c)')).toEqual([{ name: 'a', children: [leaf('b'), leaf('c')] }]);
  });

  test('accepts ; after a closing parenthesis', () => {
    expect(parseFields('a(b);c(d)')).toEqual([
      { name: 'a', children: [leaf('b')] },
      { name: 'c', children: [leaf('d')] },
    ]);
  });

  test('keeps module names where written', () => {
    expect(parseFields('m:a/n:b')).toEqual([
      { module: 'm', name: 'a', children: [{ module: 'n', name: 'b', children: [] }] },
    ]);
  });

  test('merges paths that share a prefix', () => {
    expect(parseFields('a/b;a/c')).toEqual(parseFields('a(b;c)'));
  });

  test('lets a whole-node selection win over a partial one', () => {
    expect(parseFields('a/b;a')).toEqual([leaf('a')]);
    expect(parseFields('a;a/b')).toEqual([leaf('a')]);
  });

  test('parses nested sub-selectors', () => {
    expect(parseFields('a(b(c;d/e);f)')).toEqual([
      {
        name: 'a',
        children: [{ name: 'b', children: [leaf('c'), { name: 'd', children: [leaf('e')] }] }, leaf('f')],
      },
    ]);
  });

  test.each([
    ['', 0],
    ['a;', 2],
    ['a//b', 2],
    ['a(b', 3],
    ['a)b', 1],
    ['a()', 2],
    ['(a)', 0],
    ['a b', 1],
    ['1a', 0],
    ['a:', 2],
    ['a:b:c', 3],
  ])('rejects %j at offset %i', (text, offset) => {
    const error = errorOf(() => parseFields(text));
    expect(error.code).toBe('FIELDS_SYNTAX');
    expect(error.offset).toBe(offset);
    expect(error.message).toContain(`offset ${offset}`);
  });

  test('rejects nesting deeper than maxDepth', () => {
    expect(errorOf(() => parseFields('a/b/c/d', { maxDepth: 3 })).code).toBe('FIELDS_SYNTAX');
  });

  test('rejects deep parentheses without exhausting the stack', () => {
    const text = `${'a('.repeat(5000)}b${')'.repeat(5000)}`;
    expect(errorOf(() => parseFields(text, { maxLength: 20000 })).code).toBe('FIELDS_SYNTAX');
  });

  test('rejects more identifiers than maxNodes', () => {
    expect(errorOf(() => parseFields('a;b;c', { maxNodes: 2 })).code).toBe('FIELDS_SYNTAX');
  });

  test('rejects an expression longer than maxLength', () => {
    expect(errorOf(() => parseFields('abcdef', { maxLength: 3 })).code).toBe('URI_TOO_LONG');
  });
});

describe('formatFields', () => {
  test('joins a single child with a slash and several with parentheses', () => {
    expect(formatFields(parseFields('m:a(b/c;d)'))).toBe('m:a(b/c;d)');
  });

  test('writes a sub-selector with one child as a path', () => {
    expect(formatFields(parseFields('a(b)'))).toBe('a/b');
  });

  test('rejects a node name that is not an identifier', () => {
    expect(errorOf(() => formatFields([{ name: 'a;b', children: [] }])).code).toBe('FORMAT_UNREPRESENTABLE');
  });
});
