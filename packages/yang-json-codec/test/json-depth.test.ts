import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonDepth, jsonTextDepth } from '../src/json-depth';

describe('JSON nesting depth', () => {
  test('counts the same depth in JSON text as in the value it parses to', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        expect(jsonTextDepth(JSON.stringify(value), 100)).toBe(jsonDepth(value, 100));
      }),
    );
  });

  test('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTextDepth('{"a\\"[[":"]]\\\\","b":[1]}', 100)).toBe(2);
  });

  test('stops counting once past the limit', () => {
    expect(jsonTextDepth('['.repeat(1000), 10)).toBe(11);
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(jsonDepth(deep, 10)).toBe(11);
  });
});
