import { createSseParser, type SseParserOptions } from '../src/sse-parser.js';
import type { SseEvent } from '../src/types.js';

/** What a parser reported, in order. */
export interface Parsed {
  events: SseEvent[];
  comments: string[];
  retries: number[];
}

/** Feeds `chunks` to a fresh parser, ends the stream and returns everything it reported. */
export function parseChunks(
  chunks: ReadonlyArray<Uint8Array | string>,
  options: Omit<SseParserOptions, 'onEvent' | 'onComment' | 'onRetry'> = {},
): Parsed {
  const parsed: Parsed = { events: [], comments: [], retries: [] };
  const parser = createSseParser({
    ...options,
    onEvent: (event) => parsed.events.push(event),
    onComment: (comment) => parsed.comments.push(comment),
    onRetry: (retry) => parsed.retries.push(retry),
  });
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return parsed;
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Each byte of `bytes` as its own chunk. */
export function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}
