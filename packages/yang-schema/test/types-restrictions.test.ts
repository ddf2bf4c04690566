import { describe, expect, test } from 'vitest';
import { createPattern, parseLength, parseRange, YangTypeError } from '../src/types/index';

const iv = (min: bigint, max: bigint = min) => ({ min, max });

describe('parseRange', () => {
  test('parses a single interval', () => {
    expect(parseRange('1..10', 'int32', undefined, undefined).intervals).toEqual([iv(1n, 10n)]);
  });

  test('parses several parts with whitespace around the separators', () => {
    const r = parseRange(' 1 .. 10 |20| 30..40 ', 'uint8', undefined, undefined);
    expect(r.intervals).toEqual([iv(1n, 10n), iv(20n), iv(30n, 40n)]);
  });

  test('keeps the argument text as written', () => {
    expect(parseRange('1..10 | 20', 'int8', undefined, undefined).text).toBe('1..10 | 20');
  });

  test('parses a negative single value', () => {
    expect(parseRange('-5', 'int8', undefined, undefined).intervals).toEqual([iv(-5n)]);
  });

  test('reads min and max as the bounds of the built-in type', () => {
    expect(parseRange('min..max', 'int8', undefined, undefined).intervals).toEqual([iv(-128n, 127n)]);
    expect(parseRange('min', 'uint64', undefined, undefined).intervals).toEqual([iv(0n)]);
    expect(parseRange('max', 'uint64', undefined, undefined).intervals).toEqual([iv(18446744073709551615n)]);
  });

  test('reads min and max as the bounds of the inherited range', () => {
    const parent = parseRange('10..20 | 30..40', 'int32', undefined, undefined);
    expect(parseRange('min..15 | 35..max', 'int32', undefined, parent).intervals).toEqual([
      iv(10n, 15n),
      iv(35n, 40n),
    ]);
  });

  test('parses int64 and uint64 bounds exactly', () => {
    const r = parseRange('-9223372036854775808..9223372036854775807', 'int64', undefined, undefined);
    expect(r.intervals).toEqual([iv(-9223372036854775808n, 9223372036854775807n)]);
  });

  test('scales decimal64 bounds by 10^fraction-digits', () => {
    expect(parseRange('-1.5..2 | 3.25', 'decimal64', 2, undefined).intervals).toEqual([
      iv(-150n, 200n),
      iv(325n),
    ]);
  });

  test('reads decimal64 min and max as the scaled int64 bounds', () => {
    expect(parseRange('min..max', 'decimal64', 18, undefined).intervals).toEqual([
      iv(-9223372036854775808n, 9223372036854775807n),
    ]);
  });

  test('carries error-message and error-app-tag', () => {
    const r = parseRange('1..10', 'int8', undefined, undefined, {
      errorMessage: 'too big',
      errorAppTag: 'x-range',
    });
    expect(r.errorMessage).toBe('too big');
    expect(r.errorAppTag).toBe('x-range');
  });

  test('leaves error-message and error-app-tag out when not given', () => {
    const r = parseRange('1..10', 'int8', undefined, undefined, {});
    expect(Object.keys(r).sort()).toEqual(['intervals', 'text']);
  });

  test('accepts a derived range equal to its parent', () => {
    const parent = parseRange('1..100', 'int32', undefined, undefined);
    expect(parseRange('1..100', 'int32', undefined, parent).intervals).toEqual([iv(1n, 100n)]);
  });
});

