import type { IncomingMessage } from 'node:http';

/**
 * The user a request was authenticated as, or undefined when the server does not authenticate.
 * Authentication happens before the handler (the application checks HTTP Basic credentials or
 * sets `req.user` / `req.remoteUser` like connect/express middleware), so an Authorization
 * header that reached the handler names a user that was already verified.
 */
export function requesterOf(req: IncomingMessage): string | undefined {
  const r = req as IncomingMessage & { user?: unknown; remoteUser?: unknown; auth?: { user?: unknown } };
  for (const v of [r.remoteUser, r.user, r.auth?.user]) if (typeof v === 'string' && v !== '') return v;
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (m === null) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * Who a request counts against in the limits per client: `user:<name>` for the user of
 * {@link requesterOf}, else `addr:<peer address>`, so that a client without credentials gets
 * the same share as one user rather than none or all. The Basic user is unchecked only on a
 * server without authentication, where a client that lies about its user spends that user's
 * share, never another's.
 */
export function clientOf(req: IncomingMessage): string {
  const user = requesterOf(req);
  return user === undefined ? `addr:${req.socket.remoteAddress ?? ''}` : `user:${user}`;
}
