import { inIntervals } from './numbers';
import type { ValueCheck } from './value';
import { describe, type Fail, invalid, quote, valid } from './value-result';
import type { RangeRestriction, YangType } from './yang-type';

const NO_PATTERNS: NonNullable<YangType['patterns']> = [];

/**
 * string (RFC 7950 9.4): legal characters are those of XML 1.0 (tab, CR, LF and the legal Unicode
 * characters); the length restriction counts characters, i.e. code points (9.4.4); every pattern must
 * match, or must not match with `modifier invert-match` (9.4.5, 9.4.6). Canonical form: the value as is.
 */
export function checkString(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const count = countCharacters(text);
  if (count < 0) {
    return fail(
      (t, x, at) =>
        `${describe(t)} value contains the illegal character U+${hex(x.codePointAt(at)!)} at offset ${at}`,
      [type, text, -count - 1],
    );
  }
  if (type.length) {
    const failed = checkLength(type, type.length, count, 'characters', fail);
    if (failed) return failed;
  }
  const patterns = type.patterns ?? NO_PATTERNS;
  for (let k = 0; k < patterns.length; k++) {
    const p = patterns[k]!;
    if (p.regex.test(text) === p.invertMatch) {
      return fail(
        (x, pattern, t) =>
          `${quote(x)} ${pattern.invertMatch ? 'matches the inverted pattern' : 'does not match the pattern'} ${JSON.stringify(pattern.source)} of ${describe(t)}`,
        [text, p, type],
        p,
      );
    }
  }
  return valid(text);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WHITESPACE = /[ \t\n\r]+/g;

/**
 * binary (RFC 7950 9.8): base64 of RFC 4648 section 4 with padding; line breaks and spaces in the XML text
 * are ignored. The length restriction counts octets. Canonical form (9.8.2): RFC 4648 encoding without
 * whitespace, with the padding bits zero.
 */
export function checkBinary(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const compact = text.replace(WHITESPACE, '');
  if (!BASE64.test(compact)) {
    return fail(
      (t, x) => `${describe(t)} value is not base64 (RFC 4648 section 4, padded): ${quote(x)}`,
      [type, text],
    );
  }
  const bytes = Buffer.from(compact, 'base64');
  if (type.length) {
    const failed = checkLength(type, type.length, bytes.length, 'octets', fail);
    if (failed) return failed;
  }
  return valid(bytes.toString('base64'));
}

function checkLength(
  type: YangType,
  length: RangeRestriction,
  count: number,
  unit: 'characters' | 'octets',
  fail: Fail,
): ValueCheck | undefined {
  if (inIntervals(length.intervals, count)) return undefined;
  return fail(
    (n, u, l, t) => `value of ${n} ${u} does not satisfy the length "${l.text}" of ${describe(t)}`,
    [count, unit, length, type],
    length,
  );
}

/**
 * Counts code points, or returns -(offset + 1) of the first character outside the XML 1.0 Char production:
 * #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] (so no lone surrogates).
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0xd800) {
      count++;
    } else if (c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0xe000 && c <= 0xfffd)) {
      count++;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -(i + 1);
      i++;
      count++;
    } else {
      return -(i + 1);
    }
  }
  return count;
}

function hex(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}
