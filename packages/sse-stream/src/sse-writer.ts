import { BoundedQueue, joinChunks, type SseChunk } from './bounded-queue.js';
import { atEndOfTurn } from './end-of-turn.js';
import {
  formatComment,
  formatEvent,
  formatRetry,
  KEEPALIVE_COMMENT,
  OVERFLOW_COMMENT,
} from './format-event.js';
import type { SseEvent } from './types.js';
import { isUnsentResponse, writeSseHead } from './write-sse-head.js';
import {
  type ResolvedWriterOptions,
  resolveWriterOptions,
  type SseCloseInfo,
  type SseWriterOptions,
} from './writer-options.js';

/**
 * The part of a Node `Writable` or `http.ServerResponse` the writer uses: `write()` returning false
 * means "wait for `drain`"; `close` before `end()` means the client went away.
 */
export interface SseSink {
  write(chunk: SseChunk): boolean;
  end(): unknown;
  on(event: 'drain' | 'finish' | 'close' | 'error', listener: (...args: never[]) => void): unknown;
  removeListener(
    event: 'drain' | 'finish' | 'close' | 'error',
    listener: (...args: never[]) => void,
  ): unknown;
  readonly destroyed?: boolean;
  readonly writableEnded?: boolean;
}

/** Counters of a writer, read through {@link SseWriter.stats}. */
export interface SseWriterStats {
  /** UTF-8 bytes held in the writer's queue while the response waits for `drain`. */
  queuedBytes: number;
  /** Events and comments held in that queue. */
  queuedEvents: number;
  /** Events and comments discarded by the `drop-oldest` policy. */
  droppedEvents: number;
  /** Events and comments handed to the response, directly or after a `drain` (keepalives not counted). */
  sentEvents: number;
}

/** A `text/event-stream` writer over one response. */
export interface SseWriter {
  /**
   * Writes one event. Returns true when the event was written or queued, false when the writer
   * is closed (a no-op) or the event was discarded by the overflow policy.
   *
   * @throws {SseFormatError} `INVALID_FIELD` for an `event`/`id` with a line break, an `id` with
   *   NUL or a bad `retry`; nothing is written then.
   */
  send(event: SseEvent): boolean;
  /**
   * Writes one event already encoded by {@link encodeEvent}: an event sent to many streams is
   * formatted and encoded once, and every writer shares its bytes (which must not change after).
   * Same return value as {@link SseWriter.send}.
   */
  sendEncoded(event: Uint8Array): boolean;
  /** Writes a comment (each line prefixed by `:`); same return value as {@link SseWriter.send}. */
  comment(text: string): boolean;
  /**
   * Ends the stream after what is queued, stops the keepalive and calls `onClose` with reason
   * `end`. The promise settles at once (with {@link SseWriter.closed}), not when the client has
   * received the rest. Later calls return the same promise.
   */
  close(): Promise<SseCloseInfo>;
  /** Resolves when the queue is empty and the response accepts writes again, or the writer closed. */
  drained(): Promise<void>;
  /** Settles (never rejects) once the writer has closed, for whatever reason. */
  readonly closed: Promise<SseCloseInfo>;
  /** Whether the writer has closed; sends are then no-ops. */
  readonly isClosed: boolean;
  /** A snapshot of the queue and drop counters. */
  readonly stats: SseWriterStats;
}

const KEEPALIVE_LINE = formatComment(KEEPALIVE_COMMENT);
const OVERFLOW_LINE = formatComment(OVERFLOW_COMMENT);

/**
 * Creates an event stream writer on a Node `Writable` or `http.ServerResponse`. When given a
 * response whose head is not yet sent, it writes the event stream head first ({@link writeSseHead}).
 *
 * Backpressure: when `write()` returns false the writer stops writing and queues, up to
 * `maxQueuedBytes` / `maxQueuedEvents`, until `drain`; past a bound the `overflow` policy applies,
 * so a slow client never makes the server buffer without limit.
 *
 * @throws {SseOptionError} `INVALID_OPTION` for an option out of range.
 */
export function createSseWriter(sink: SseSink, options: SseWriterOptions = {}): SseWriter {
  return new EventStreamWriter(sink, resolveWriterOptions(options));
}

