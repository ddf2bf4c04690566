const MARKER = Symbol.for('@yangkit/yang-schema/YangTypeError');

/**
 * Thrown for a malformed or inconsistent type restriction: a bad range/length argument, a restriction that
 * widens its parent (RFC 7950 9.2.4), or an XSD regular expression that cannot be translated.
 * Callers match on `code`, or on `YangTypeError.isInstance(err)` across duplicate installs.
 */
export class YangTypeError extends Error {
  /** Stable machine-readable code. */
  readonly code = 'YANG_TYPE' as const;
  /** Marks instances for `isInstance`, which works across copies of this package. */
  readonly [MARKER] = true as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'YangTypeError';
  }

  /** True for any YangTypeError, even one created by another copy of this package. */
  static isInstance(error: unknown): error is YangTypeError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}
