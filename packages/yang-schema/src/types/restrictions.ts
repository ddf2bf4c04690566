import { YangTypeError } from './errors';
import {
  formatBound,
  formatIntervals,
  LENGTH_BOUNDS,
  numericBounds,
  parseDecimalLexical,
  parseIntegerLexical,
} from './numbers';
import { translateXsdRegex } from './xsd-regex';
import type { BuiltinTypeName, ErrorInfo, Interval, PatternRestriction, RangeRestriction } from './yang-type';

/** Longest range/length argument accepted; real modules stay far below this. */
const MAX_RESTRICTION_TEXT = 4096;

/**
 * Parses a YANG range argument ("1..10 | 20..max", "min..-1", "0.5..9.99") for a base type (RFC 7950 9.2.4,
 * 9.3.4). `parent` is the restriction inherited from the typedef chain: "min"/"max" name its lowest and
 * highest values, and the new restriction must be a subset of it. Throws YangTypeError.
 */
export function parseRange(
  text: string,
  base: BuiltinTypeName,
  fractionDigits: number | undefined,
  parent: RangeRestriction | undefined,
  info?: ErrorInfo,
): RangeRestriction {
  const bounds = numericBounds(base);
  if (!bounds)
    throw new YangTypeError(`range "${clip(text)}": a range restriction is not allowed on type ${base}`);
  if (base === 'decimal64' && !isFractionDigits(fractionDigits)) {
    throw new YangTypeError(`range "${clip(text)}": decimal64 needs fraction-digits 1..18 (RFC 7950 9.3.4)`);
  }
  const parse =
    base === 'decimal64'
      ? (s: string) => parseDecimalLexical(s, fractionDigits!)
      : (s: string) => parseIntegerLexical(s);
  const allowed = parent ? parent.intervals : [bounds];
  const intervals = parseIntervals(text, 'range', parse, allowed, (v) =>
    formatBound(v, base, fractionDigits),
  );
  checkSubset(text, 'range', intervals, allowed, parent, base, fractionDigits);
  return withInfo({ intervals, text }, info);
}

/**
 * Parses a YANG length argument ("1..255", "0 | 4..max") (RFC 7950 9.4.4); bounds are non-negative integers
 * up to 18446744073709551615 counting characters for string and octets for binary. Throws YangTypeError.
 */
export function parseLength(
  text: string,
  parent: RangeRestriction | undefined,
  info?: ErrorInfo,
): RangeRestriction {
  const allowed = parent ? parent.intervals : [LENGTH_BOUNDS];
  const intervals = parseIntervals(
    text,
    'length',
    (s) => (/^\+?[0-9]+$/.test(s) ? parseIntegerLexical(s) : undefined),
    allowed,
    (v) => v.toString(),
  );
  checkSubset(text, 'length', intervals, allowed, parent, 'uint64', undefined);
  return withInfo({ intervals, text }, info);
}

/**
 * Builds a pattern restriction (RFC 7950 9.4.5, 9.4.6) from the XSD regular expression as written.
 * Throws YangTypeError when the expression cannot be translated.
 */
export function createPattern(source: string, invertMatch = false, info?: ErrorInfo): PatternRestriction {
  return withInfo({ source, regex: translateXsdRegex(source), invertMatch }, info);
}

/** True when `n` is a legal fraction-digits argument (RFC 7950 9.3.4: 1..18). */
export function isFractionDigits(n: number | undefined): n is number {
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= 18;
}

function parseIntervals(
  text: string,
  keyword: 'range' | 'length',
  parse: (s: string) => bigint | undefined,
  allowed: readonly Interval[],
  format: (v: bigint) => string,
): Interval[] {
  if (text.length > MAX_RESTRICTION_TEXT) {
    throw new YangTypeError(`${keyword} argument is longer than ${MAX_RESTRICTION_TEXT} characters`);
  }
  // "min" and "max" are the lowest and highest values of the type being restricted (RFC 7950 9.2.4).
  const lowest = allowed[0]!.min;
  const highest = allowed[allowed.length - 1]!.max;
  const bound = (raw: string): bigint => {
    if (raw === 'min') return lowest;
    if (raw === 'max') return highest;
    const v = parse(raw);
    if (v === undefined)
      throw new YangTypeError(`${keyword} "${clip(text)}": "${clip(raw)}" is not a valid bound`);
    return v;
  };
  const intervals: Interval[] = [];
  for (const part of text.split('|')) {
    const ends = part.split('..').map((s) => s.trim());
    if (ends.length > 2 || ends.some((e) => e === '')) {
      throw new YangTypeError(
        `${keyword} "${clip(text)}": "${clip(part.trim())}" is not "value" or "lower..upper"`,
      );
    }
    const min = bound(ends[0]!);
    const max = ends.length === 2 ? bound(ends[1]!) : min;
    if (min > max) {
      throw new YangTypeError(
        `${keyword} "${clip(text)}": lower bound ${format(min)} is greater than upper bound ${format(max)}`,
      );
    }
    const previous = intervals[intervals.length - 1];
    // RFC 7950 9.2.4: "each range boundary value MUST be greater than the previous one".
    if (previous && min <= previous.max) {
      throw new YangTypeError(
        `${keyword} "${clip(text)}": parts must be in ascending order and disjoint (${format(min)} follows ${format(previous.max)})`,
      );
    }
    intervals.push({ min, max });
  }
  return intervals;
}

function checkSubset(
  text: string,
  keyword: 'range' | 'length',
  intervals: readonly Interval[],
  allowed: readonly Interval[],
  parent: RangeRestriction | undefined,
  base: BuiltinTypeName,
  fractionDigits: number | undefined,
): void {
  for (const i of intervals) {
    if (allowed.some((a) => i.min >= a.min && i.max <= a.max)) continue;
    const shown = formatIntervals([i], base, fractionDigits);
    if (parent) {
      throw new YangTypeError(
        `${keyword} "${clip(text)}": ${shown} is not within the inherited ${keyword} "${clip(parent.text)}" ` +
          `(RFC 7950 9.2.4: a derived ${keyword} must be equally or more limiting)`,
      );
    }
    const space = keyword === 'length' ? 'length' : base;
    throw new YangTypeError(
      `${keyword} "${clip(text)}": ${shown} is outside the ${space} value space ${formatIntervals(allowed, base, fractionDigits)}`,
    );
  }
}

function withInfo<T extends object>(restriction: T, info: ErrorInfo | undefined): T & ErrorInfo {
  if (!info) return restriction;
  return {
    ...restriction,
    ...(info.errorMessage !== undefined ? { errorMessage: info.errorMessage } : {}),
    ...(info.errorAppTag !== undefined ? { errorAppTag: info.errorAppTag } : {}),
  };
}

/** Keeps error messages bounded when the offending text is huge. */
function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
