import type { BuiltinTypeName, Interval } from './yang-type';

/** Lowest and highest value of each integer built-in type (RFC 7950 9.2). */
export const INTEGER_BOUNDS: Readonly<Record<string, Interval>> = {
  int8: { min: -128n, max: 127n },
  int16: { min: -32768n, max: 32767n },
  int32: { min: -2147483648n, max: 2147483647n },
  int64: { min: -9223372036854775808n, max: 9223372036854775807n },
  uint8: { min: 0n, max: 255n },
  uint16: { min: 0n, max: 65535n },
  uint32: { min: 0n, max: 4294967295n },
  uint64: { min: 0n, max: 18446744073709551615n },
};

/** The value space of a length restriction: 0..18446744073709551615 (RFC 7950 9.4.4). */
export const LENGTH_BOUNDS: Interval = { min: 0n, max: 18446744073709551615n };

/**
 * decimal64 values are a 64-bit signed integer scaled by 10^-fraction-digits (RFC 7950 9.3), so in scaled
 * units the bounds are those of int64 whatever the fraction-digits.
 */
export const DECIMAL64_BOUNDS: Interval = INTEGER_BOUNDS.int64!;

/** The value space of a numeric built-in type in the units restrictions use, or undefined if not numeric. */
export function numericBounds(base: BuiltinTypeName): Interval | undefined {
  if (base === 'decimal64') return DECIMAL64_BOUNDS;
  return INTEGER_BOUNDS[base];
}

const INTEGER_LEXICAL = /^[+-]?[0-9]+$/;
const DECIMAL_LEXICAL = /^([+-]?)([0-9]+)(?:\.([0-9]+))?$/;

/** Longest digit run accepted before BigInt conversion, so huge inputs fail fast (any wider number overflows). */
const MAX_DIGITS = 64;

/**
 * Parses the integer lexical form of RFC 7950 9.2.1: optional sign, decimal digits (no hex, no octal).
 * Returns undefined when `text` is not of that form.
 */
export function parseIntegerLexical(text: string): bigint | undefined {
  if (text.length > MAX_DIGITS || !INTEGER_LEXICAL.test(text)) return undefined;
  return BigInt(text);
}

/**
 * Like parseIntegerLexical, but short values come back as a number: up to 15 digits a double holds every
 * integer exactly, and parsing it is several times cheaper than BigInt.
 */
export function parseIntegerFast(text: string): bigint | number | undefined {
  if (text.length > 15) return parseIntegerLexical(text);
  if (!INTEGER_LEXICAL.test(text)) return undefined;
  // Number('-0') is -0; `+ 0` makes it 0 so the canonical text has no sign.
  return Number(text) + 0;
}

/**
 * Parses the decimal64 lexical form of RFC 7950 9.3.1 ("-1.50", "+2", "3.0") into a value scaled by
 * 10^fractionDigits. Returns undefined when the form is wrong or the value needs more fraction digits than
 * allowed (trailing zeros beyond the limit are harmless: "1.500" is 150n at fraction-digits 2).
 */
export function parseDecimalLexical(text: string, fractionDigits: number): bigint | undefined {
  if (text.length > MAX_DIGITS) return undefined;
  const m = DECIMAL_LEXICAL.exec(text);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  let fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > fractionDigits) return undefined;
  fraction = fraction.padEnd(fractionDigits, '0');
  return sign * BigInt((m[2] ?? '0') + fraction);
}

/**
 * Canonical decimal64 text (RFC 7950 9.3.2): no leading '+', no leading zeros, at least one digit on each
 * side of the point, no trailing zeros after the first fraction digit.
 */
export function formatDecimal(scaled: bigint, fractionDigits: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(fractionDigits + 1, '0');
  const whole = digits.slice(0, digits.length - fractionDigits);
  let fraction = digits.slice(digits.length - fractionDigits).replace(/0+$/, '');
  if (fraction === '') fraction = '0';
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Formats a bound in the units of `base` (decimal64 scaled values as decimals). */
export function formatBound(
  value: bigint,
  base: BuiltinTypeName,
  fractionDigits: number | undefined,
): string {
  return base === 'decimal64' && fractionDigits !== undefined
    ? formatDecimal(value, fractionDigits)
    : value.toString();
}

/** Formats intervals as a YANG range argument, e.g. "1..10 | 20". */
export function formatIntervals(
  intervals: readonly Interval[],
  base: BuiltinTypeName = 'int64',
  fractionDigits?: number,
): string {
  return intervals
    .map((i) => {
      const lo = formatBound(i.min, base, fractionDigits);
      return i.min === i.max ? lo : `${lo}..${formatBound(i.max, base, fractionDigits)}`;
    })
    .join(' | ');
}

/** True when `value` lies in one of the closed intervals (a number compares exactly against bigint bounds). */
export function inIntervals(intervals: readonly Interval[], value: bigint | number): boolean {
  for (let k = 0; k < intervals.length; k++) {
    const i = intervals[k]!;
    if (value >= i.min && value <= i.max) return true;
  }
  return false;
}
