import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The RESTCONF error body of a refused login (RFC 8040 section 7: access-denied is 401). */
const DENIED = JSON.stringify({
  'ietf-restconf:errors': {
    error: [
      { 'error-type': 'protocol', 'error-tag': 'access-denied', 'error-message': 'authentication required' },
    ],
  },
});

/**
 * The user name and password of an HTTP Basic `Authorization` header (RFC 7617 section 2), or
 * undefined when the request has none or it is malformed.
 */
export function basicCredentials(req: IncomingMessage): { user: string; password: string } | undefined {
  const m = /^Basic +([A-Za-z0-9+/=]{1,1024})$/i.exec(req.headers.authorization ?? '');
  if (m === null) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Records the user a request was authenticated as where the RESTCONF handler (and
 * connect/express middleware) looks for it: `req.remoteUser` and `req.user`.
 */
export function setRemoteUser(req: IncomingMessage, user: string): void {
  const r = req as IncomingMessage & { remoteUser?: string; user?: string };
  r.remoteUser = user;
  r.user = user;
}

/**
 * Answers 401 with an `access-denied` error body; with `challenge`, a Basic `WWW-Authenticate`
 * (RFC 7235 section 3.1). Without it the client can only authenticate with a certificate, for
 * which HTTP has no challenge.
 */
export function denyAccess(req: IncomingMessage, res: ServerResponse, challenge: boolean): void {
  req.resume();
  res.writeHead(401, {
    ...(challenge ? { 'WWW-Authenticate': 'Basic realm="restconf", charset="UTF-8"' } : {}),
    'Content-Type': 'application/yang-data+json',
    'Cache-Control': 'no-cache',
  });
  res.end(DENIED);
}

/**
 * HTTP Basic authentication (RFC 7617) for one user: returns a check that answers 401 with a
 * `WWW-Authenticate` challenge and returns false when the request does not carry the credentials.
 */
export function basicAuth(
  user: string,
  password: string,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const given = basicCredentials(req);
    if (given !== undefined && same(given.user, user) && same(given.password, password)) return true;
    denyAccess(req, res, true);
    return false;
  };
}
