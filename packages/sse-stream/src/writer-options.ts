import { SseOptionError } from './errors.js';

/** What the writer does when a slow client lets its queue reach a bound. */
export type SseOverflowPolicy = 'drop-oldest' | 'close';

/** Why an event stream writer closed. */
export type SseCloseReason =
  /** `close()` was called, or the response was ended directly: the stream ended normally. */
  | 'end'
  /** The client went away (the response or its connection closed before the end). */
  | 'disconnect'
  /** The client read too slowly and the `close` overflow policy applied. */
  | 'overflow'
  /** The response emitted an error. */
  | 'error';

/** What {@link SseWriterOptions.onClose} and {@link SseWriter.closed} report. */
export interface SseCloseInfo {
  reason: SseCloseReason;
  /** The response's error, for reason `error`. */
  error?: unknown;
}

/** Options of {@link createSseWriter}. */
export interface SseWriterOptions {
  /**
   * Seconds of idleness after which the comment `:SSE keepalive` is written: 0 (no keepalive,
   * the default) or an integer from 5 to 3600, the range of the `SSE_KEEPALIVE` setting. Every
   * write restarts the interval.
   */
  keepaliveSeconds?: number;
  /** Bound of the queue held while the response waits for `drain`, in UTF-8 bytes; default 1 MiB. */
  maxQueuedBytes?: number;
  /** Bound of the same queue in events and comments; default 1000. */
  maxQueuedEvents?: number;
  /**
   * Policy when the queue would pass a bound: `close` (default) ends the stream, so the client
   * reconnects with `Last-Event-ID` and can be replayed what it missed; `drop-oldest` discards
   * the oldest queued events to make room and counts them in `stats.droppedEvents`.
   */
  overflow?: SseOverflowPolicy;
  /** When set, a `retry:` field with this reconnection time (ms) is written first. */
  retryMs?: number;
  /**
   * Hand the events of one turn of the event loop to the response in one write (default false):
   * they are queued and written together at the end of the turn (or at once when they would pass
   * a bound of the queue), so a burst of events costs one write (one HTTP chunk, one syscall)
   * instead of one each. For a
   * server fanning events out to many clients; the events then reach the response at the end of
   * the turn, not at `send()`.
   */
  coalesceWrites?: boolean;
  /**
   * Called once, synchronously, as soon as the stream closes for any reason: release the upstream
   * (for example end the NETCONF subscription) here. It must not throw.
   */
  onClose?: (info: SseCloseInfo) => void;
}

/** Validated options with defaults applied. */
export interface ResolvedWriterOptions {
  keepaliveMs: number;
  maxQueuedBytes: number;
  maxQueuedEvents: number;
  overflow: SseOverflowPolicy;
  retryMs: number | undefined;
  coalesceWrites: boolean;
  onClose: ((info: SseCloseInfo) => void) | undefined;
}

/** Keepalive range of the `SSE_KEEPALIVE` parameter: uint16, `0 | 5..3600` seconds. */
export const KEEPALIVE_MIN_SECONDS = 5;
/** Upper end of the keepalive range. */
export const KEEPALIVE_MAX_SECONDS = 3600;

/** @throws {SseOptionError} `INVALID_OPTION` for any option out of range. */
export function resolveWriterOptions(options: SseWriterOptions): ResolvedWriterOptions {
  const keepalive = options.keepaliveSeconds ?? 0;
  if (
    !Number.isInteger(keepalive) ||
    (keepalive !== 0 && (keepalive < KEEPALIVE_MIN_SECONDS || keepalive > KEEPALIVE_MAX_SECONDS))
  ) {
    throw new SseOptionError(
      'keepaliveSeconds',
      `keepaliveSeconds must be 0 or an integer from ${KEEPALIVE_MIN_SECONDS} to ${KEEPALIVE_MAX_SECONDS}, got ${String(keepalive)}`,
    );
  }
  const maxQueuedBytes = positiveInteger('maxQueuedBytes', options.maxQueuedBytes, 1024 * 1024);
  const maxQueuedEvents = positiveInteger('maxQueuedEvents', options.maxQueuedEvents, 1000);
  const overflow = options.overflow ?? 'close';
  if (overflow !== 'close' && overflow !== 'drop-oldest') {
    throw new SseOptionError(
      'overflow',
      `overflow must be 'close' or 'drop-oldest', got ${String(overflow)}`,
    );
  }
  const { retryMs } = options;
  if (retryMs !== undefined && (!Number.isSafeInteger(retryMs) || retryMs < 0)) {
    throw new SseOptionError('retryMs', `retryMs must be a non-negative integer, got ${String(retryMs)}`);
  }
  return {
    keepaliveMs: keepalive * 1000,
    maxQueuedBytes,
    maxQueuedEvents,
    overflow,
    retryMs,
    coalesceWrites: options.coalesceWrites === true,
    onClose: options.onClose,
  };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SseOptionError(name, `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
