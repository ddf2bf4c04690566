import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { XPathError } from '../src/index.js';
import { compileXsdRegex } from '../src/xsd-regex.js';

function matches(pattern: string, subject: string): boolean {
  return compileXsdRegex(pattern).test(subject);
}

describe('XSD regular expressions in re-match()', () => {
  test('match the whole string', () => {
    expect(matches('abc', 'abc')).toBe(true);
    expect(matches('abc', 'xabc')).toBe(false);
    expect(matches('a|b', 'ab')).toBe(false);
  });

  test('treat ^ and $ as ordinary characters', () => {
    expect(matches('^a$', '^a$')).toBe(true);
    expect(matches('^a$', 'a')).toBe(false);
  });

  test('let . match anything but line ends', () => {
    expect(matches('a.c', 'a\u{1F600}c')).toBe(true);
    expect(matches('a.c', 'a\nc')).toBe(false);
  });

  test('support multi-character escapes', () => {
    expect(matches('\\d+', '123')).toBe(true);
    expect(matches('\\d', '\u0663')).toBe(true);
    expect(matches('\\s', '\u00A0')).toBe(false);
    expect(matches('\\w+', 'abc1')).toBe(true);
    expect(matches('\\w', '_')).toBe(false);
    expect(matches('\\w', '-')).toBe(false);
    expect(matches('\\i\\c*', 'x-1.y')).toBe(true);
    expect(matches('\\i', '1')).toBe(false);
  });

  test('support categories and blocks', () => {
    expect(matches('\\p{Lu}+', 'ABC')).toBe(true);
    expect(matches('\\P{Lu}', 'A')).toBe(false);
    expect(matches('\\p{IsBasicLatin}+', 'abc')).toBe(true);
    expect(matches('\\p{IsGreek}', '\u03B1')).toBe(true);
    expect(matches('[\\p{IsGreek}a]+', 'a\u03B1')).toBe(true);
  });

  test('support character class subtraction', () => {
    expect(matches('[a-z-[aeiou]]+', 'bcd')).toBe(true);
    expect(matches('[a-z-[aeiou]]', 'a')).toBe(false);
    expect(matches('[^a-z-[0-9]]', '5')).toBe(false);
  });

  test('accept - at the edges of a class and escaped metacharacters', () => {
    expect(matches('[-a]+', '-a')).toBe(true);
    expect(matches('[a-]+', 'a-')).toBe(true);
    expect(matches('\\.\\*\\[\\]\\(\\)\\{\\}\\|\\?\\+\\-\\^\\\\', '.*[](){}|?+-^\\')).toBe(true);
    expect(matches('[\\]\\[]+', '][')).toBe(true);
  });

  test('support quantities', () => {
    expect(matches('a{2,3}', 'aaa')).toBe(true);
    expect(matches('a{2,3}', 'aaaa')).toBe(false);
    expect(matches('a{2,}', 'aaaaa')).toBe(true);
    expect(matches('(ab){2}', 'abab')).toBe(true);
  });

  test('match the patterns of ietf-inet-types', () => {
    const ipv4 =
      '(([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])\\.){3}([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])(%[\\p{N}\\p{L}]+)?';
    expect(matches(ipv4, '192.0.2.1')).toBe(true);
    expect(matches(ipv4, '192.0.2.256')).toBe(false);
    expect(matches(ipv4, '10.0.0.1%eth0')).toBe(true);
  });

  test('reject what XSD does not allow', () => {
    for (const bad of [
      '(?:a)',
      'a{3,2}',
      '[a-',
      '[b-a]',
      'a)',
      '\\k',
      '\\p{IsKlingon}',
      '*a',
      'a{x}',
      '[[a]]',
    ]) {
      expect(() => compileXsdRegex(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_REGEX' }));
    }
  });

  test('any pattern either translates to a valid RegExp or throws INVALID_REGEX', () => {
    const alphabet = [...'ab-^$.|?*+(){}[]\\,0123dswpPi', '{2,3}', '\\p{L}', '-[', '\u{1F600}'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { maxLength: 20 }).map((a) => a.join('')),
        (pattern) => {
          let regex: RegExp;
          try {
            regex = compileXsdRegex(pattern);
          } catch (error) {
            expect(XPathError.isInstance(error) && error.code === 'INVALID_REGEX').toBe(true);
            return;
          }
          expect(typeof regex.test('ab')).toBe('boolean');
        },
      ),
      { numRuns: 3000 },
    );
  });
});
