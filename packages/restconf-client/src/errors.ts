/**
 * Stable error codes of @yangkit/restconf-client. Callers match on `code`, never on messages.
 *
 * | code | class | meaning |
 * |---|---|---|
 * | `HTTP_ERROR` | {@link RestconfResponseError} | the server answered 4xx/5xx; `errors` holds the `ietf-restconf:errors` entries |
 * | `NETWORK` | {@link RestconfClientError} | fetch failed: connection refused, TLS failure, connection dropped |
 * | `ABORTED` | {@link RestconfClientError} | the caller's `AbortSignal` fired |
 * | `DISCOVERY_FAILED` | {@link RestconfClientError} | host-meta gave no `restconf` link (RFC 8040 section 3.1) |
 * | `INVALID_RESPONSE` | {@link RestconfClientError} | a response body that does not parse as the media type it claims |
 * | `RESPONSE_TOO_LARGE` | {@link RestconfClientError} | a response body over `maxResponseBytes` |
 * | `INVALID_ARGUMENT` | {@link RestconfClientError} | a path, value or option the client cannot send |
 */
export type RestconfClientErrorCode =
  | 'HTTP_ERROR'
  | 'NETWORK'
  | 'ABORTED'
  | 'DISCOVERY_FAILED'
  | 'INVALID_RESPONSE'
  | 'RESPONSE_TOO_LARGE'
  | 'INVALID_ARGUMENT';

const marker = Symbol.for('@yangkit/restconf-client.error');

/** Base class of every error this package throws; `code` is stable, `cause` keeps the underlying error. */
export class RestconfClientError extends Error {
  /** Stable machine-readable code, see {@link RestconfClientErrorCode}. */
  readonly code: RestconfClientErrorCode;
  readonly [marker] = true;

  constructor(code: RestconfClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RestconfClientError';
    this.code = code;
  }

  /** True for errors of this package, even from another copy of it installed side by side. */
  static isInstance(value: unknown): value is RestconfClientError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** One entry of an `ietf-restconf:errors` body (RFC 8040 section 7.1). */
export interface RestconfErrorEntry {
  /** `transport`, `rpc`, `protocol` or `application`. */
  readonly errorType: string;
  /** The NETCONF error-tag, e.g. `data-exists`, `invalid-value`. */
  readonly errorTag: string;
  readonly errorAppTag?: string;
  /** The instance-identifier of the node concerned, as the server wrote it. */
  readonly errorPath?: string;
  readonly errorMessage?: string;
  /** `error-info` as decoded: a JSON object, or element names to text for XML. */
  readonly errorInfo?: Readonly<Record<string, unknown>>;
  /** The `edit-id` of the YANG Patch edit the error belongs to (RFC 8072 section 2.3). */
  readonly editId?: string;
}

/**
 * The server answered with a 4xx or 5xx status. `errors` holds the decoded
 * `ietf-restconf:errors` entries (empty when the body had none, e.g. a 405 without a body);
 * `errorTag` and friends repeat the first entry for convenience.
 */
export class RestconfResponseError extends RestconfClientError {
  /** The HTTP status code. */
  readonly status: number;
  /** The decoded error entries, in the order the server sent them. */
  readonly errors: readonly RestconfErrorEntry[];
  /** `error-tag` of the first entry. */
  readonly errorTag?: string;
  /** `error-type` of the first entry. */
  readonly errorType?: string;
  /** `error-app-tag` of the first entry. */
  readonly errorAppTag?: string;
  /** `error-path` of the first entry. */
  readonly errorPath?: string;
  /** `error-message` of the first entry. */
  readonly errorMessage?: string;
  /** The response headers (e.g. `Allow` of a 405). */
  readonly headers: Headers;
  /** The raw response body text. */
  readonly body: string;

  constructor(status: number, errors: readonly RestconfErrorEntry[], headers: Headers, body: string) {
    const first = errors[0];
    const detail = first
      ? `${first.errorTag}${first.errorMessage ? `: ${first.errorMessage}` : ''}${first.errorPath ? ` (${first.errorPath})` : ''}`
      : 'no error body';
    super('HTTP_ERROR', `HTTP ${status}: ${detail}`);
    this.name = 'RestconfResponseError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.body = body;
    if (first) {
      this.errorTag = first.errorTag;
      this.errorType = first.errorType;
      if (first.errorAppTag !== undefined) this.errorAppTag = first.errorAppTag;
      if (first.errorPath !== undefined) this.errorPath = first.errorPath;
      if (first.errorMessage !== undefined) this.errorMessage = first.errorMessage;
    }
  }

  /** True for response errors of this package, even from another copy of it. */
  static override isInstance(value: unknown): value is RestconfResponseError {
    return RestconfClientError.isInstance(value) && value.code === 'HTTP_ERROR';
  }
}
