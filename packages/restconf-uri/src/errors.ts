/**
 * Errors raised by `@yangkit/restconf-uri`.
 *
 * Every failure is a {@link RestconfUriError}. Callers match on `code`; `errorTag` and
 * `httpStatus` are what a RESTCONF server puts in its `ietf-restconf:errors` body and status
 * line (RFC 8040 section 7), so a server only translates.
 *
 * | code | errorTag | httpStatus | raised when |
 * |---|---|---|---|
 * | `URI_TOO_LONG` | invalid-value | 400 | an input exceeds a configured size or count limit |
 * | `URI_BAD_PERCENT_ENCODING` | invalid-value | 400 | `%` not followed by two hex digits, or the bytes are not UTF-8 |
 * | `URI_BAD_IDENTIFIER` | invalid-value | 400 | a module or node name is not a YANG identifier |
 * | `URI_EMPTY_SEGMENT` | invalid-value | 400 | an api-path has an empty segment (`//`) |
 * | `URI_UNESCAPED_CHARACTER` | invalid-value | 400 | a raw `?` or `#` inside an api-path |
 * | `URI_RESOURCE_NOT_FOUND` | invalid-value | 404 | the request target names no RESTCONF resource |
 * | `QUERY_DUPLICATE_PARAMETER` | invalid-value | 400 | a query parameter appears more than once |
 * | `QUERY_UNKNOWN_PARAMETER` | invalid-value | 400 | an unprefixed query parameter RESTCONF does not define |
 * | `QUERY_PARAMETER_NOT_ALLOWED` | invalid-value | 400 | a parameter used with a method or resource type that does not allow it |
 * | `QUERY_INVALID_VALUE` | invalid-value | 400 | a parameter value outside its type |
 * | `QUERY_MISSING_PARAMETER` | missing-element | 400 | a parameter another one requires is absent |
 * | `FIELDS_SYNTAX` | invalid-value | 400 | the `fields` expression does not follow RFC 8040 section 4.8.3 |
 * | `PATH_MODULE_REQUIRED` | invalid-value | 400 | the first api-path segment has no module name |
 * | `PATH_UNKNOWN_NODE` | unknown-element | 400 | a segment names no schema node |
 * | `PATH_KEY_MISMATCH` | invalid-value | 400 | wrong number of key values, keys on a non-list, keys missing |
 * | `PATH_NOT_TRAVERSABLE` | invalid-value | 400 | a segment below a leaf, leaf-list, anydata, anyxml or action |
 * | `PATH_NOT_DATA` | invalid-value | 400 | an rpc or notification inside a data resource path |
 * | `PATH_NOT_OPERATION` | invalid-value | 400 | an operation resource naming a data node or notification |
 * | `FORMAT_UNREPRESENTABLE` | invalid-value | 400 | a value cannot be written in the requested output form |
 */
export type RestconfUriErrorCode =
  | 'URI_TOO_LONG'
  | 'URI_BAD_PERCENT_ENCODING'
  | 'URI_BAD_IDENTIFIER'
  | 'URI_EMPTY_SEGMENT'
  | 'URI_UNESCAPED_CHARACTER'
  | 'URI_RESOURCE_NOT_FOUND'
  | 'QUERY_DUPLICATE_PARAMETER'
  | 'QUERY_UNKNOWN_PARAMETER'
  | 'QUERY_PARAMETER_NOT_ALLOWED'
  | 'QUERY_INVALID_VALUE'
  | 'QUERY_MISSING_PARAMETER'
  | 'FIELDS_SYNTAX'
  | 'PATH_MODULE_REQUIRED'
  | 'PATH_UNKNOWN_NODE'
  | 'PATH_KEY_MISMATCH'
  | 'PATH_NOT_TRAVERSABLE'
  | 'PATH_NOT_DATA'
  | 'PATH_NOT_OPERATION'
  | 'FORMAT_UNREPRESENTABLE';

/** The RESTCONF `error-tag` values this package produces (RFC 8040 section 7). */
export type RestconfUriErrorTag =
  | 'invalid-value'
  | 'malformed-message'
  | 'unknown-element'
  | 'missing-element';

/** Optional details a RESTCONF server copies into `error-info` and `error-path`. */
export interface RestconfUriErrorDetails {
  /** Offset (UTF-16 code units) of the bad part in the text that was parsed. */
  readonly offset?: number;
  /** The offending text or value, as `error-info/bad-value`. */
  readonly badValue?: string;
  /** The offending element or parameter name, as `error-info/bad-element`. */
  readonly badElement?: string;
  /** Override of the HTTP status (defaults from the error tag). */
  readonly httpStatus?: number;
  /** Override of the error tag (defaults from the code). */
  readonly errorTag?: RestconfUriErrorTag;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

const MARKER = Symbol.for('@yangkit/restconf-uri/error');

const TAG_BY_CODE: Partial<Record<RestconfUriErrorCode, RestconfUriErrorTag>> = {
  QUERY_MISSING_PARAMETER: 'missing-element',
  PATH_UNKNOWN_NODE: 'unknown-element',
};

const STATUS_BY_CODE: Partial<Record<RestconfUriErrorCode, number>> = {
  URI_RESOURCE_NOT_FOUND: 404,
};

/**
 * The one error class of this package. `code` is stable; `errorTag` and `httpStatus` follow
 * RFC 8040 section 7 (every code here maps to 400 except `URI_RESOURCE_NOT_FOUND`, 404).
 */
export class RestconfUriError extends Error {
  /** Stable machine-readable code. */
  readonly code: RestconfUriErrorCode;
  /** RESTCONF `error-type`: request target problems are protocol errors. */
  readonly errorType = 'protocol' as const;
  /** RESTCONF `error-tag`. */
  readonly errorTag: RestconfUriErrorTag;
  /** HTTP status a server answers with. */
  readonly httpStatus: number;
  /** Offset of the bad part in the parsed text, when known. */
  readonly offset: number | undefined;
  /** The offending value, when known. */
  readonly badValue: string | undefined;
  /** The offending element or parameter name, when known. */
  readonly badElement: string | undefined;

  constructor(code: RestconfUriErrorCode, message: string, details: RestconfUriErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'RestconfUriError';
    this.code = code;
    this.errorTag = details.errorTag ?? TAG_BY_CODE[code] ?? 'invalid-value';
    this.httpStatus = details.httpStatus ?? STATUS_BY_CODE[code] ?? 400;
    this.offset = details.offset;
    this.badValue = details.badValue;
    this.badElement = details.badElement;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a `RestconfUriError` from any copy of this package (safe across duplicate installs). */
  static isInstance(value: unknown): value is RestconfUriError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}
