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
 * HTTP Basic authentication (RFC 7617) for one user: returns a check that answers 401 with a
 * `WWW-Authenticate` challenge and returns false when the request does not carry the credentials.
 */
export function basicAuth(
  user: string,
  password: string,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const header = req.headers.authorization ?? '';
    const m = /^Basic +([A-Za-z0-9+/=]{1,1024})$/i.exec(header);
    if (m !== null) {
      const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0 && same(decoded.slice(0, colon), user) && same(decoded.slice(colon + 1), password))
        return true;
    }
    req.resume();
    res.writeHead(401, {
      'WWW-Authenticate': 'Basic realm="restconf", charset="UTF-8"',
      'Content-Type': 'application/yang-data+json',
      'Cache-Control': 'no-cache',
    });
    res.end(DENIED);
    return false;
  };
}
