import { describe, expect, test } from 'vitest';
import { RestconfUriError } from '../src/index.js';

describe('RestconfUriError', () => {
  test('defaults to invalid-value and status 400', () => {
    const error = new RestconfUriError('URI_BAD_IDENTIFIER', 'bad');
    expect(error.errorTag).toBe('invalid-value');
    expect(error.httpStatus).toBe(400);
    expect(error.errorType).toBe('protocol');
  });

  test('maps an unknown schema node to unknown-element with status 400', () => {
    const error = new RestconfUriError('PATH_UNKNOWN_NODE', 'unknown');
    expect(error.errorTag).toBe('unknown-element');
    expect(error.httpStatus).toBe(400);
  });

  test('maps a missing query parameter to missing-element', () => {
    expect(new RestconfUriError('QUERY_MISSING_PARAMETER', 'missing').errorTag).toBe('missing-element');
  });

  test('maps a resource that does not exist to status 404', () => {
    expect(new RestconfUriError('URI_RESOURCE_NOT_FOUND', 'none').httpStatus).toBe(404);
  });

  test('keeps the cause, offset and bad value', () => {
    const cause = new URIError('x');
    const error = new RestconfUriError('URI_BAD_PERCENT_ENCODING', 'bad', {
      cause,
      offset: 3,
      badValue: '%zz',
    });
    expect(error.cause).toBe(cause);
    expect(error.offset).toBe(3);
    expect(error.badValue).toBe('%zz');
  });

  test('is an Error named RestconfUriError', () => {
    const error = new RestconfUriError('URI_TOO_LONG', 'long');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RestconfUriError');
    expect(error.message).toBe('long');
  });

  test('recognizes its instances and nothing else', () => {
    expect(RestconfUriError.isInstance(new RestconfUriError('URI_TOO_LONG', 'x'))).toBe(true);
    expect(RestconfUriError.isInstance(new Error('x'))).toBe(false);
    expect(RestconfUriError.isInstance('URI_TOO_LONG')).toBe(false);
    expect(RestconfUriError.isInstance(null)).toBe(false);
  });

  test('recognizes an instance from another copy of the package by its marker', () => {
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('@yangkit/restconf-uri/error'), {
      value: true,
    });
    expect(RestconfUriError.isInstance(foreign)).toBe(true);
  });
});
