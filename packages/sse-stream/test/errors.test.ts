import { describe, expect, test } from 'vitest';
import { SseAbortError, SseError, SseFormatError, SseOptionError, SseReadError } from '../src/errors.js';

describe('errors', () => {
  test.each([
    [new SseFormatError('id', 'm'), 'INVALID_FIELD', 'SseFormatError'],
    [new SseOptionError('keepaliveSeconds', 'm'), 'INVALID_OPTION', 'SseOptionError'],
    [new SseReadError('EVENT_TOO_LARGE', 'm'), 'EVENT_TOO_LARGE', 'SseReadError'],
    [new SseAbortError('why'), 'ABORTED', 'AbortError'],
  ])('%s carries a stable code and name', (error, code, name) => {
    expect(error).toBeInstanceOf(SseError);
    expect({ code: error.code, name: error.name }).toEqual({ code, name });
  });

  test('isInstance recognises errors of the package and nothing else', () => {
    expect(SseError.isInstance(new SseReadError('INVALID_SOURCE', 'm'))).toBe(true);
    expect(SseError.isInstance(new Error('m'))).toBe(false);
    expect(SseError.isInstance(null)).toBe(false);
    expect(SseError.isInstance('INVALID_SOURCE')).toBe(false);
  });

  test('an abort error keeps the signal reason as its cause', () => {
    const reason = new Error('stop');
    expect(new SseAbortError(reason).cause).toBe(reason);
  });
});
