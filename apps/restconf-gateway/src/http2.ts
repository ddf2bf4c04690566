import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
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
 * How long an HTTP/2 session with no open stream is kept before the server closes it with
 * GOAWAY: the counterpart of HTTP/1.1's keep-alive timeout, so idle connections do not pile up.
 */
export const SESSION_IDLE_MS = 60_000;

/** Settings of {@link createHttp2Server}. */
export interface Http2ServerOptions {
  /** Milliseconds before an idle session is closed (default {@link SESSION_IDLE_MS}). */
  readonly sessionIdleMs?: number;
}

/** A session's open streams and the timer that closes it once it has none. */
interface SessionState {
  open: number;
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

  const sessions = new Map<Http2Session, SessionState>();
  const idle = (session: Http2Session, state: SessionState): void => {
    state.timer = setTimeout(() => session.close(), idleMs);
    state.timer.unref();
  };
  server.on('session', (session: Http2Session) => {
    const state: SessionState = { open: 0, timer: undefined };
    sessions.set(session, state);
    idle(session, state);
    session.once('close', () => {
      clearTimeout(state.timer);
      sessions.delete(session);
    });
  });
  server.on('stream', (stream: ServerHttp2Stream) => {
    const session = stream.session;
    const state = session === undefined ? undefined : sessions.get(session);
    if (session === undefined || state === undefined) return;
    clearTimeout(state.timer);
    state.open++;
    stream.once('close', () => {
      state.open--;
      if (state.open === 0 && !session.closed && !session.destroyed) idle(session, state);
    });
  });
  // HTTP/1.1 connections and how many requests each has in progress.
  const http1 = new Map<Socket, number>();
  let closing = false;
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol === 'h2') return;
    http1.set(socket, 0);
    socket.once('close', () => http1.delete(socket));
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
