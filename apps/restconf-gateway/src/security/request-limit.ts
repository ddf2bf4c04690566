import type { IncomingMessage, ServerResponse } from 'node:http';

/** The RESTCONF error body of a refused request (RFC 8040 section 7, error-tag resource-denied). */
const DENIED = JSON.stringify({
  'ietf-restconf:errors': {
    error: [
      {
        'error-type': 'protocol',
        'error-tag': 'resource-denied',
        'error-message': 'too many requests in progress for this client',
      },
    ],
  },
});

/**
 * Who a request counts against: the user it was authenticated as (`req.remoteUser`: a verified
 * client certificate or Basic credentials; authentication runs before the limit), else the user
 * of its Basic credentials when it carries any, else the peer address. The Basic user is
 * unchecked only on a server without authentication, where a client that lies about its user
 * spends that user's share, never another's.
 */
export function clientOf(req: IncomingMessage): string {
  const authenticated = (req as IncomingMessage & { remoteUser?: unknown }).remoteUser;
  if (typeof authenticated === 'string' && authenticated !== '') return `user:${authenticated}`;
  const m = /^Basic +([A-Za-z0-9+/=]{1,1024})$/i.exec(req.headers.authorization ?? '');
  if (m !== null) {
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return `user:${decoded.slice(0, colon)}`;
  }
  return `addr:${req.socket.remoteAddress ?? ''}`;
}

/**
 * Bounds the requests (event streams included, as they stay open) that one client has in
 * progress. The returned check answers 429 with an `ietf-restconf:errors` body and returns false
 * when the client already has `max` requests open; otherwise it counts the request until its
 * response finishes or its connection closes, and returns true.
 */
export function requestLimit(max: number): (req: IncomingMessage, res: ServerResponse) => boolean {
  const open = new Map<string, number>();
  return (req, res) => {
    const client = clientOf(req);
    const n = open.get(client) ?? 0;
    if (n >= max) {
      req.resume();
      res.writeHead(429, {
        'Content-Type': 'application/yang-data+json',
        'Cache-Control': 'no-cache',
        'Retry-After': '1',
      });
      res.end(DENIED);
      return false;
    }
    open.set(client, n + 1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    };
    res.once('finish', release);
    res.once('close', release);
    return true;
  };
}
