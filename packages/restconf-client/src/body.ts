import { RestconfClientError } from './errors.js';
import type { Encoding } from './types.js';

/** A value given as JSON text is parsed; anything else is taken as the JSON value itself. */
export function jsonValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new RestconfClientError('INVALID_ARGUMENT', `value is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * The request body of a value: in JSON, a JSON value (or its text, checked to parse); in XML,
 * the XML text as is (RFC 8040 section 4.4.1: one top-level element), which must start with one.
 */
export function encodeBody(value: unknown, encoding: Encoding): string {
  if (encoding === 'xml') {
    if (typeof value !== 'string') {
      throw new RestconfClientError('INVALID_ARGUMENT', 'an XML request takes the value as XML text');
    }
    // JSON cannot become XML without the modules' namespaces; say so rather than send it as XML.
    if (!/^\uFEFF?\s*</.test(value)) {
      throw new RestconfClientError(
        'INVALID_ARGUMENT',
        'an XML request takes the value as XML text (an element), not JSON: give XML, or send the value in JSON',
      );
    }
    return value;
  }
  if (typeof value === 'string') {
    jsonValue(value);
    return value;
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new RestconfClientError('INVALID_ARGUMENT', 'value has no JSON form');
  return text;
}
