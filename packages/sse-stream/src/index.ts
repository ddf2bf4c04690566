export type { SseChunk } from './bounded-queue.js';
export { encodeEventSteps } from './encode-event-steps.js';
export {
  SseAbortError,
  SseError,
  type SseErrorCode,
  SseFormatError,
  SseOptionError,
  SseReadError,
} from './errors.js';
export {
  encodeEvent,
  formatComment,
  formatEvent,
  KEEPALIVE_COMMENT,
  OVERFLOW_COMMENT,
} from './format-event.js';
export { type ReadSseOptions, readSse, type SseSource } from './read-sse.js';
export {
  createSseParser,
  DEFAULT_MAX_EVENT_SIZE,
  type SseParser,
  type SseParserOptions,
} from './sse-parser.js';
export { createSseWriter, type SseSink, type SseWriter, type SseWriterStats } from './sse-writer.js';
export type { SseEvent } from './types.js';
export {
  SSE_HEADERS,
  type SseHeaders,
  type SseResponseHead,
  type WriteSseHeadOptions,
  writeSseHead,
} from './write-sse-head.js';
export {
  KEEPALIVE_MAX_SECONDS,
  KEEPALIVE_MIN_SECONDS,
  type SseCloseInfo,
  type SseCloseReason,
  type SseOverflowPolicy,
  type SseWriterOptions,
} from './writer-options.js';
