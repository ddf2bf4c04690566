import { describe, expect, test } from 'vitest';
import { YangSchemaError } from '../src/errors';
import { translateXsdRegex, YangTypeError } from '../src/types/index';

const matches = (pattern: string, value: string) => translateXsdRegex(pattern).test(value);

describe('translateXsdRegex', () => {
  test('produces an anchored expression with the u flag', () => {
    const re = translateXsdRegex('ab');
    expect(re.flags).toBe('u');
    expect(re.test('ab')).toBe(true);
    expect(re.test('xab')).toBe(false);
    expect(re.test('abx')).toBe(false);
  });

  test('anchors every branch of a top-level alternation', () => {
    expect(matches('a|b', 'a')).toBe(true);
    expect(matches('a|b', 'ab')).toBe(false);
  });

  test('treats ^ and $ as ordinary characters', () => {
    expect(matches('^a$', '^a$')).toBe(true);
    expect(matches('^a$', 'a')).toBe(false);
  });

  test('matches any character but newline and carriage return with a dot', () => {
    expect(matches('.', 'x')).toBe(true);
    expect(matches('.', '\u{1F600}')).toBe(true);
    expect(matches('.', '\n')).toBe(false);
    expect(matches('.', '\r')).toBe(false);
  });

  test('counts an astral character as one character', () => {
    expect(matches('.{2}', 'a\u{1F600}')).toBe(true);
  });

  test('supports the {n}, {n,} and {n,m} quantifiers', () => {
    expect(matches('a{2}', 'aa')).toBe(true);
    expect(matches('a{2}', 'aaa')).toBe(false);
    expect(matches('a{2,}', 'aaaa')).toBe(true);
    expect(matches('a{1,3}', 'aaaa')).toBe(false);
    expect(matches('a{0,0}b', 'b')).toBe(true);
  });

  test('subtracts one character class from another', () => {
    expect(matches('[a-z-[aeiou]]+', 'bcd')).toBe(true);
    expect(matches('[a-z-[aeiou]]+', 'bad')).toBe(false);
  });

  test('nests character class subtractions', () => {
    const p = '[a-z-[d-x-[m]]]';
    expect(matches(p, 'a')).toBe(true);
    expect(matches(p, 'm')).toBe(true);
    expect(matches(p, 'e')).toBe(false);
  });

  test('subtracts from a negated group', () => {
    expect(matches('[^a-c-[x]]', 'd')).toBe(true);
    expect(matches('[^a-c-[x]]', 'x')).toBe(false);
    expect(matches('[^a-c-[x]]', 'b')).toBe(false);
  });

  test('reads a dash at the start or end of a group as a literal', () => {
    expect(matches('[-a]+', '-a')).toBe(true);
    expect(matches('[a-]+', 'a-')).toBe(true);
    expect(matches('[+-]', '-')).toBe(true);
    expect(matches('[+-]', ',')).toBe(false);
  });

  test('reads a dash after a multi-character escape as a literal', () => {
    expect(matches('[\\d-a]+', '5-a')).toBe(true);
    expect(matches('[\\d-a]', 'b')).toBe(false);
  });

  test('merges single-character ranges', () => {
    expect(translateXsdRegex('[a-a]').source).toBe('^(?:[a])$');
  });

  test('supports \\s and \\S', () => {
    expect(matches('\\s+', ' \t\r\n')).toBe(true);
    expect(matches('\\s', '\u00a0')).toBe(false);
    expect(matches('\\S', 'a')).toBe(true);
    expect(matches('\\S', ' ')).toBe(false);
  });

  test('supports \\d and \\D as decimal digits of any script', () => {
    expect(matches('\\d', '7')).toBe(true);
    expect(matches('\\d', '\u0663')).toBe(true);
    expect(matches('\\D', '7')).toBe(false);
  });

  test('supports \\w as everything but punctuation, separators and others', () => {
    expect(matches('\\w+', 'aZ9\u00e9')).toBe(true);
    expect(matches('\\w', '_')).toBe(false);
    expect(matches('\\w', ' ')).toBe(false);
    expect(matches('\\w', '+')).toBe(true);
    expect(matches('\\W', '.')).toBe(true);
  });

  test('excludes digits and characters beyond the BMP from \\i, as XML 1.0 Appendix B does', () => {
    expect(matches('\\i', '\u0663')).toBe(false);
    expect(matches('\\i', '\u{1F600}')).toBe(false);
    expect(matches('\\i', '\u00e9')).toBe(true);
    expect(matches('\\c', '\u0663')).toBe(true);
    expect(matches('\\c', '\u00b7')).toBe(true);
    expect(matches('\\i', '\uf900')).toBe(false);
  });

  test('subtracts from \\i and \\c inside a class', () => {
    expect(matches('[\\i-[:]][\\c-[:]]*', 'a.b-c')).toBe(true);
    expect(matches('[\\i-[:]][\\c-[:]]*', 'a:b')).toBe(false);
  });

  test('supports \\i and \\c as XML name characters', () => {
    expect(matches('\\i\\c*', 'ns:my-name.1')).toBe(true);
    expect(matches('\\i\\c*', '1abc')).toBe(false);
    expect(matches('\\I', '1')).toBe(true);
    expect(matches('\\C', '-')).toBe(false);
    expect(matches('\\C', ' ')).toBe(true);
  });

  test('mixes multi-character escapes with ranges inside a class', () => {
    expect(matches('[\\w-]+', 'a-b')).toBe(true);
    expect(matches('[\\S-[a]]+', 'bcd')).toBe(true);
    expect(matches('[\\S-[a]]+', 'bad')).toBe(false);
    expect(matches('[^\\S]', ' ')).toBe(true);
    expect(matches('[^\\S]', 'x')).toBe(false);
  });

  test('supports general category escapes', () => {
    expect(matches('\\p{Lu}+', 'ABC')).toBe(true);
    expect(matches('\\p{Lu}', 'a')).toBe(false);
    expect(matches('\\P{L}', '1')).toBe(true);
    expect(matches('[\\p{N}\\p{L}]+', 'a1\u00e9')).toBe(true);
  });

  test('supports block escapes', () => {
    expect(matches('\\p{IsBasicLatin}+', 'abc~')).toBe(true);
    expect(matches('\\p{IsBasicLatin}', '\u00e9')).toBe(false);
    expect(matches('\\p{IsGreek}', '\u03b1')).toBe(true);
    expect(matches('\\P{IsGreek}', '\u03b1')).toBe(false);
    expect(matches('[\\P{IsBasicLatin}a]', 'a')).toBe(true);
    expect(matches('\\p{IsLatin-1Supplement}', '\u00e9')).toBe(true);
  });

  test('maps a block listed twice to both of its ranges', () => {
    expect(matches('\\p{IsSpecials}', '\ufeff')).toBe(true);
    expect(matches('\\p{IsSpecials}', '\ufffd')).toBe(true);
    expect(matches('\\p{IsPrivateUse}', '\u{100000}')).toBe(true);
  });

  test('reads a range between two escaped characters (ietf-geo-location)', () => {
    // libxml2 2.14 reads [\[-\^] as "[" alone; XSD F.1.1 makes it the range U+005B..U+005E.
    expect(matches('[ -@\\[-\\^_-~]*', 'a\\b]^[')).toBe(true);
    expect(matches('[ -@\\[-\\^_-~]*', '\u00e9')).toBe(false);
  });

  test('supports single-character escapes', () => {
    expect(matches('\\.\\-\\^\\[\\]\\{\\}\\(\\)\\|\\\\\\?\\*\\+', '.-^[]{}()|\\?*+')).toBe(true);
    expect(matches('\\n\\r\\t', '\n\r\t')).toBe(true);
  });

  test('reads an escaped ASCII punctuation character outside the XSD list as itself', () => {
    expect(matches('\\$\\/\\#\\@', '$/#@')).toBe(true);
    expect(matches('[\\$\\/]+', '/$')).toBe(true);
  });

  test('reads a stray closing brace as itself', () => {
    expect(matches('a}', 'a}')).toBe(true);
    expect(matches('[}]', '}')).toBe(true);
  });

  test('keeps characters that are special only in JavaScript literal', () => {
    expect(matches('a/b', 'a/b')).toBe(true);
    expect(matches('[$/]+', '$/$')).toBe(true);
  });

  test('groups without capturing', () => {
    expect(translateXsdRegex('(ab)+').source).not.toMatch(/\((?!\?:)/);
    expect(matches('(ab)+', 'abab')).toBe(true);
  });

  test('allows empty branches and empty groups', () => {
    expect(matches('a|', '')).toBe(true);
    expect(matches('()', '')).toBe(true);
  });
});

describe('translateXsdRegex rejects what XSD does not have', () => {
  test.each([
    ['a(?=b)', /lookaround/],
    ['(?:a)', /lookaround/],
    ['(a)\\1', /backreferences/],
    ['a*?', /lazy/],
    ['a+*', /lazy, possessive and stacked/],
    ['*a', /nothing to repeat/],
    ['{2}', /nothing to repeat/],
    ['a{3,1}', /maximum below its minimum/],
    ['a{1,x}', /not a quantifier/],
    ['a{99999}', /exceeds/],
    ['(a', /missing "\)"/],
    ['a)', /unbalanced/],
    ['[a', /missing "]"/],
    ['[]', /empty character class/],
    ['[z-a]', /out of order/],
    ['[a[b]]', /unescaped "\["/],
    ['a]', /unescaped "]"/],
    ['\\u0041', /not an XSD escape/],
    ['\\ ', /not an XSD escape/],
    ['\\p{Foo}', /unknown general category/],
    ['\\p{IsKlingon}', /unknown Unicode block/],
    ['\\p{Cs}', /unknown general category/],
    ['\\b', /not an XSD escape/],
    ['\\', /trailing backslash/],
    ['[a-\\d]', /multi-character escape/],
  ])('rejects %j', (pattern, reason) => {
    expect(() => translateXsdRegex(pattern)).toThrow(reason);
  });

  test('throws YangTypeError with code YANG_TYPE', () => {
    try {
      translateXsdRegex('(');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(YangTypeError);
      expect((error as YangTypeError).code).toBe('YANG_TYPE');
      expect(YangTypeError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(YangSchemaError);
    }
  });

  test('rejects nesting deeper than the limit', () => {
    expect(() => translateXsdRegex(`${'('.repeat(100)}a${')'.repeat(100)}`)).toThrow(/nests deeper/);
  });

  test('rejects a pattern longer than the limit', () => {
    expect(() => translateXsdRegex('a'.repeat(20_000))).toThrow(/longer than/);
  });
});
