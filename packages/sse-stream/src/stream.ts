import { createSseParser } from './sse-parser.js';
import type { SseEvent } from './types.js';

/** Options of {@link SseEventStream}. */
export interface SseEventStreamOptions {
  /** Largest event in characters of decoded text; default 1 MiB. */
  maxEventSize?: number;
  /** Called for every comment line, for example the keepalive `:SSE keepalive`. */
  onComment?: (comment: string) => void;
  /** Called for every valid `retry:` field. */
  onRetry?: (retry: number) => void;
}

/**
 * A web `TransformStream` from event stream bytes (or text) to events, for pipelines:
 *
 * ```ts
 * const events = response.body!.pipeThrough(new SseEventStream());
 * ```
 *
 * A chunk that breaks the size limit errors the stream with {@link SseReadError}.
 */
export class SseEventStream extends TransformStream<Uint8Array | string, SseEvent> {
  constructor(options: SseEventStreamOptions = {}) {
    let parser: ReturnType<typeof createSseParser> | undefined;
    super({
      start(controller) {
        parser = createSseParser({
          onEvent: (event) => controller.enqueue(event),
          ...(options.onComment ? { onComment: options.onComment } : {}),
          ...(options.onRetry ? { onRetry: options.onRetry } : {}),
          ...(options.maxEventSize !== undefined ? { maxEventSize: options.maxEventSize } : {}),
        });
      },
      transform(chunk) {
        parser?.feed(chunk);
      },
      flush() {
        parser?.end();
      },
    });
  }
}

export type { SseEvent } from './types.js';
