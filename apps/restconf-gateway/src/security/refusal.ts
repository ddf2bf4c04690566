import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  answerErrors,
  type ErrorAnswerOptions,
  RestconfError,
  type StatusReason,
} from '@yangkit/restconf-server';
import type { GatewayOptions } from '../options.js';

/** A request the gateway answers itself, before the RESTCONF handler sees it. */
export interface Refusal {
  /** The RFC 8040 section 7 error-tag, e.g. `access-denied`; it gives the HTTP status. */
  readonly errorTag: 'access-denied' | 'resource-denied';
  /**
   * Why the status is not the error-tag's (restconf-server `STATUS_EXCEPTIONS`): `unauthenticated`
   * (401), `too-many-requests` (429), `unavailable` (503).
   */
  readonly reason?: StatusReason;
  readonly message: string;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How the gateway's own error answers are encoded: as the RESTCONF handler's. */
export type RefusalEncoding = Pick<ErrorAnswerOptions, 'defaultEncoding' | 'strictHeaders'>;

/** The encoding settings of the handler (`--restconf-default-encoding`, `--restconf-strict-headers`). */
export function refusalEncoding(options: GatewayOptions): RefusalEncoding {
  return {
    ...(options.restconfDefaultEncoding === undefined
      ? {}
      : { defaultEncoding: options.restconfDefaultEncoding }),
    ...(options.restconfStrictHeaders === undefined ? {} : { strictHeaders: options.restconfStrictHeaders }),
  };
}

/**
 * Answers a refused request with an `ietf-restconf:errors` body (RFC 8040 section 7.1) rendered as
 * the RESTCONF handler renders its own (Accept, else Content-Type, else the default encoding),
 * without reading its body.
 */
export function answerRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal,
  encoding: RefusalEncoding,
): void {
  const error = new RestconfError(
    refusal.errorTag === 'access-denied' ? 'ACCESS_DENIED' : 'RESOURCE_DENIED',
    refusal.message,
    { errorTag: refusal.errorTag, ...(refusal.reason === undefined ? {} : { reason: refusal.reason }) },
  );
  answerErrors(req, res, [error], {
    ...encoding,
    ...(refusal.headers === undefined ? {} : { headers: refusal.headers }),
  });
}
