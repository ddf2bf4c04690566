import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request the gateway answers itself, before the RESTCONF handler sees it. */
export interface Refusal {
  readonly status: number;
  /** The RFC 8040 section 7 error-tag, e.g. `access-denied`. */
  readonly errorTag: string;
  readonly message: string;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers a refused request with an `ietf-restconf:errors` body (RFC 8040 section 7.1) in JSON,
 * without reading its body.
 */
export function answerRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  req.resume();
  res.writeHead(refusal.status, {
    ...refusal.headers,
    'Content-Type': 'application/yang-data+json',
    'Cache-Control': 'no-cache',
  });
  res.end(
    JSON.stringify({
      'ietf-restconf:errors': {
        error: [
          { 'error-type': 'protocol', 'error-tag': refusal.errorTag, 'error-message': refusal.message },
        ],
      },
    }),
  );
}
