/**
 * Stable error codes of @yangkit/sse-stream. Callers match on `code`, never on messages.
 *
 * | code | class | meaning |
 * |---|---|---|
 * | `INVALID_FIELD` | {@link SseFormatError} | an `event` or `id` value holds a line break, an `id` holds NUL, `retry` is not a non-negative integer, or a field has the wrong type |
 * | `INVALID_OPTION` | {@link SseOptionError} | an option is out of range (e.g. `keepaliveSeconds` not 0 or 5..3600) |
 * | `INVALID_SOURCE` | {@link SseReadError} | the reader was given something that is neither a byte/string async iterable nor a `ReadableStream`, or a chunk of another type |
 * | `EVENT_TOO_LARGE` | {@link SseReadError} | one event (or one unterminated line) exceeded `maxEventSize` |
 * | `ABORTED` | {@link SseAbortError} | the reader's `AbortSignal` fired |
 */
export type SseErrorCode =
  | 'INVALID_FIELD'
  | 'INVALID_OPTION'
  | 'INVALID_SOURCE'
  | 'EVENT_TOO_LARGE'
  | 'ABORTED';

const marker = Symbol.for('@yangkit/sse-stream.error');

/** Base class of every error this package throws; `code` is stable, `cause` keeps the underlying error. */
export class SseError extends Error {
  /** Stable machine-readable code, see {@link SseErrorCode}. */
  readonly code: SseErrorCode;
  readonly [marker] = true;

  constructor(code: SseErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SseError';
    this.code = code;
  }

  /** True for errors of this package, even from another copy of it installed side by side. */
  static isInstance(value: unknown): value is SseError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** An event cannot be written as `text/event-stream` without changing its meaning. */
export class SseFormatError extends SseError {
  /** The offending field. */
  readonly field: 'data' | 'event' | 'id' | 'retry' | 'comment';

  constructor(field: 'data' | 'event' | 'id' | 'retry' | 'comment', message: string) {
    super('INVALID_FIELD', message);
    this.name = 'SseFormatError';
    this.field = field;
  }
}

/** An option is outside its allowed range; the range-error of this package. */
export class SseOptionError extends SseError {
  /** Name of the offending option. */
  readonly option: string;

  constructor(option: string, message: string) {
    super('INVALID_OPTION', message);
    this.name = 'SseOptionError';
    this.option = option;
  }
}

/** The byte stream given to the reader cannot be turned into events. */
export class SseReadError extends SseError {
  constructor(code: 'INVALID_SOURCE' | 'EVENT_TOO_LARGE', message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'SseReadError';
  }
}

/**
 * Reading stopped because the caller's `AbortSignal` fired. Its `name` is `AbortError`, as for
 * `fetch`, so existing abort checks keep working; `cause` is the signal's reason.
 */
export class SseAbortError extends SseError {
  constructor(reason: unknown) {
    super('ABORTED', 'Reading the event stream was aborted', { cause: reason });
    this.name = 'AbortError';
  }
}