class EventStreamWriter implements SseWriter {
  readonly closed: Promise<SseCloseInfo>;
  #sink: SseSink;
  #options: ResolvedWriterOptions;
  #closeInfo: SseCloseInfo | undefined;
  #resolveClosed!: (info: SseCloseInfo) => void;
  #needDrain = false;
  #queue: BoundedQueue;
  #sent = 0;
  #drainWaiters: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(sink: SseSink, options: ResolvedWriterOptions) {
    this.#sink = sink;
    this.#options = options;
    this.#queue = new BoundedQueue(options.maxQueuedBytes, options.maxQueuedEvents, options.overflow);
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    sink.on('drain', this.#onDrain);
    sink.on('finish', this.#onSinkFinish);
    sink.on('close', this.#onSinkClose);
    sink.on('error', this.#onSinkError);
    if (sink.destroyed === true || sink.writableEnded === true) {
      this.#finish({ reason: 'disconnect' });
      return;
    }
    if (isUnsentResponse(sink)) writeSseHead(sink);
    if (options.retryMs !== undefined) this.#write(`retry: ${formatRetry(options.retryMs)}\n\n`, 0);
    if (options.keepaliveMs > 0) {
      this.#timer = setTimeout(this.#onKeepalive, options.keepaliveMs);
      // The response keeps the process alive while it is open; the timer alone must not.
      this.#timer.unref?.();
    }
  }

  get isClosed(): boolean {
    return this.#closeInfo !== undefined;
  }

  get stats(): SseWriterStats {
    return {
      queuedBytes: this.#queue.bytes,
      queuedEvents: this.#queue.length,
      droppedEvents: this.#queue.dropped,
      sentEvents: this.#sent,
    };
  }

  send(event: SseEvent): boolean {
    if (this.#closeInfo) return false;
    return this.#push(formatEvent(event));
  }

  sendEncoded(event: Uint8Array): boolean {
    if (this.#closeInfo) return false;
    return this.#push(event);
  }

  comment(text: string): boolean {
    if (this.#closeInfo) return false;
    return this.#push(formatComment(text));
  }

  close(): Promise<SseCloseInfo> {
    if (this.#closeInfo) return this.closed;
    const rest = this.#queue.take();
    this.#finish({ reason: 'end' });
    // The queue is bounded, so handing it over in one piece ahead of end() stays bounded too.
    if (rest.length > 0) this.#sink.write(joinChunks(rest));
    this.#sink.end();
    return this.closed;
  }

  drained(): Promise<void> {
    if (this.#closeInfo || (!this.#needDrain && this.#queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #push(text: SseChunk): boolean {
    if (this.#sink.writableEnded === true) {
      // Ended behind the writer's back; 'finish' may still be pending.
      this.#finish({ reason: 'end' });
      return false;
    }
    if (!this.#needDrain) {
      if (!this.#options.coalesceWrites) {
        this.#write(text, 1);
        return true;
      }
      // A burst past the bounds within one turn goes out now: the client is not behind.
      if (!this.#queue.fits(text)) this.#flush();
    }
    // Held while the response waits for drain, or until the end of the turn (coalesceWrites).
    const outcome = this.#queue.push(text);
    if (outcome === 'overflow') this.#overflowClose();
    else if (!this.#needDrain) atEndOfTurn(this.#flush);
    return outcome === 'queued';
  }

  /** Hands what is queued to the response in one write, unless it waits for drain. */
  #flush = (): void => {
    if (this.#closeInfo || this.#needDrain) return;
    if (this.#queue.length > 0) {
      const count = this.#queue.length;
      this.#write(joinChunks(this.#queue.take()), count);
    }
    if (!this.#needDrain) this.#releaseDrainWaiters();
  };

  /** Hands `text` to the response; `count` is how many events and comments it carries. */
  #write(text: SseChunk, count: number): void {
    this.#sent += count;
    if (!this.#sink.write(text)) this.#needDrain = true;
    // Any write counts as activity: the keepalive interval starts again.
    this.#timer?.refresh();
  }

  #onDrain = (): void => {
    if (this.#closeInfo) return;
    this.#needDrain = false;
    this.#flush();
  };

  #onKeepalive = (): void => {
    if (this.#closeInfo) return;
    // While the response is backed up the stream is not idle: a keepalive would only add bytes.
    if (this.#needDrain) {
      this.#timer?.refresh();
      return;
    }
    this.#write(KEEPALIVE_LINE, 0);
  };

  // The response was ended by someone else (for example the application calling res.end()).
  #onSinkFinish = (): void => {
    this.#finish({ reason: 'end' });
  };

  #onSinkClose = (): void => {
    this.#finish({ reason: 'disconnect' });
  };

  #onSinkError = (error: unknown): void => {
    // After the writer closed, a late error (EPIPE while flushing) is expected and ignored; the
    // listener stays so such an error never goes unhandled.
    this.#finish({ reason: 'error', error });
  };

  #overflowClose(): void {
    this.#finish({ reason: 'overflow' });
    // What the response already holds is still delivered, then a comment that says why the
    // stream ends; the queue behind it is discarded.
    this.#sink.write(OVERFLOW_LINE);
    this.#sink.end();
  }

  #finish(info: SseCloseInfo): void {
    if (this.#closeInfo) return;
    this.#closeInfo = info;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.clear();
    this.#sink.removeListener('drain', this.#onDrain);
    this.#sink.removeListener('finish', this.#onSinkFinish);
    this.#sink.removeListener('close', this.#onSinkClose);
    this.#releaseDrainWaiters();
    this.#resolveClosed(info);
    this.#options.onClose?.(info);
  }

  #releaseDrainWaiters(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
