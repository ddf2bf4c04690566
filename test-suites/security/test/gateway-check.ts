import { type ClientHttp2Session, connect, constants } from 'node:http2';
import { errorsBody, patchStatusErrors, REQUEST_DEADLINE_MS, type Server } from './harness.js';
import type { FuzzRequest } from './requests.js';

/** What one request got back. */
export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/** Thrown by a {@link Send} for a request its client cannot put on the wire (an invalid header value). */
export class Unsendable extends Error {}

/** Sends one request to the gateway; rejects when no answer came within the deadline. */
export type Send = (r: FuzzRequest) => Promise<Answer>;

/** Counts over the requests checked. */
export interface GatewayFigures {
  tried: number;
  unsendable: number;
  accepted: number;
  rejected: number;
  serverErrors: number;
  changedByRejected: number;
  withoutErrorsBody: number;
  noAnswer: number;
  slowestMs: number;
}

export function gatewayFigures(): GatewayFigures {
  return {
    tried: 0,
    unsendable: 0,
    accepted: 0,
    rejected: 0,
    serverErrors: 0,
    changedByRejected: 0,
    withoutErrorsBody: 0,
    noAnswer: 0,
    slowestMs: 0,
  };
}

/** A request that broke a property of the gateway. */
export interface GatewayFinding {
  readonly kind: '5xx' | 'no-answer' | 'no-errors-body' | 'datastore-changed';
  readonly request: FuzzRequest;
  readonly detail: string;
}

/** The bytes of a request body: `binary` bodies are text whose characters are bytes. */
export function bodyBytes(r: FuzzRequest): string | Buffer | undefined {
  if (r.body === undefined) return undefined;
  return r.binary === true ? Buffer.from(r.body, 'latin1') : r.body;
}

/**
 * Sends `r` and checks what every answer must satisfy: an answer within the deadline, never 5xx
 * while the embedded backend is healthy, an `ietf-restconf:errors` body with every 4xx (or, for a
 * YANG Patch, the `yang-patch-status` holding them; none where RFC 8040 gives none: HEAD, 405,
 * 406), and running and candidate unchanged after a rejected request (read over NETCONF before and
 * after).
 */
export async function checkRequest(
  s: Server,
  send: Send,
  r: FuzzRequest,
  figures: GatewayFigures,
): Promise<GatewayFinding | undefined> {
  const before = await s.snapshot();
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await send(r);
  } catch (error) {
    if (error instanceof Unsendable) {
      figures.unsendable++;
      return undefined;
    }
    figures.tried++;
    figures.noAnswer++;
    return { kind: 'no-answer', request: r, detail: (error as Error).message };
  }
  figures.tried++;
  figures.slowestMs = Math.max(figures.slowestMs, Math.round(performance.now() - started));
  const { status, contentType, text } = answer;
  if (status >= 500) {
    figures.serverErrors++;
    return { kind: '5xx', request: r, detail: `${status} ${text.slice(0, 500)}` };
  }
  if (status < 400) {
    figures.accepted++;
    return undefined;
  }
  figures.rejected++;
  if ((await s.snapshot()) !== before) {
    figures.changedByRejected++;
    return { kind: 'datastore-changed', request: r, detail: `answered ${status}` };
  }
  if (
    r.method !== 'HEAD' &&
    status !== 405 &&
    status !== 406 &&
    errorsBody(text, contentType) === undefined &&
    patchStatusErrors(text, contentType) === undefined
  ) {
    figures.withoutErrorsBody++;
    return { kind: 'no-errors-body', request: r, detail: `${status} ${text.slice(0, 500)}` };
  }
  return undefined;
}

/** A generated path as a request target in origin form (RFC 9112 section 3.2.1): it starts with `/`. */
function originForm(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/** Sends over HTTP/1.1 with fetch, as the gateway's URL resolves the generated path. */
export function http1Sender(s: Server): Send {
  return async (r) => {
    let url: URL;
    try {
      url = new URL(originForm(r.path), s.gateway.url);
    } catch {
      throw new Unsendable(`not a URL: ${r.path}`);
    }
    // `//host/...` names another server: not a request this client sends to the gateway.
    if (url.origin !== new URL(s.gateway.url).origin) throw new Unsendable(`another origin: ${r.path}`);
    let res: Response;
    const body = bodyBytes(r);
    try {
      res = await s.fetch(url.pathname + url.search, {
        method: r.method,
        headers: r.headers,
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      // fetch checks header values before it connects.
      if (error instanceof TypeError && error.cause === undefined) throw new Unsendable(error.message);
      throw error;
    }
    const contentType = res.headers.get('content-type');
    // An event stream stays open by design; its head is enough.
    if (contentType?.startsWith('text/event-stream') === true) {
      await res.body?.cancel();
      return { status: res.status, contentType, text: '' };
    }
    return { status: res.status, contentType, text: await res.text() };
  };
}

/** An HTTP/2 client of a TLS gateway: one session, one stream per request, the path sent as generated. */
export interface Http2Sender {
  readonly send: Send;
  close(): void;
}

export function http2Sender(s: Server, ca: string): Http2Sender {
  let session: ClientHttp2Session | undefined;
  const open = (): ClientHttp2Session => {
    if (session === undefined || session.closed || session.destroyed) {
      const h2 = connect(s.gateway.url, { ca });
      h2.on('error', () => undefined);
      session = h2;
    }
    return session;
  };
  const send: Send = (r) =>
    new Promise<Answer>((resolve, reject) => {
      const h2 = open();
      let stream: ReturnType<ClientHttp2Session['request']>;
      const path = originForm(r.path);
      const body = bodyBytes(r);
      try {
        // Node ends GET, HEAD and DELETE streams at once unless told otherwise.
        stream = h2.request(
          { ':method': r.method, ':path': path, ...r.headers },
          { endStream: body === undefined },
        );
      } catch (error) {
        reject(new Unsendable((error as Error).message));
        return;
      }
      const timer = setTimeout(() => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(new Error(`no answer within ${REQUEST_DEADLINE_MS} ms`));
      }, REQUEST_DEADLINE_MS);
      let status = 0;
      let contentType: string | null = null;
      const chunks: Buffer[] = [];
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
        contentType = (headers['content-type'] as string | undefined) ?? null;
        if (contentType?.startsWith('text/event-stream') === true) {
          clearTimeout(timer);
          stream.close(constants.NGHTTP2_CANCEL);
          resolve({ status, contentType, text: '' });
        }
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The end is told by 'close' with its RST_STREAM code.
      stream.on('error', () => undefined);
      stream.on('end', () => {
        clearTimeout(timer);
        resolve({ status, contentType, text: Buffer.concat(chunks).toString('utf8') });
      });
      // The gateway may reset a stream (NO_ERROR) once its answer is out (RFC 9113 section 8.1).
      stream.on('close', () => {
        clearTimeout(timer);
        if (status > 0) resolve({ status, contentType, text: Buffer.concat(chunks).toString('utf8') });
        // A request HTTP/2 itself calls malformed (a space in :path, say) is reset before the
        // application sees it (RFC 9113 section 8.1.1).
        else if (stream.rstCode === constants.NGHTTP2_PROTOCOL_ERROR)
          reject(new Unsendable('refused as malformed by HTTP/2'));
        else reject(new Error(`stream closed without an answer (RST_STREAM ${stream.rstCode})`));
      });
      if (body !== undefined) stream.end(body);
    });
  return {
    send,
    close: () => session?.close(),
  };
}
