import { expect, test } from 'vitest';
import { RestconfError, type RestconfErrorCode, STATUS_EXCEPTIONS, statusOf } from '../src/errors.js';

/** RFC 8040 section 7, the error-tag table: the status of each tag (the first where it gives two). */
const RFC_8040_TABLE: readonly (readonly [string, number])[] = [
  ['in-use', 409],
  ['invalid-value', 400],
  ['too-big', 413],
  ['missing-attribute', 400],
  ['bad-attribute', 400],
  ['unknown-attribute', 400],
  ['bad-element', 400],
  ['unknown-element', 400],
  ['unknown-namespace', 400],
  ['access-denied', 403],
  ['lock-denied', 409],
  ['resource-denied', 409],
  ['rollback-failed', 500],
  ['data-exists', 409],
  ['data-missing', 409],
  ['operation-not-supported', 501],
  ['operation-failed', 500],
  ['partial-operation', 500],
  ['malformed-message', 400],
];

test.each(RFC_8040_TABLE)('error-tag %s is answered %i', (errorTag, status) => {
  expect(statusOf(errorTag)).toBe(status);
  expect(new RestconfError('REQUEST_INVALID', 'x', { errorTag }).status).toBe(status);
});

test('an error-tag outside the table is answered 500', () => {
  expect(statusOf('no-such-tag')).toBe(500);
});

/** The statuses other than the table's, each with the error-tag it comes with and the rule that sets it. */
const EXCEPTIONS: readonly (readonly [keyof typeof STATUS_EXCEPTIONS, string, number])[] = [
  ['not-found', 'invalid-value', 404],
  ['method-not-allowed', 'operation-not-supported', 405],
  ['not-acceptable', 'invalid-value', 406],
  ['request-timeout', 'operation-failed', 408],
  ['precondition-failed', 'operation-failed', 412],
  ['unsupported-media-type', 'invalid-value', 415],
  ['invalid-data', 'operation-failed', 400],
  ['unauthenticated', 'access-denied', 401],
  ['too-many-requests', 'resource-denied', 429],
  ['header-too-large', 'too-big', 431],
  ['bad-gateway', 'operation-failed', 502],
  ['unavailable', 'operation-failed', 503],
];

test.each(EXCEPTIONS)('reason %s makes %s %i', (reason, errorTag, status) => {
  expect(new RestconfError('REQUEST_INVALID', 'x', { errorTag, reason }).status).toBe(status);
});

test('every exception has a test row', () => {
  expect(Object.keys(STATUS_EXCEPTIONS).sort()).toEqual(EXCEPTIONS.map(([reason]) => reason).sort());
});

const CODE_STATUS: readonly (readonly [RestconfErrorCode, string, number])[] = [
  ['NOT_FOUND', 'invalid-value', 404],
  ['METHOD_NOT_ALLOWED', 'operation-not-supported', 405],
  ['NOT_ACCEPTABLE', 'invalid-value', 406],
  ['PRECONDITION_FAILED', 'operation-failed', 412],
  ['UNSUPPORTED_MEDIA_TYPE', 'invalid-value', 415],
];

test.each(CODE_STATUS)('code %s with %s is answered %i without a reason given', (code, errorTag, status) => {
  expect(new RestconfError(code, 'x', { errorTag }).status).toBe(status);
});
