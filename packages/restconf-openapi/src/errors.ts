/**
 * Stable codes of {@link OpenApiError}; callers match on `code`.
 *
 * | code | when |
 * |---|---|
 * | `MISSING_MODULE` | the schema lacks a module the document needs: ietf-restconf (the errors body) or ietf-yang-patch (YANG Patch bodies) |
 * | `UNKNOWN_MODULE` | `modules` names a module the schema does not implement |
 */
export type OpenApiErrorCode = 'MISSING_MODULE' | 'UNKNOWN_MODULE';

const MARKER = Symbol.for('@yangkit/restconf-openapi.OpenApiError');

/** The one error class of this package. */
export class OpenApiError extends Error {
  override readonly name = 'OpenApiError';
  readonly code: OpenApiErrorCode;
  readonly [MARKER] = true;

  constructor(code: OpenApiErrorCode, message: string) {
    super(message);
    this.code = code;
  }

  /** True for an OpenApiError, also one from another copy of this package. */
  static isInstance(value: unknown): value is OpenApiError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
