import { SseFormatError } from './errors.js';
import type { SseEvent } from './types.js';

/** The keepalive comment text; on the wire it is the single line `:SSE keepalive`. */
export const KEEPALIVE_COMMENT = 'SSE keepalive';

/**
 * The comment that ends a stream closed by the `close` overflow policy: on the wire
 * `:SSE overflow: ...`, after what the response already held, then the response ends.
 */
export const OVERFLOW_COMMENT =
  'SSE overflow: the client read too slowly, its queue reached the bound; the stream ends';

// A line break in the event stream format (WHATWG HTML, "Parsing an event stream"): CRLF, LF or CR.
export const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Formats one event as `text/event-stream` text, ready to write.
 *
 * Wire format (one field per line, LF-terminated, a blank line dispatches the event):
 *
 * ```text
 * event: <event>        only when given
 * id: <id>              only when given
 * retry: <retry>        only when given
 * data: <line 1>        one field per line of data; CR, LF and CRLF all split
 * data: <line n>
 *                       blank line
 * ```
 *
 * A space always follows the colon, because readers strip exactly one leading space from a value:
 * data lines that start with a space, a colon or `data:` survive unchanged.
 *
 * @throws {SseFormatError} `INVALID_FIELD` when `event` or `id` holds CR or LF (it would end the
 *   field early and inject new fields), `id` holds NUL (readers ignore such an `id`), `retry`
 *   is not a non-negative safe integer, or a field is not a string at all.
 */
export function formatEvent(event: SseEvent): string {
  const head = formatHead(event);
  const { data } = event;
  // Checked for callers without types: a number or object here would be written as garbage.
  if (typeof data !== 'string') {
    throw new SseFormatError('data', 'The event data must be a string');
  }
  // Fast path: most payloads (compact JSON notifications) are a single line.
  if (!hasLineBreak(data)) {
    return `${head}${field('data', data)}\n`;
  }
  let body = '';
  for (const line of data.split(LINE_BREAK)) {
    body += field('data', line);
  }
  return `${head}${body}\n`;
}

/**
 * The fields of `event` before its data (`event:`, `id:`, `retry:`), each only when given.
 *
 * @throws {SseFormatError} as {@link formatEvent}.
 */
export function formatHead(event: Omit<SseEvent, 'data'>): string {
  let head = '';
  if (event.event !== undefined) {
    if (typeof event.event !== 'string' || hasLineBreak(event.event)) {
      throw new SseFormatError('event', 'The event type must be a string without CR or LF');
    }
    head += field('event', event.event);
  }
  if (event.id !== undefined) {
    if (typeof event.id !== 'string' || hasLineBreak(event.id) || event.id.includes('\0')) {
      throw new SseFormatError('id', 'The event id must be a string without CR, LF or NUL');
    }
    head += field('id', event.id);
  }
  if (event.retry !== undefined) {
    head += field('retry', formatRetry(event.retry));
  }
  return head;
}

/**
 * Formats one event ({@link formatEvent}) and encodes it as UTF-8 once, for
 * `SseWriter.sendEncoded` on many streams.
 *
 * @throws {SseFormatError} as {@link formatEvent}.
 */
export function encodeEvent(event: SseEvent): Uint8Array {
  return Buffer.from(formatEvent(event));
}

/**
 * Formats a comment: every line of `text` becomes a line starting with `:`, with nothing added
 * after the colon, so `formatComment(KEEPALIVE_COMMENT)` is exactly `:SSE keepalive\n`.
 * Comments dispatch nothing; clients ignore them, which keeps idle connections open.
 *
 * @throws {SseFormatError} `INVALID_FIELD` when `text` is not a string.
 */
export function formatComment(text: string): string {
  if (typeof text !== 'string') {
    throw new SseFormatError('comment', 'A comment must be a string');
  }
  if (!hasLineBreak(text)) {
    return `:${text}\n`;
  }
  let out = '';
  for (const line of text.split(LINE_BREAK)) {
    out += `:${line}\n`;
  }
  return out;
}

/**
 * The value of a `retry:` field. Readers accept only ASCII digits there (WHATWG HTML, "Processing
 * the field"), so anything but a non-negative integer would be silently ignored by the client.
 *
 * @throws {SseFormatError} `INVALID_FIELD` when `ms` is not a non-negative safe integer.
 */
export function formatRetry(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new SseFormatError('retry', 'The retry time must be a non-negative integer of milliseconds');
  }
  return String(ms);
}

// indexOf is a vectorised scan in V8, several times faster than a character-class regex on large data.
export function hasLineBreak(value: string): boolean {
  return value.indexOf('\n') !== -1 || value.indexOf('\r') !== -1;
}

/** One field line; an empty value is written without the space, leaving no trailing blank. */
export function field(name: string, value: string): string {
  return value === '' ? `${name}:\n` : `${name}: ${value}\n`;
}
