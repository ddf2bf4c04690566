/** A validated `yang:date-and-time` value (RFC 6991, profile of RFC 3339 section 5.6). */
export interface DateAndTime {
  /** The value exactly as written. */
  readonly text: string;
  /** Milliseconds since 1970-01-01T00:00:00Z (sub-millisecond digits truncated). */
  readonly epochMs: number;
  /** Nanoseconds since the epoch, for exact ordering. */
  readonly epochNs: bigint;
}

// The ietf-yang-types pattern; the fraction is capped so the value stays small.
const DATE_AND_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,18}))?(Z|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Parses an RFC 3339 date-and-time as YANG types it (`T` and `Z` upper case, numeric offset
 * `+hh:mm`), checking field ranges (month 1-12, day within the month, hour 0-23, minute 0-59,
 * second 0-60 for a leap second, offset up to 23:59). Returns undefined when invalid.
 */
export function parseDateAndTime(text: string): DateAndTime | undefined {
  const m = DATE_AND_TIME.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leapYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const monthDays = month === 2 && !leapYear ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (month < 1 || day < 1 || day > monthDays || hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[8]!.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const wholeMs = date.getTime();
  const fraction = (m[7] ?? '').padEnd(9, '0').slice(0, 9);
  const epochNs = BigInt(wholeMs) * 1_000_000n + BigInt(fraction);
  return { text, epochMs: wholeMs + Math.floor(Number(fraction) / 1e6), epochNs };
}
