/** Stable codes of {@link GatewayError}. */
export type GatewayErrorCode =
  /** A command-line flag or config file entry is unknown or has a bad value (exit code 2). */
  | 'INVALID_FLAG'
  /** The config file cannot be read or is not a JSON object (exit code 2). */
  | 'INVALID_CONFIG'
  /** A file named by a flag (password, key, startup data) cannot be read or parsed. */
  | 'FILE'
  /** The YANG modules do not load or compile. */
  | 'SCHEMA'
  /** The NETCONF backend cannot be reached or refused the gateway. */
  | 'BACKEND'
  /** The HTTP server cannot listen on the address. */
  | 'LISTEN';

const MARKER = Symbol.for('@yangkit/restconf-gateway/error');

/**
 * The only error the gateway throws itself; `code` says what failed and `cause` keeps the
 * library error behind it. Callers match on `code`.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  /** What failed. */
  readonly code: GatewayErrorCode;
  constructor(code: GatewayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a GatewayError, also from another copy of this package. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }

  /** The process exit code for this error: 2 for bad usage, 1 otherwise. */
  get exitCode(): number {
    return this.code === 'INVALID_FLAG' || this.code === 'INVALID_CONFIG' ? 2 : 1;
  }
}
