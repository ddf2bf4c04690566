import { SseAbortError, SseReadError } from './errors.js';
import { createSseParser } from './sse-parser.js';
import type { SseEvent } from './types.js';

/** A source of event stream bytes: a fetch body, a Node readable, or any async iterable of chunks. */
export type SseSource = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** Options of {@link readSse}. */
export interface ReadSseOptions {
  /** Stops reading: the iteration throws {@link SseAbortError} and the source is cancelled. */
  signal?: AbortSignal;
  /** Largest event in characters of decoded text; see {@link SseParserOptions.maxEventSize}. */
  maxEventSize?: number;
  /** Called for every comment line (for example the keepalive `:SSE keepalive`). */
  onComment?: (comment: string) => void;
  /** Called for every valid `retry:` field. */
  onRetry?: (retry: number) => void;
}

interface ChunkSource {
  next(): Promise<IteratorResult<Uint8Array | string>>;
  cancel(): Promise<void>;
}

/**
 * Reads a `text/event-stream` body as events. Reading is pulled by the consumer: the next chunk is
 * read only when the events of the previous one have been taken, so a slow consumer slows the
 * source instead of filling memory. Leaving the loop early (or aborting) cancels the source.
 *
 * @example
 * ```ts
 * const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
 * for await (const event of readSse(response.body!)) console.log(event.event, event.data);
 * ```
 *
 * @throws {SseReadError} `EVENT_TOO_LARGE` when one event exceeds `maxEventSize`;
 *   `INVALID_SOURCE` for a source or chunk of the wrong type.
 * @throws {SseAbortError} when `signal` fires.
 */
export async function* readSse(source: SseSource, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  const { signal } = options;
  const events: SseEvent[] = [];
  const parser = createSseParser({
    onEvent: (event) => events.push(event),
    ...(options.onComment ? { onComment: options.onComment } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.maxEventSize !== undefined ? { maxEventSize: options.maxEventSize } : {}),
  });
  const chunks = openSource(source);

  let rejectAbort: ((error: SseAbortError) => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    rejectAbort = reject;
  });
  // Only ever observed through Promise.race; keep an unobserved rejection quiet.
  aborted.catch(() => {});
  const onAbort = (): void => rejectAbort?.(new SseAbortError(signal?.reason));
  signal?.addEventListener('abort', onAbort, { once: true });

  let done = false;
  let reading = false;
  try {
    for (;;) {
      if (signal?.aborted) throw new SseAbortError(signal.reason);
      reading = true;
      const result = await Promise.race([chunks.next(), aborted]);
      reading = false;
      if (result.done) {
        done = true;
        parser.end();
      } else {
        parser.feed(result.value);
      }
      // Events are taken in order; the array is emptied before the next chunk is read.
      for (let i = 0; i < events.length; i++) {
        yield events[i]!;
        if (signal?.aborted) throw new SseAbortError(signal.reason);
      }
      events.length = 0;
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!done) {
      // A read still pending (abort) may never settle, and an async generator's return() would
      // queue behind it: cancel without waiting then.
      const cancelled = chunks.cancel().catch(() => {});
      if (!reading) await cancelled;
    }
  }
}

function openSource(source: SseSource): ChunkSource {
  if (isReadableStream(source)) {
    const reader = source.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      cancel: () => reader.cancel(),
    };
  }
  if (source !== null && typeof source === 'object' && Symbol.asyncIterator in source) {
    const iterator = source[Symbol.asyncIterator]();
    return {
      next: () => iterator.next(),
      cancel: async () => {
        await iterator.return?.();
      },
    };
  }
  throw new SseReadError('INVALID_SOURCE', 'readSse needs a ReadableStream or an async iterable of chunks');
}

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as ReadableStream<Uint8Array>).getReader === 'function'
  );
}
