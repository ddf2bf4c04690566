import { type CodecError, xmlPathNamespaces } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';

/**
 * Stable error codes of @yangkit/netconf-server. Callers match on `code`, never on messages.
 *
 * | code | meaning |
 * |---|---|
 * | `RPC_ERROR` | an operation failed; the {@link RpcError} carries the RFC 6241 `<rpc-error>` fields |
 * | `INVALID_OPTION` | an option passed to the server or a transport is invalid |
 * | `STARTUP_FILE` | the startup file or its journal cannot be read, written or parsed |
 * | `HOST_KEY` | the SSH host key cannot be read or generated |
 * | `CLOSED` | the server was closed |
 */
export type NetconfServerErrorCode = 'RPC_ERROR' | 'INVALID_OPTION' | 'STARTUP_FILE' | 'HOST_KEY' | 'CLOSED';

const marker = Symbol.for('@yangkit/netconf-server.error');

/** Base class of every error this package throws. */
export class NetconfServerError extends Error {
  readonly code: NetconfServerErrorCode;
  readonly [marker] = true;

  constructor(code: NetconfServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetconfServerError';
    this.code = code;
  }

  /** True for errors of this package, even from another copy of it. */
  static isInstance(value: unknown): value is NetconfServerError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** RFC 6241 section 4.3 `error-type`. */
export type ErrorType = 'transport' | 'rpc' | 'protocol' | 'application';

/** RFC 6241 Appendix A error-tag values. */
export type ErrorTag =
  | 'in-use'
  | 'invalid-value'
  | 'too-big'
  | 'missing-attribute'
  | 'bad-attribute'
  | 'unknown-attribute'
  | 'missing-element'
  | 'bad-element'
  | 'unknown-element'
  | 'unknown-namespace'
  | 'access-denied'
  | 'lock-denied'
  | 'resource-denied'
  | 'rollback-failed'
  | 'data-exists'
  | 'data-missing'
  | 'operation-not-supported'
  | 'operation-failed'
  | 'partial-operation'
  | 'malformed-message';

/** The fields of one `<rpc-error>` (RFC 6241 section 4.3), names from the RFC. */
export interface RpcErrorFields {
  errorType: ErrorType;
  errorTag: ErrorTag;
  errorSeverity?: 'error' | 'warning';
  errorAppTag?: string | undefined;
  /** An XPath of the failing node, with prefixes bound in `errorPathNamespaces`. */
  errorPath?: string | undefined;
  /** Prefix -> namespace declarations the error-path needs. */
  errorPathNamespaces?: ReadonlyMap<string, string> | undefined;
  errorMessage?: string | undefined;
  /**
   * error-info children: `session-id`, `bad-element`, `bad-attribute`, `bad-namespace`, `bad-value`,
   * `ok-element`, `err-element`, `noop-element` (RFC 6241 Appendix A).
   */
  errorInfo?: Readonly<Record<string, string>> | undefined;
}

/**
 * An operation failure reported to the client as one `<rpc-error>`. Handlers throw it; the session
 * turns it into the reply. `errors` holds more when one reply reports several failures
 * (continue-on-error).
 */
export class RpcError extends NetconfServerError {
  readonly fields: RpcErrorFields;
  /** Every error of the reply, this one first. */
  readonly errors: RpcErrorFields[];

  constructor(fields: RpcErrorFields, more: RpcErrorFields[] = []) {
    super('RPC_ERROR', `${fields.errorTag}: ${fields.errorMessage ?? fields.errorType}`);
    this.name = 'RpcError';
    this.fields = fields;
    this.errors = [fields, ...more];
  }

  get errorTag(): ErrorTag {
    return this.fields.errorTag;
  }

  get errorAppTag(): string | undefined {
    return this.fields.errorAppTag;
  }
}

/** Shorthand for an application-layer {@link RpcError}. */
export function rpcError(
  errorTag: ErrorTag,
  errorMessage: string,
  extra: Omit<RpcErrorFields, 'errorTag' | 'errorMessage' | 'errorType'> & { errorType?: ErrorType } = {},
): RpcError {
  return new RpcError({ errorType: 'application', ...extra, errorTag, errorMessage });
}

/** The `<rpc-error>` fields of a codec error: its tag, app tag, message, info and XML error-path. */
export function codecErrorFields(
  schema: SchemaTree,
  e: CodecError,
  errorType: ErrorType = 'application',
): RpcErrorFields {
  const path = e.errorPath?.xml;
  return {
    errorType,
    errorTag: e.errorTag,
    errorAppTag: e.errorAppTag,
    errorMessage: e.message,
    ...(path === undefined || path === '/'
      ? {}
      : { errorPath: path, errorPathNamespaces: xmlPathNamespaces(schema, path) }),
    errorInfo: e.errorInfo,
  };
}

/** One {@link RpcError} reporting every codec error (undefined when there is none). */
export function rpcErrorOf(
  schema: SchemaTree,
  errors: readonly CodecError[],
  errorType: ErrorType = 'application',
): RpcError | undefined {
  const fields = errors.map((e) => codecErrorFields(schema, e, errorType));
  return fields.length === 0 ? undefined : new RpcError(fields[0]!, fields.slice(1));
}
