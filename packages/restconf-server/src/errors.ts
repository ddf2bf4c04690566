/**
 * Error codes of this package (match on `code`, never on the message):
 *
 * | code | meaning |
 * | --- | --- |
 * | `REQUEST_INVALID` | the request is malformed for this resource (400) |
 * | `NOT_FOUND` | no resource or no instance at the target (404) |
 * | `METHOD_NOT_ALLOWED` | the method is not allowed on this resource (405, with Allow) |
 * | `NOT_ACCEPTABLE` | no media type of the Accept header can be produced (406) |
 * | `UNSUPPORTED_MEDIA_TYPE` | the Content-Type is not accepted here (415) |
 * | `BODY_MISMATCH` | the body does not match its Content-Type or the target (400) |
 * | `BODY_TOO_LARGE` | the request body exceeds `maxBodyBytes` (413) |
 * | `PRECONDITION_FAILED` | If-Match / If-Unmodified-Since / If-None-Match failed on an edit (412) |
 * | `DATA_EXISTS` | POST of a resource that already exists (409) |
 * | `DATA_MISSING` | the resource to change or delete does not exist |
 * | `OPERATION_NOT_SUPPORTED` | the backend cannot do what the request needs |
 * | `ACCESS_DENIED` | the requester may not do this, or is not authenticated (403 or 401 `access-denied`) |
 * | `RESOURCE_DENIED` | a limit refuses the request (409 `resource-denied`; 429/503 when the server is busy) |
 * | `BACKEND_FAILED` | the NETCONF backend failed or is unreachable |
 * | `INVALID_OPTION` | `createRestconfHandler` was given an unusable option |
 * | `INTERNAL` | an unexpected failure inside the handler (500) |
 */
export type RestconfErrorCode =
  | 'REQUEST_INVALID'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BODY_MISMATCH'
  | 'BODY_TOO_LARGE'
  | 'PRECONDITION_FAILED'
  | 'DATA_EXISTS'
  | 'DATA_MISSING'
  | 'OPERATION_NOT_SUPPORTED'
  | 'ACCESS_DENIED'
  | 'RESOURCE_DENIED'
  | 'BACKEND_FAILED'
  | 'INVALID_OPTION'
  | 'INTERNAL';

/** RFC 8040 section 7.1 `error-type`. */
export type ErrorType = 'transport' | 'rpc' | 'protocol' | 'application';

/** An error-path in both encodings (RFC 8040 section 7.1: an instance-identifier). */
export interface ErrorPathForms {
  /** RFC 7951 section 6.11 form, module names: `/example-jukebox:jukebox/library`. */
  readonly json: string;
  /** XML form with prefixes: `/jbox:jukebox/jbox:library`. */
  readonly xml: string;
  /** Prefix to namespace URI for the XML form. */
  readonly namespaces?: Readonly<Record<string, string>>;
}

/** Fields of a {@link RestconfError} beside its code and message. */
export interface RestconfErrorInit {
  readonly errorType?: ErrorType;
  readonly errorTag: string;
  readonly errorAppTag?: string | undefined;
  readonly errorPath?: ErrorPathForms | undefined;
  readonly errorInfo?: Readonly<Record<string, string>> | undefined;
  /**
   * Why the HTTP status is not the one the error-tag table gives (see {@link STATUS_EXCEPTIONS}).
   * The codes NOT_FOUND, METHOD_NOT_ALLOWED, NOT_ACCEPTABLE, UNSUPPORTED_MEDIA_TYPE and
   * PRECONDITION_FAILED carry theirs by default.
   */
  readonly reason?: StatusReason;
  /** For 405: the methods the resource allows (the Allow header). */
  readonly allow?: readonly string[];
  readonly cause?: unknown;
}

const MARKER = Symbol.for('@yangkit/restconf-server.RestconfError');

/**
 * One `ietf-restconf:errors` entry plus the HTTP status it is answered with. Errors from the other
 * packages (restconf-uri, the codec, yang-patch, NETCONF rpc-errors) are translated into this class.
 */
export class RestconfError extends Error {
  override readonly name = 'RestconfError';
  readonly code: RestconfErrorCode;
  readonly errorType: ErrorType;
  readonly errorTag: string;
  readonly errorAppTag: string | undefined;
  readonly errorPath: ErrorPathForms | undefined;
  readonly errorInfo: Readonly<Record<string, string>> | undefined;
  readonly status: number;
  readonly allow: readonly string[] | undefined;
  readonly [MARKER] = true;

