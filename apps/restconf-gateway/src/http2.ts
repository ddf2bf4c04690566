import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  constants,
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ServerTls } from './security/tls-options.js';

/** Streams one HTTP/2 client may have open at once. */
export const MAX_CONCURRENT_STREAMS = 100;

/**
 * How long an HTTP/2 session in which the server answers no stream is kept before the server
 * closes it with GOAWAY: the counterpart of HTTP/1.1's keep-alive timeout, so idle connections,
 * and connections whose streams all wait for a client that sends nothing, do not pile up.
 */
export const SESSION_IDLE_MS = 60_000;

/** Why the server reset an HTTP/2 stream (RST_STREAM, RFC 9113 section 6.4). */
export type StreamResetReason =
  /** Answered before the client finished its request: NO_ERROR, RFC 9113 section 8.1. */
  | 'answered'
  /** The request did not arrive whole within the server's `requestTimeout`: CANCEL. */
  | 'request-timeout';

/** An HTTP/1.1 socket or an HTTP/2 session: one client connection. */
export interface Connection {
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Settings of {@link createHttp2Server}. */
export interface Http2ServerOptions {
  /** Milliseconds before an idle session is closed (default {@link SESSION_IDLE_MS}). */
  readonly sessionIdleMs?: number;
  /** Told of every stream the server resets, e.g. to count them. */
  readonly onStreamReset?: (reason: StreamResetReason) => void;
  /** Told of every new connection: an HTTP/2 session or an HTTP/1.1 socket. */
  readonly onConnection?: (connection: Connection) => void;
}

/**
 * A session's streams whose request has arrived whole and whose answer is not finished (the ones
 * the server works on), and the timer that closes the session once it has none.
 */
interface SessionState {
  answering: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The HTTP timeouts node:http2 also applies to the HTTP/1.1 connections of `allowHTTP1`. */
export type Http1Timeouts = Pick<Server, 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout'>;

/** The HTTP/2 server of the gateway, which also answers HTTP/1.1 clients. */
export type GatewayHttp2Server = Http2SecureServer & Http1Timeouts;

/** A request listener in node:http's types, as the RESTCONF handler and the auth checks take. */
export type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Stops the connections of a server that no longer listens. */
export interface ConnectionCloser {
  /**
   * Ends idle connections at once and the others once their requests are answered (HTTP/2
   * sessions get GOAWAY, RFC 9113 section 6.8); after `graceMs` ends whatever is left.
   */
  close(graceMs: number): void;
}

/**
 * The compat response lacks `destroyed`, which callers of a node:http response use to stop
 * writing to a client that left; take it from the stream.
 */
function withDestroyed(res: Http2ServerResponse): void {
  if ((res as { destroyed?: boolean }).destroyed === undefined)
    Object.defineProperty(res, 'destroyed', { get: () => res.stream.destroyed, configurable: true });
}

/**
 * An HTTPS server that speaks HTTP/2 and HTTP/1.1 on one port, chosen by ALPN (RFC 7301): `h2`
 * first, `http/1.1` for clients without HTTP/2. Requests of both reach `listener` through the
 * node:http2 compatibility API, whose request and response stand in for node:http's.
 *
 * HTTP/2 streams get the bounds node:http gives HTTP/1.1 requests: a stream answered before the
 * client ended its request is reset, a request that does not arrive whole within the server's
 * `requestTimeout` is reset, a session opens its first stream within `headersTimeout` (HEADERS
 * arrive whole, so this is when its headers are due), and a session in which the server answers
 * nothing is closed after the idle time.
 */
export function createHttp2Server(
  tls: ServerTls,
  listener: Listener,
  options: Http2ServerOptions = {},
): { server: GatewayHttp2Server; closer: ConnectionCloser } {
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const server = createSecureServer(
    {
      ...tls,
      allowHTTP1: true,
      ALPNProtocols: ['h2', 'http/1.1'],
      // node:http2 allows 2^32-1 streams per session; RFC 9113 section 6.5.2 suggests at least 100.
      settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
    },
    (req: Http2ServerRequest, res: Http2ServerResponse) => {
      if (req.httpVersionMajor === 2) withDestroyed(res);
      listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    },
  ) as GatewayHttp2Server;
  // node:http's default for idle HTTP/1.1 keep-alive connections; http2 leaves it unset.
  server.keepAliveTimeout = 5000;

  const reset = (stream: ServerHttp2Stream, reason: StreamResetReason): void => {
    stream.close(reason === 'answered' ? constants.NGHTTP2_NO_ERROR : constants.NGHTTP2_CANCEL);
    options.onStreamReset?.(reason);
  };
  const sessions = new Map<Http2Session, SessionState>();
  const idle = (session: Http2Session, state: SessionState, ms: number): void => {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => session.close(), ms);
    state.timer.unref();
  };
  server.on('session', (session: Http2Session) => {
    const state: SessionState = { answering: 0, timer: undefined };
    sessions.set(session, state);
    idle(session, state, Math.min(idleMs, server.headersTimeout || idleMs));
    session.once('close', () => {
      clearTimeout(state.timer);
      sessions.delete(session);
    });
    options.onConnection?.(session);
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    const session = stream.session;
    const state = session === undefined ? undefined : sessions.get(session);
    if (session === undefined || state === undefined) return;
    // Whether the client ended its request (END_STREAM). nghttp2 marks it only after the 'end'
    // event of that frame, so both are asked.
    let ended = stream.endAfterHeaders;
    const received = (): boolean => ended || stream.state.remoteClose === 1;
    let answering = false;
    const answer = (): void => {
      if (answering || stream.closed) return;
      answering = true;
      state.answering++;
      clearTimeout(state.timer);
    };
    if (ended) answer();
    else
      stream.once('end', () => {
        ended = true;
        answer();
      });
    const deadline =
      server.requestTimeout > 0
        ? setTimeout(() => {
            if (!received() && !stream.closed) reset(stream, 'request-timeout');
          }, server.requestTimeout)
        : undefined;
    deadline?.unref();
    // RFC 9113 section 8.1: once the response is complete the server may ask the client to stop
    // sending with RST_STREAM NO_ERROR; otherwise a client that never ends its request would hold
    // the stream, and with it the session, forever.
    stream.once('finish', () => {
      if (!received() && !stream.closed) reset(stream, 'answered');
    });
    stream.once('close', () => {
      clearTimeout(deadline);
      if (!answering) return;
      state.answering--;
      if (state.answering === 0 && !session.closed && !session.destroyed) idle(session, state, idleMs);
    });
  });
  // HTTP/1.1 connections and how many requests each has in progress.
  const http1 = new Map<Socket, number>();
  let closing = false;
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol === 'h2') return;
    http1.set(socket, 0);
    socket.once('close', () => http1.delete(socket));
    options.onConnection?.(socket);
  });
  server.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    if (req.httpVersionMajor !== 1) return;
    const socket = req.socket as Socket;
    http1.set(socket, (http1.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (http1.get(socket) ?? 1) - 1;
      if (closing && left === 0) socket.destroy();
      else if (http1.has(socket)) http1.set(socket, left);
    });
  });

  const closer: ConnectionCloser = {
    close(graceMs) {
      closing = true;
      for (const session of sessions.keys()) session.close();
      for (const [socket, open] of http1) if (open === 0) socket.destroy();
      const timer = setTimeout(() => {
        for (const session of sessions.keys()) session.destroy();
        for (const socket of http1.keys()) socket.destroy();
      }, graceMs);
      timer.unref();
      server.once('close', () => clearTimeout(timer));
    },
  };
  return { server, closer };
}

/** The {@link ConnectionCloser} of a node:http or node:https server. */
export function http1Closer(server: Server): ConnectionCloser {
  return {
    close(graceMs) {
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      timer.unref();
      server.once('close', () => clearTimeout(timer));
    },
  };
}
