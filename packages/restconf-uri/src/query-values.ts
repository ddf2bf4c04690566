import { type DateAndTime, parseDateAndTime } from './date-time.js';
import { RestconfUriError } from './errors.js';

// Value parsers shared by the query parameters (RFC 8040 section 4.8); each throws a
// RestconfUriError naming the parameter.

/** A `QUERY_INVALID_VALUE` error naming the parameter, its value and why it is wrong. */
export function invalid(name: string, value: string | undefined, why: string): RestconfUriError {
  const shown = value === undefined ? 'no value' : `'${value}'`;
  return new RestconfUriError('QUERY_INVALID_VALUE', `query parameter '${name}' has ${shown}: ${why}`, {
    badElement: name,
    ...(value === undefined ? {} : { badValue: value }),
  });
}

/** The value of a parameter that needs a non-empty one. */
export function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw invalid(name, value, 'a value is required');
  return value;
}

/** The value of an enumeration parameter. */
export function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T {
  const v = required(name, value);
  if (!(allowed as readonly string[]).includes(v))
    throw invalid(name, v, `expected one of ${allowed.join(', ')}`);
  return v as T;
}

/** A parameter that takes no value (`with-etag` or `with-etag=`). */
export function flag(name: string, value: string | undefined): true {
  if (value !== undefined && value !== '') throw invalid(name, value, 'it takes no value');
  return true;
}

/** A positive decimal integer without leading zeros, at most `max`. */
export function integer(name: string, value: string | undefined, max: number, why: string): number {
  const v = required(name, value);
  const n = /^[1-9]\d{0,9}$/.test(v) ? Number(v) : Number.NaN;
  if (!(n <= max)) throw invalid(name, v, why);
  return n;
}

/** An RFC 3339 date-and-time value. */
export function dateTime(name: string, value: string | undefined): DateAndTime {
  const v = required(name, value);
  const parsed = parseDateAndTime(v);
  if (parsed === undefined)
    throw invalid(name, v, 'expected an RFC 3339 date-and-time like 2016-07-01T00:00:00Z');
  return parsed;
}

/** Runs a nested parser, re-throwing its error as one about parameter `name`. */
export function wrap<T>(name: string, value: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!RestconfUriError.isInstance(error)) throw error;
    throw new RestconfUriError(
      error.code === 'FIELDS_SYNTAX' ? 'FIELDS_SYNTAX' : 'QUERY_INVALID_VALUE',
      `query parameter '${name}' has '${value}': ${error.message}`,
      { badElement: name, badValue: value, cause: error },
    );
  }
}
