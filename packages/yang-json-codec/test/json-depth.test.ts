import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonDepth } from '../src/json-depth';
import { parseJsonText } from '../src/json-text';
import { codecError } from './helpers';

describe('JSON nesting depth', () => {
  test('refuses JSON text exactly when the value it parses to nests deeper than the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(9), (value, limit) => {
        const text = JSON.stringify(value);
        if (jsonDepth(value, 100) > limit)
          expect(codecError(() => parseJsonText(text, limit)).code).toBe('LIMIT_EXCEEDED');
        else expect(parseJsonText(text, limit)).toEqual(JSON.parse(text));
      }),
    );
  });

  test('ignores brackets inside strings, escaped quotes included', () => {
    expect(parseJsonText('{"a\\"[[":"]]\\\\","b":[1]}', 2)).toEqual({ 'a"[[': ']]\\', b: [1] });
  });

  test('stops counting once past the limit', () => {
    expect(codecError(() => parseJsonText('['.repeat(1000), 10)).code).toBe('LIMIT_EXCEEDED');
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(jsonDepth(deep, 10)).toBe(11);
  });
});
