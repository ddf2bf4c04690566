import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { SseOptionError, SseReadError } from './errors.js';
import type { SseEvent } from './types.js';

/** Default for {@link SseParserOptions.maxEventSize}: 1 MiB of text. */
export const DEFAULT_MAX_EVENT_SIZE = 1024 * 1024;

/** Callbacks and limits of {@link createSseParser}. */
export interface SseParserOptions {
  /** Called for every dispatched event, in stream order. */
  onEvent: (event: SseEvent) => void;
  /**
   * Called for every comment line with the text after the colon (and after one space, if any):
   * `:SSE keepalive` gives `SSE keepalive`.
   */
  onComment?: (comment: string) => void;
  /** Called for every valid `retry:` field, whether or not an event follows. */
  onRetry?: (retry: number) => void;
  /**
   * Largest event, in characters (UTF-16 code units) of decoded text, the parser accepts: it bounds
   * the buffered data of one event plus any unterminated line. Default 1 MiB.
   */
  maxEventSize?: number;
}

/** A push parser for `text/event-stream` bytes or text: no I/O, no timers, bounded buffering. */
export interface SseParser {
  /**
   * Feeds the next chunk: bytes (decoded as UTF-8, multibyte characters may be split across
   * chunks) or already decoded text. Callbacks run synchronously for every complete event.
   *
   * @throws {SseReadError} `EVENT_TOO_LARGE` when an event exceeds `maxEventSize` (the parser then
   *   refuses input until {@link SseParser.reset}); `INVALID_SOURCE` for a chunk of another type.
   */
  feed(chunk: Uint8Array | string): void;
  /** Signals the end of the stream: flushes the decoder and discards an unfinished event. */
  end(): void;
  /** Forgets all state, ready for a new stream (for example after reconnecting). */
  reset(): void;
}

const BOM = 0xfeff;
const CR = 13;

/**
 * Creates a push parser for the event stream format (WHATWG HTML, "Parsing an event stream") on top
 * of eventsource-parser, adding what a byte stream needs: streaming UTF-8 decoding, the optional
 * BOM, a CR at the very end of the stream, a size limit with a typed error, and `retry` attached
 * to the event it came with.
 *
 * An event's `retry` is the last valid `retry:` field seen since the previous event; `id` is set
 * only on events that carry an `id:` field (the reader does not remember the last event ID).
 */
export function createSseParser(options: SseParserOptions): SseParser {
  const { onEvent, onComment, onRetry } = options;
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_SIZE;
  if (!(maxEventSize > 0)) {
    throw new SseOptionError('maxEventSize', 'maxEventSize must be a positive number');
  }

  // ignoreBOM: the BOM is stripped below for text and bytes alike, and only at the stream start.
  let decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let started = false;
  // A CR that ended the last chunk, held back until the next one (see feedText).
  let heldCR = false;
  let pendingRetry: number | undefined;
  let overflowed = false;
  let failed = false;

  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      if (overflowed) return;
      // The buffer limit only covers text held between feeds; an event that arrives whole in one
      // chunk is measured here, so the limit does not depend on how the stream is chunked.
      if (message.data.length > maxEventSize) {
        overflowed = true;
        return;
      }
      onEvent(toEvent(message, pendingRetry));
      pendingRetry = undefined;
    },
    onRetry(retry: number) {
      pendingRetry = retry;
      onRetry?.(retry);
    },
    // Per the spec, unknown fields and malformed retry values are ignored; only the size limit is
    // fatal, because going on would mean buffering without bound.
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded') overflowed = true;
    },
    ...(onComment ? { onComment } : {}),
    maxBufferSize: maxEventSize,
  });
  disarmLatin1Bom();

  function feedText(text: string): void {
    if (text === '') return;
    if (!started) {
      started = true;
      // "The stream may start with a U+FEFF BYTE ORDER MARK", which is skipped.
      if (text.charCodeAt(0) === BOM) {
        text = text.slice(1);
        if (text === '') return;
      }
    }
    // A chunk that ends in CR may be half of a CR LF pair. eventsource-parser waits for the next
    // chunk in that case, but loses an empty comment line (`:` CR) that way, so the CR is held
    // here and fed together with what follows it.
    if (heldCR) text = `\r${text}`;
    heldCR = text.charCodeAt(text.length - 1) === CR;
    if (heldCR) text = text.slice(0, -1);
    parser.feed(text);
    if (overflowed) fail();
  }

  function fail(): never {
    failed = true;
    throw new SseReadError('EVENT_TOO_LARGE', `An event exceeded the limit of ${maxEventSize} characters`);
  }

  return {
    feed(chunk) {
      if (failed) fail();
      if (typeof chunk === 'string') {
        feedText(chunk);
      } else if (ArrayBuffer.isView(chunk)) {
        // isView rather than instanceof: chunks may come from another realm (a vm context, a worker).
        feedText(decoder.decode(chunk, { stream: true }));
      } else {
        throw new SseReadError('INVALID_SOURCE', 'An event stream chunk must be a Uint8Array or a string');
      }
    },
    end() {
      if (failed) return;
      feedText(decoder.decode());
      // At the end of the stream a held CR is a complete line break (CR LF is one line break).
      if (heldCR) feedText('\n');
      reset();
    },
    reset,
  };

  // eventsource-parser strips the three characters U+00EF U+00BB U+00BF (a BOM's bytes read as
  // Latin-1) from its first chunk only. The BOM is handled above on decoded text, so that check
  // would only eat real characters, and only when they happen to arrive in the first chunk; an
  // empty first feed turns it off.
  function disarmLatin1Bom(): void {
    parser.feed('');
  }

  function reset(): void {
    parser.reset();
    disarmLatin1Bom();
    decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    started = false;
    heldCR = false;
    pendingRetry = undefined;
    overflowed = false;
    failed = false;
  }
}

function toEvent(message: EventSourceMessage, retry: number | undefined): SseEvent {
  const event: SseEvent = { data: message.data };
  if (message.event !== undefined) event.event = message.event;
  if (message.id !== undefined) event.id = message.id;
  if (retry !== undefined) event.retry = retry;
  return event;
}
