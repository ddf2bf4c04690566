import type { IncomingMessage } from 'node:http';

/** A request as connect/express middleware and the gateway record its authenticated user. */
type RequestWithUser = IncomingMessage & { user?: unknown; remoteUser?: unknown; auth?: { user?: unknown } };

/**
 * The user a request was authenticated as, or undefined when the server does not authenticate.
 * Authentication happens before the handler, which records the user it verified as `req.user`,
 * `req.remoteUser` (connect/express middleware, the gateway) or `req.auth.user`: a user name
 * nobody verified (an Authorization header on a server without authentication) is no user,
 * unless the handler is told to trust it (`trustBasicUser`, see {@link recordBasicUser}).
 */
export function requesterOf(req: IncomingMessage): string | undefined {
  const r = req as RequestWithUser;
  for (const v of [r.remoteUser, r.user, r.auth?.user]) if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** The user name of an HTTP Basic Authorization header (RFC 7617 section 2), unverified; undefined without one. */
export function basicUserOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (m === null) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * Records the HTTP Basic user name as `req.remoteUser` when nothing recorded a user, as connect's
 * basicAuth does: for an application that checks Basic credentials in front of the handler
 * without recording whom it let in (`trustBasicUser`).
 */
export function recordBasicUser(req: IncomingMessage): void {
  if (requesterOf(req) !== undefined) return;
  const user = basicUserOf(req);
  if (user !== undefined) (req as RequestWithUser).remoteUser = user;
}

/**
 * Who a request counts against in the limits per client: `user:<name>` for the user of
 * {@link requesterOf}, else `addr:<peer address>`, so that a client without credentials gets
 * the same share as one user rather than none or all. Only a verified user has a share of its
 * own: on a server without authentication a client that sends a new made-up user name with
 * each request still spends its address's share.
 */
export function clientOf(req: IncomingMessage): string {
  const user = requesterOf(req);
  return user === undefined ? `addr:${req.socket.remoteAddress ?? ''}` : `user:${user}`;
}
