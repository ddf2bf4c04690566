import type { IncomingMessage } from 'node:http';
import type { Connection } from '../http2.js';

/** Connections that have not authenticated a request kept open at most, by default. */
export const MAX_UNAUTHENTICATED_CONNECTIONS = 1000;

/** The connections of a server that have not yet carried an authenticated request. */
export interface UnauthenticatedConnections {
  /** Counts a new connection; past the bound, the oldest unauthenticated one is closed. */
  opened(connection: Connection): void;
  /** The connection of `req` authenticated a request: it no longer counts. */
  authenticated(req: IncomingMessage): void;
}

/** The connection a request came on: its HTTP/2 session, else its socket. */
function connectionOf(req: IncomingMessage): unknown {
  return (req as { stream?: { session?: unknown } }).stream?.session ?? req.socket;
}

/**
 * Bounds the connections (TLS handshake done, HTTP/1.1 socket or HTTP/2 session) that have not
 * authenticated a request: credentials are checked per request, so a client that never sends
 * valid ones would otherwise keep as many connections as it likes. Closing the oldest one makes
 * room for the new, so a flood of idle connections cannot keep a real client from connecting
 * and authenticating, which takes one request.
 */
export function unauthenticatedConnections(max: number, onClosed?: () => void): UnauthenticatedConnections {
  // Insertion order is age: the first key is the oldest connection.
  const waiting = new Set<unknown>();
  return {
    opened(connection) {
      waiting.add(connection);
      connection.once('close', () => waiting.delete(connection));
      if (waiting.size <= max) return;
      const oldest = waiting.values().next().value as Connection;
      waiting.delete(oldest);
      oldest.destroy();
      onClosed?.();
    },
    authenticated(req) {
      waiting.delete(connectionOf(req));
    },
  };
}