  constructor(code: RestconfErrorCode, message: string, init: RestconfErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.errorType = init.errorType ?? 'protocol';
    this.errorTag = init.errorTag;
    this.errorAppTag = init.errorAppTag;
    this.errorPath = init.errorPath;
    this.errorInfo = init.errorInfo;
    this.status = statusOf(init.errorTag, init.reason ?? REASON_OF_CODE[code]);
    this.allow = init.allow;
  }

  /** The `error-message` text. */
  get errorMessage(): string {
    return this.message;
  }

  /** True for a RestconfError, also one from another copy of this package. */
  static isInstance(value: unknown): value is RestconfError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/**
 * RFC 8040 section 7 table: the HTTP status of each error-tag. Where the RFC gives two statuses the
 * first is the one here; the other comes with a {@link StatusReason}. `missing-element`, which the
 * table leaves out, is a bad-element of the same kind (400).
 */
export const ERROR_TAG_STATUS: Readonly<Record<string, number>> = {
  'in-use': 409,
  'invalid-value': 400,
  'too-big': 413,
  'missing-attribute': 400,
  'bad-attribute': 400,
  'unknown-attribute': 400,
  'missing-element': 400,
  'bad-element': 400,
  'unknown-element': 400,
  'unknown-namespace': 400,
  'access-denied': 403,
  'lock-denied': 409,
  'resource-denied': 409,
  'rollback-failed': 500,
  'data-exists': 409,
  'data-missing': 409,
  'operation-not-supported': 501,
  'operation-failed': 500,
  'partial-operation': 500,
  'malformed-message': 400,
};

/**
 * The cases in which an error is answered with another status than its error-tag's in
 * {@link ERROR_TAG_STATUS}, each by the RFC rule that says so. The one place such a status is set.
 */
export const STATUS_EXCEPTIONS = {
  /**
   * operation-failed: a body that breaks a YANG constraint (must, unique, min/max-elements: RFC 7950
   * section 15) is the client's error (RFC 9110 section 15.5.1); 500 would blame the server.
   */
  'invalid-data': 400,
  /** access-denied: the client is not authenticated (RFC 8040 sections 2.5 and 7, RFC 7235 section 3.1). */
  unauthenticated: 401,
  /** invalid-value: the target resource does not exist (RFC 8040 sections 4 and 7, RFC 8650 section 3.3). */
  'not-found': 404,
  /** operation-not-supported: the method is not one the resource allows, with Allow (RFC 8040 section 4). */
  'method-not-allowed': 405,
  /** invalid-value: no media type Accept allows can be produced (RFC 8040 section 5.2, RFC 9110 section 15.5.7). */
  'not-acceptable': 406,
  /** operation-failed: the request did not arrive whole within the request timeout (RFC 9110 section 15.5.9). */
  'request-timeout': 408,
  /** operation-failed: If-Match, If-None-Match or If-Unmodified-Since failed (RFC 8040 section 3.4.1, RFC 9110 section 13). */
  'precondition-failed': 412,
  /** invalid-value: the request body's Content-Type is not supported (RFC 8040 section 5.2, RFC 9110 section 15.5.16). */
  'unsupported-media-type': 415,
  /** resource-denied: the client has too many requests or failed logins, with Retry-After (RFC 6585 section 4). */
  'too-many-requests': 429,
  /** too-big: the request's header fields are larger than the server reads (RFC 6585 section 5). */
  'header-too-large': 431,
  /** operation-failed: the NETCONF backend answered something unusable (RFC 9110 section 15.6.3). */
  'bad-gateway': 502,
  /**
   * operation-failed or resource-denied: the server or its NETCONF backend cannot answer now
   * (connection lost, not started, logins queued), with Retry-After where a time is known (RFC 9110
   * section 15.6.4).
   */
  unavailable: 503,
} as const satisfies Readonly<Record<string, number>>;

/** Why an error's status is not its error-tag's: a key of {@link STATUS_EXCEPTIONS}. */
export type StatusReason = keyof typeof STATUS_EXCEPTIONS;

/** The codes that always stand for one {@link StatusReason}. */
const REASON_OF_CODE: Partial<Record<RestconfErrorCode, StatusReason>> = {
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'method-not-allowed',
  NOT_ACCEPTABLE: 'not-acceptable',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  PRECONDITION_FAILED: 'precondition-failed',
};

/** The HTTP status RFC 8040 section 7 assigns to an error-tag (500 for a tag it does not list). */
export function statusOfErrorTag(errorTag: string): number {
  return ERROR_TAG_STATUS[errorTag] ?? 500;
}

/** The HTTP status of an error: its reason's when it has one, else its error-tag's. */
export function statusOf(errorTag: string, reason?: StatusReason): number {
  return reason === undefined ? statusOfErrorTag(errorTag) : STATUS_EXCEPTIONS[reason];
}
