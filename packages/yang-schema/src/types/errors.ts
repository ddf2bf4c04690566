import { YangSchemaError } from '../errors';

const MARKER = Symbol.for('@yangkit/yang-schema/YangTypeError');

/**
 * Thrown for a malformed or inconsistent type restriction: a bad range/length argument, a restriction that
 * widens its parent (RFC 7950 9.2.4), or an XSD regular expression that cannot be translated.
 * A YangSchemaError with code 'YANG_TYPE'; `YangTypeError.isInstance(err)` works across duplicate installs.
 */
export class YangTypeError extends YangSchemaError {
  declare readonly code: 'YANG_TYPE';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super('YANG_TYPE', message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'YangTypeError';
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any YangTypeError, even one created by another copy of this package. */
  static override isInstance(error: unknown): error is YangTypeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}
