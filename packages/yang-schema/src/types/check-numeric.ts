import {
  DECIMAL64_BOUNDS,
  formatDecimal,
  INTEGER_BOUNDS,
  inIntervals,
  parseDecimalLexical,
  parseIntegerFast,
} from './numbers';
import { isFractionDigits } from './restrictions';
import type { ValueCheck } from './value';
import { describe, type Fail, type Failure, invalid, quote, valid } from './value-result';
import type { RangeRestriction, YangType } from './yang-type';

/**
 * int8..uint64 (RFC 7950 9.2): lexically an optional sign and decimal digits (9.2.1, no hexadecimal or
 * octal forms); canonical without '+' and leading zeros (9.2.2); then the range restriction (9.2.4).
 */
export function checkInteger(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const value = parseIntegerFast(text);
  if (value === undefined) {
    return fail(
      (x, t) =>
        `${quote(x)} is not a valid ${describe(t)} value: expected an optional sign and decimal digits`,
      [text, type],
    );
  }
  const bounds = INTEGER_BOUNDS[type.base]!;
  if (value < bounds.min || value > bounds.max) {
    return fail(
      (x, t, b) => `${quote(x)} is outside the ${t.base} value space ${b.min}..${b.max}`,
      [text, type, bounds],
    );
  }
  const range = type.range;
  if (range && !inIntervals(range.intervals, value)) return outOfRange(text, type, range, fail);
  return valid(value.toString());
}

/**
 * decimal64 (RFC 7950 9.3): lexically an optional sign, digits and an optional fraction (9.3.1) with at
 * most fraction-digits significant decimals; canonical per 9.3.2; then the range restriction (9.3.4).
 */
export function checkDecimal64(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const fd = type.fractionDigits;
  if (!isFractionDigits(fd)) return fail((t) => `${describe(t)} has no valid fraction-digits`, [type]);
  const value = parseDecimalLexical(text, fd);
  if (value === undefined) {
    return fail(
      (x, t, f) =>
        `${quote(x)} is not a valid ${describe(t)} value: expected a decimal number with at most ${f} fraction digits`,
      [text, type, fd],
    );
  }
  if (value < DECIMAL64_BOUNDS.min || value > DECIMAL64_BOUNDS.max) {
    return fail(
      (x, f) => `${quote(x)} is outside the decimal64 value space for fraction-digits ${f}`,
      [text, fd],
    );
  }
  const range = type.range;
  if (range && !inIntervals(range.intervals, value)) return outOfRange(text, type, range, fail);
  return valid(formatDecimal(value, fd));
}

/** The failure of a value outside the range restriction of its type. */
function outOfRange(text: string, type: YangType, range: RangeRestriction, fail: Fail): Failure {
  return fail(
    (x, r, t) => `${quote(x)} does not satisfy the range "${r.text}" of ${describe(t)}`,
    [text, range, type],
    range,
  );
}
