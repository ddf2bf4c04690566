import { describe, expect, test } from 'vitest';
import {
  checkValue,
  createPattern,
  parseLength,
  parseRange,
  type YangType,
  YangTypeError,
} from '../src/index';

// The examples of src/types/README.md, against the package root.
describe('src/types README examples', () => {
  const percent: YangType = {
    base: 'uint8',
    name: 'example:percent',
    range: parseRange('0..100', 'uint8', undefined, undefined, { errorAppTag: 'percent-range' }),
  };

  test('a ranged uint8 canonicalizes +042 to 42', () => {
    expect(checkValue(percent, '+042')).toEqual({ ok: true, canonical: '42' });
  });

  test('a ranged uint8 rejects 101 with the range error-app-tag', () => {
    expect(checkValue(percent, '101')).toEqual({
      ok: false,
      errorTag: 'invalid-value',
      errorAppTag: 'percent-range',
      message: '"101" does not satisfy the range "0..100" of type example:percent (uint8)',
    });
  });

  test('a derived range wider than its parent throws', () => {
    expect(() => parseRange('50..200', 'uint8', undefined, percent.range)).toThrow(YangTypeError);
  });

  const consonants: YangType = {
    base: 'string',
    name: 'example:consonants',
    length: parseLength('1..8', undefined),
    patterns: [createPattern('[a-z-[aeiou]]+')],
  };

  test('a subtraction pattern accepts consonants and rejects vowels', () => {
    expect(checkValue(consonants, 'xyz').ok).toBe(true);
    expect(checkValue(consonants, 'abc').ok).toBe(false);
  });

  const mixed: YangType = {
    base: 'union',
    name: 'union',
    members: [
      { base: 'int8', name: 'int8' },
      { base: 'string', name: 'string' },
    ],
  };

  test('a union reports the member that matched', () => {
    expect(checkValue(mixed, '12')).toMatchObject({ ok: true, canonical: '12', member: { base: 'int8' } });
    expect(checkValue(mixed, 'x')).toMatchObject({ ok: true, canonical: 'x', member: { base: 'string' } });
  });
});
