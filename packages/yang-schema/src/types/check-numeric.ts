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
import { describe, type Fail, invalid, quote, valid } from './value-result';
import type { YangType } from './yang-type';

/**
 * int8..uint64 (RFC 7950 9.2): lexically an optional sign and decimal digits (9.2.1, no hexadecimal or
 * octal forms); canonical without '+' and leading zeros (9.2.2); then the range restriction (9.2.4).
 */
export function checkInteger(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const value = parseIntegerFast(text);
  if (value === undefined) {
    return fail(
      () =>
        `${quote(text)} is not a valid ${describe(type)} value: expected an optional sign and decimal digits`,
    );
  }
  const bounds = INTEGER_BOUNDS[type.base]!;
  if (value < bounds.min || value > bounds.max) {
    return fail(() => `${quote(text)} is outside the ${type.base} value space ${bounds.min}..${bounds.max}`);
  }
  const range = type.range;
  if (range && !inIntervals(range.intervals, value)) {
    return fail(
      () => `${quote(text)} does not satisfy the range "${range.text}" of ${describe(type)}`,
      range,
    );
  }
  return valid(value.toString());
}

/**
 * decimal64 (RFC 7950 9.3): lexically an optional sign, digits and an optional fraction (9.3.1) with at
 * most fraction-digits significant decimals; canonical per 9.3.2; then the range restriction (9.3.4).
 */
export function checkDecimal64(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const fd = type.fractionDigits;
  if (!isFractionDigits(fd)) return fail(() => `${describe(type)} has no valid fraction-digits`);
  const value = parseDecimalLexical(text, fd);
  if (value === undefined) {
    return fail(
      () =>
        `${quote(text)} is not a valid ${describe(type)} value: expected a decimal number with at most ${fd} fraction digits`,
    );
  }
  if (value < DECIMAL64_BOUNDS.min || value > DECIMAL64_BOUNDS.max) {
    return fail(() => `${quote(text)} is outside the decimal64 value space for fraction-digits ${fd}`);
  }
  const range = type.range;
  if (range && !inIntervals(range.intervals, value)) {
    return fail(
      () => `${quote(text)} does not satisfy the range "${range.text}" of ${describe(type)}`,
      range,
    );
  }
  return valid(formatDecimal(value, fd));
}
