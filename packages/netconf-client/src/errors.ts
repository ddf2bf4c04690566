/**
 * Stable error codes of @yangkit/netconf-client. Callers match on `code`, never on messages.
 *
 * | code | meaning |
 * |---|---|
 * | `FRAMING` | a malformed RFC 6242 frame (bad chunk header, bytes outside a chunk) |
 * | `MESSAGE_TOO_LARGE` | a message exceeded `maxMessageBytes` |
 * | `XML_PARSE` | a message is not well-formed XML, or exceeds the depth limit |
 * | `XML_FORBIDDEN` | a message carries a DOCTYPE, an entity declaration or a processing instruction |
 * | `HELLO` | the peer's `<hello>` is missing, malformed or shares no base version |
 * | `MALFORMED_REPLY` | an `<rpc-reply>` that cannot be understood |
 * | `RPC_ERROR` | the server answered with one or more `<rpc-error>` elements ({@link NetconfRpcError}) |
 * | `RPC_TIMEOUT` | no reply within the per-RPC timeout |
 * | `RPC_ABORTED` | the caller aborted the RPC through its `AbortSignal` |
 * | `SESSION_CLOSED` | the session ended (closed, killed, transport lost) before or during the RPC |
 * | `CONNECT_FAILED` | the transport could not be opened (TCP, SSH handshake, subsystem) |
 * | `AUTH_FAILED` | the SSH server refused every offered authentication method |
 * | `HOST_KEY_MISMATCH` | the server's host key differs from the known or pinned key |
 * | `HOST_KEY_UNKNOWN` | no known key for the host and `hostKey: 'accept-any'` was not given |
 * | `INVALID_ARGUMENT` | an option or argument the caller passed is invalid |
 */
export type NetconfErrorCode =
  | 'FRAMING'
  | 'MESSAGE_TOO_LARGE'
  | 'XML_PARSE'
  | 'XML_FORBIDDEN'
  | 'HELLO'
  | 'MALFORMED_REPLY'
  | 'RPC_ERROR'
  | 'RPC_TIMEOUT'
  | 'RPC_ABORTED'
  | 'SESSION_CLOSED'
  | 'CONNECT_FAILED'
  | 'AUTH_FAILED'
  | 'HOST_KEY_MISMATCH'
  | 'HOST_KEY_UNKNOWN'
  | 'INVALID_ARGUMENT';

const marker = Symbol.for('@yangkit/netconf-client.error');

/** Base class of every error this package throws; `code` is stable, `cause` keeps the underlying error. */
export class NetconfError extends Error {
  readonly code: NetconfErrorCode;
  readonly [marker] = true;

  constructor(code: NetconfErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetconfError';
    this.code = code;
  }

  /** True for errors of this package, even from another copy of it installed side by side. */
  static isInstance(value: unknown): value is NetconfError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/**
 * One `<rpc-error>` of a reply (RFC 6241 section 4.3), with names from the RFC.
 */
export interface RpcErrorInfo {
  /** `transport`, `rpc`, `protocol` or `application`. */
  errorType: string;
  /** The error-tag, e.g. `data-exists`, `lock-denied`. */
  errorTag: string;
  /** `error` or `warning`. */
  errorSeverity: string;
  errorAppTag?: string;
  /** The error-path XPath expression as sent. */
  errorPath?: string;
  errorMessage?: string;
  /** The `xml:lang` of error-message, when given. */
  errorMessageLang?: string;
  /**
   * The `<error-info>` element: `xml` is its inner XML with namespace declarations pushed down;
   * `fields` maps the local name of each simple child (bad-element, bad-value, session-id, ...)
   * to its text; a name that repeats keeps the first value.
   */
  errorInfo?: { xml: string; fields: Record<string, string> };
}

/**
 * The server answered an RPC with `<rpc-error>`; `errors` keeps every error of the reply in order.
 * `message` is built from the first error.
 */
export class NetconfRpcError extends NetconfError {
  readonly errors: RpcErrorInfo[];
  /** The complete `<rpc-reply>` as received, for diagnostics. */
  readonly replyXml: string;

  constructor(errors: RpcErrorInfo[], replyXml: string) {
    const first = errors[0];
    const summary = first
      ? `${first.errorType}/${first.errorTag}${first.errorMessage ? `: ${first.errorMessage}` : ''}`
      : 'rpc-error';
    super('RPC_ERROR', errors.length > 1 ? `${summary} (+${errors.length - 1} more)` : summary);
    this.name = 'NetconfRpcError';
    this.errors = errors;
    this.replyXml = replyXml;
  }
}
