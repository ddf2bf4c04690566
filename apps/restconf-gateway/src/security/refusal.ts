import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerErrors, RestconfError } from '@yangkit/restconf-server';

/** A request the gateway answers itself, before the RESTCONF handler sees it. */
export interface Refusal {
  /**
   * The HTTP status. RFC 8040 section 7 gives `access-denied` 401 or 403; 429 and 503 (with
   * `Retry-After`) are HTTP's answers to load (RFC 6585 section 4, RFC 9110 section 15.6.4), which
   * the error-tag table does not cover.
   */
  readonly status: number;
  /** The RFC 8040 section 7 error-tag, e.g. `access-denied`. */
  readonly errorTag: string;
  readonly message: string;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers a refused request with an `ietf-restconf:errors` body (RFC 8040 section 7.1) rendered as
 * the RESTCONF handler renders its own (Accept, else Content-Type, else JSON), without reading its
 * body.
 */
export function answerRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const error = new RestconfError(
    refusal.errorTag === 'access-denied' ? 'ACCESS_DENIED' : 'RESOURCE_DENIED',
    refusal.message,
    { errorTag: refusal.errorTag, status: refusal.status },
  );
  answerErrors(req, res, [error], refusal.headers === undefined ? {} : { headers: refusal.headers });
}
