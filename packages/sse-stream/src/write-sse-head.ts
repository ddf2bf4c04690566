/** Response headers as Node's `OutgoingHttpHeaders` takes them, without depending on Node's types. */
export type SseHeaders = Record<string, string | number | string[] | undefined>;

/** The part of `http.ServerResponse` (or `http2.Http2ServerResponse`) that {@link writeSseHead} uses. */
export interface SseResponseHead {
  readonly headersSent: boolean;
  writeHead(statusCode: number, headers: SseHeaders): unknown;
  flushHeaders?(): void;
}

/** Options of {@link writeSseHead}. */
export interface WriteSseHeadOptions {
  /** HTTP status code; default 200. */
  status?: number;
  /** Extra response headers, merged over the defaults. */
  headers?: SseHeaders;
}

/**
 * The response headers of an event stream: the media type, no caching anywhere on the way
 * (RFC 9111 `no-cache`), and `X-Accel-Buffering: no` so a reverse proxy (nginx and compatible)
 * passes each event on at once instead of buffering the never-ending body. No `Connection` header:
 * HTTP/1.1 keeps the connection by default and HTTP/2 forbids the header.
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/**
 * Writes the status line and headers of an event stream and flushes them, so the client sees the
 * response start before the first event. Does nothing when the headers were already sent.
 *
 * @returns whether the head was written by this call.
 */
export function writeSseHead(res: SseResponseHead, options: WriteSseHeadOptions = {}): boolean {
  if (res.headersSent) return false;
  res.writeHead(options.status ?? 200, { ...SSE_HEADERS, ...options.headers });
  res.flushHeaders?.();
  return true;
}

/** Whether a sink is an HTTP response whose head can still be written. */
export function isUnsentResponse(value: object): value is SseResponseHead {
  return (
    'headersSent' in value &&
    value.headersSent === false &&
    typeof (value as Partial<SseResponseHead>).writeHead === 'function'
  );
}