describe('parseRange errors', () => {
  test.each([
    ['', 'int8', /not "value" or "lower..upper"/],
    ['1..', 'int8', /not "value" or "lower..upper"/],
    ['1..2..3', 'int8', /not "value" or "lower..upper"/],
    ['1 | | 2', 'int8', /not "value" or "lower..upper"/],
    ['abc', 'int8', /"abc" is not a valid bound/],
    ['0x10', 'int8', /not a valid bound/],
    ['1.5', 'int8', /not a valid bound/],
    [
      '1..300',
      'int8',
      /300 is outside the int8 value space -128..127|1..300 is outside the int8 value space/,
    ],
    ['-1', 'uint8', /outside the uint8 value space/],
    ['10..1', 'int8', /lower bound 10 is greater than upper bound 1/],
    ['1..5 | 5..10', 'int8', /ascending order and disjoint/],
    ['20 | 10', 'int8', /ascending order and disjoint/],
    ['1..2', 'string', /not allowed on type string/],
  ] as const)('rejects %j on %s', (text, base, reason) => {
    expect(() => parseRange(text, base, undefined, undefined)).toThrow(reason);
  });

  test('rejects a decimal64 bound with more fraction digits than allowed', () => {
    expect(() => parseRange('1.234', 'decimal64', 2, undefined)).toThrow(/not a valid bound/);
  });

  test('rejects a decimal64 range without fraction-digits', () => {
    expect(() => parseRange('1..2', 'decimal64', undefined, undefined)).toThrow(/fraction-digits 1..18/);
  });

  test('rejects a decimal64 bound beyond the scaled int64 space', () => {
    expect(() => parseRange('0..92233720368547758.08', 'decimal64', 2, undefined)).toThrow(/outside/);
  });

  test('rejects a derived range wider than its parent (RFC 7950 9.2.4)', () => {
    const parent = parseRange('1..100', 'int32', undefined, undefined);
    expect(() => parseRange('0..50', 'int32', undefined, parent)).toThrow(
      /0..50 is not within the inherited range "1..100".*equally or more limiting/,
    );
  });

  test('rejects a derived range that bridges a gap of its parent', () => {
    const parent = parseRange('1..10 | 20..30', 'int32', undefined, undefined);
    expect(() => parseRange('5..25', 'int32', undefined, parent)).toThrow(/not within the inherited range/);
  });

  test('throws YangTypeError', () => {
    expect(() => parseRange('x', 'int8', undefined, undefined)).toThrow(YangTypeError);
  });

  test('rejects an argument longer than the limit', () => {
    expect(() => parseRange('1|'.repeat(5000), 'int64', undefined, undefined)).toThrow(/longer than/);
  });
});

describe('parseLength', () => {
  test('parses lengths up to max', () => {
    expect(parseLength('0 | 4..max', undefined).intervals).toEqual([iv(0n), iv(4n, 18446744073709551615n)]);
  });

  test('narrows an inherited length', () => {
    const parent = parseLength('1..255', undefined);
    expect(parseLength('min..8', parent).intervals).toEqual([iv(1n, 8n)]);
  });

  test('rejects a negative length', () => {
    expect(() => parseLength('-1..5', undefined)).toThrow(/not a valid bound/);
  });

  test('rejects a length beyond 18446744073709551615', () => {
    expect(() => parseLength('18446744073709551616', undefined)).toThrow(/outside the length value space/);
  });

  test('rejects a derived length wider than its parent', () => {
    const parent = parseLength('1..255', undefined);
    expect(() => parseLength('0..10', parent)).toThrow(/not within the inherited length "1..255"/);
  });

  test('carries error-app-tag', () => {
    expect(parseLength('1..2', undefined, { errorAppTag: 'len' }).errorAppTag).toBe('len');
  });
});

describe('createPattern', () => {
  test('builds a pattern restriction with its translated regex', () => {
    const p = createPattern('[a-z]+', false, { errorMessage: 'lowercase only' });
    expect(p.source).toBe('[a-z]+');
    expect(p.regex.test('abc')).toBe(true);
    expect(p.invertMatch).toBe(false);
    expect(p.errorMessage).toBe('lowercase only');
  });

  test('marks invert-match', () => {
    expect(createPattern('x.*', true).invertMatch).toBe(true);
  });

  test('rejects an untranslatable expression with YangTypeError', () => {
    expect(() => createPattern('(')).toThrow(YangTypeError);
  });
});
