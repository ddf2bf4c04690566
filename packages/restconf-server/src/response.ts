import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSseWriter, type SseWriter, type SseWriterOptions } from '@yangkit/sse-stream';
import { nextText, Slices } from '@yangkit/yang-json-codec';
import { errorsBody } from './error-body.js';
import type { RestconfError } from './errors.js';
import { dataMediaType, type Encoding } from './media.js';

/**
 * Formats IMF-fixdates (RFC 9110 section 5.6.7) from times in milliseconds. The text has a
 * resolution of one second, so each formatter reuses its last text within the same second.
 */
export function httpDateFormatter(): (ms: number) => string {
  let last = Number.NaN;
  let text = '';
  return (ms) => {
    const second = Math.floor(ms / 1000) * 1000;
    if (second !== last) {
      last = second;
      text = new Date(second).toUTCString();
    }
    return text;
  };
}

const responseDate = httpDateFormatter();

/**
 * Writes one response: the headers every RESTCONF response carries (RFC 8040 section 5:
 * Cache-Control, Date, and the request's Message-ID echoed), then a body that is written whole or
 * streamed chunk by chunk, waiting for `drain` when the socket is full.
 */
export class Responder {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly head: boolean;
  /** Status sent, for metrics. */
  status = 0;
  /** Called just before a success status line is written (late headers such as a new ETag). */
  onSend: (() => void) | undefined;
  /** True once the response is an event stream ({@link Responder.eventStream}). */
  streaming = false;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.req = req;
    this.res = res;
    this.head = req.method === 'HEAD';
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Pragma', 'no-cache');
    res.setHeader('Date', responseDate(Date.now()));
    const id = req.headers['message-id'];
    if (typeof id === 'string' && id.length <= 1024 && !/[\r\n]/.test(id)) res.setHeader('Message-ID', id);
  }

  /**
   * Turns the response into an SSE event stream: an RFC 8040 section 6.4 stream or an RFC 8650
   * section 3.3 subscription's. It stays open as long as its client does, so it counts as no
   * request being answered (the collection after big bodies does not wait for it).
   */
  eventStream(options: SseWriterOptions): SseWriter {
    this.status = 200;
    this.streaming = true;
    return createSseWriter(this.res, options);
  }

  /** Sets a header before the status line is written. */
  header(name: string, value: string | number | readonly string[]): this {
    this.res.setHeader(name, value);
    return this;
  }

  /** A response without a body (201, 204, 304, ...). */
  empty(status: number): void {
    this.before(status);
    this.status = status;
    this.res.statusCode = status;
    this.res.end();
  }

  /** A complete body. HEAD gets the same headers (Content-Length included) and no body. */
  text(status: number, contentType: string, body: string): void {
    this.before(status);
    this.status = status;
    this.res.statusCode = status;
    this.res.setHeader('Content-Type', contentType);
    this.res.setHeader('Content-Length', Buffer.byteLength(body));
    if (this.head) this.res.end();
    else this.res.end(body);
  }

  /**
   * A body produced chunk by chunk (the codec's ~64 KiB pieces), so that a large document never sits
   * whole in memory and other requests run between chunks. An empty chunk is the encoder's step of
   * work that writes nothing yet (judging a big list ahead of its first entry): nothing is written
   * for it, and other requests run once its slice is over (the codec's `nextText`).
   */
  async stream(status: number, contentType: string, chunks: Iterable<string>): Promise<void> {
    this.before(status);
    this.status = status;
    this.res.statusCode = status;
    this.res.setHeader('Content-Type', contentType);
    if (this.head) {
      this.res.end();
      return;
    }
    const it = chunks[Symbol.iterator]();
    const slices = new Slices();
    const first = await nextText(it, slices);
    if (first.done) {
      this.res.setHeader('Content-Length', 0);
      this.res.end();
      return;
    }
    const second = await nextText(it, slices);
    if (second.done) {
      // One chunk: send it with a Content-Length instead of chunked transfer coding.
      this.res.setHeader('Content-Length', Buffer.byteLength(first.value));
      this.res.end(first.value);
      return;
    }
    this.res.write(first.value);
    let next: IteratorResult<string> = second;
    while (!next.done) {
      if (this.res.destroyed) return;
      if (!this.res.write(next.value)) await drained(this.res);
      // A write the socket takes at once drains in a process.nextTick callback: without a turn of
      // the event loop here, the whole answer would be written before any other request is read.
      await slices.turn();
      next = await nextText(it, slices);
    }
    this.res.end();
  }

  private before(status: number): void {
    if (status < 300 && this.onSend !== undefined) this.onSend();
    this.onSend = undefined;
  }

  /** An `ietf-restconf:errors` body; the status is the first error's (405 adds Allow). */
  errors(errors: readonly RestconfError[], encoding: Encoding, indent: number): void {
    const first = errors[0]!;
    if (first.allow !== undefined) this.res.setHeader('Allow', first.allow.join(', '));
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    this.text(first.status, dataMediaType(encoding), errorsBody(errors, encoding, indent));
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
