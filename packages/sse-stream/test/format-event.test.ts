import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SseFormatError } from '../src/errors.js';
import { formatComment, formatEvent, KEEPALIVE_COMMENT } from '../src/format-event.js';
import type { SseEvent } from '../src/types.js';

const fixtures = path.resolve(__dirname, 'fixtures/format-event');

describe('formatEvent golden cases', () => {
  for (const name of readdirSync(fixtures)) {
    test(`formats the ${name} case as in its golden file`, () => {
      const event = JSON.parse(readFileSync(path.join(fixtures, name, 'event.json'), 'utf8')) as SseEvent;
      const expected = readFileSync(path.join(fixtures, name, 'expected.txt'), 'utf8');
      expect(formatEvent(event)).toBe(expected);
    });
  }
});

describe('formatEvent', () => {
  test('rejects an event type holding LF', () => {
    expect(() => formatEvent({ data: 'x', event: 'a\nb' })).toThrowError(SseFormatError);
  });

  test('rejects an event type holding CR', () => {
    expect(() => formatEvent({ data: 'x', event: 'a\rdata: injected' })).toThrowError(/CR or LF/);
  });

  test('rejects an id holding a line break', () => {
    expect(() => formatEvent({ data: 'x', id: '1\r\n2' })).toThrowError(SseFormatError);
  });

  test('rejects an id holding NUL', () => {
    const error = captureError(() => formatEvent({ data: 'x', id: 'a\0b' }));
    expect(error).toBeInstanceOf(SseFormatError);
    expect(error).toMatchObject({ code: 'INVALID_FIELD', field: 'id' });
  });

  test.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects retry %s', (retry) => {
    expect(captureError(() => formatEvent({ data: 'x', retry }))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'retry',
    });
  });

  test.each([
    ['data', { data: 42 }],
    ['event', { data: 'x', event: null }],
    ['id', { data: 'x', id: 7 }],
  ])('rejects a %s that is not a string', (field, event) => {
    expect(captureError(() => formatEvent(event as unknown as SseEvent))).toMatchObject({
      code: 'INVALID_FIELD',
      field,
    });
  });

  test('accepts retry 0', () => {
    expect(formatEvent({ data: 'x', retry: 0 })).toBe('retry: 0\ndata: x\n\n');
  });

  test('formats the README example as the README says', () => {
    expect(formatEvent({ event: 'notification', id: '7', data: '<a>\n  <b/>\n</a>' })).toBe(
      'event: notification\nid: 7\ndata: <a>\ndata:   <b/>\ndata: </a>\n\n',
    );
  });

  test('keeps an empty event type as an empty field', () => {
    expect(formatEvent({ data: 'x', event: '' })).toBe('event:\ndata: x\n\n');
  });
});

describe('formatComment', () => {
  test('writes the keepalive comment as exactly one line', () => {
    expect(formatComment(KEEPALIVE_COMMENT)).toBe(':SSE keepalive\n');
  });

  test('prefixes every line of a multi-line comment with a colon', () => {
    expect(formatComment('one\r\ntwo\rthree\nfour')).toBe(':one\n:two\n:three\n:four\n');
  });

  test('writes an empty comment as a lone colon', () => {
    expect(formatComment('')).toBe(':\n');
  });
});

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
