/**
 * Error classes of @yangkit/yang-schema. Callers match on `code`, never on the message text.
 *
 * | class                 | code                  | when                                                   |
 * |-----------------------|-----------------------|--------------------------------------------------------|
 * | `YangSyntaxError`     | `YANG_SYNTAX`         | the module text is not valid YANG statement syntax     |
 * | `YangSyntaxError`     | `YANG_LIMIT`          | input size or nesting depth exceeds the parser limits  |
 * | `YangCompileError`    | `YANG_COMPILE`        | a statement cannot be resolved or is semantically bad  |
 * | `YangModuleNotFound`  | `YANG_MODULE_MISSING` | an imported/included module cannot be found            |
 * | `YangCompileError`    | `YANG_CYCLE`          | imports, includes, groupings or typedefs form a cycle  |
 * | `YangCompileError`    | `YANG_LEAFREF`        | a leafref path names no schema node                    |
 * | `YangCompileError`    | `YANG_AUGMENT`        | an augment or deviation target does not exist          |
 * | `YangTypeError`       | `YANG_TYPE`           | a type restriction or value is invalid (src/types)     |
 */

/** Stable codes carried by every error this package throws. */
export type YangSchemaErrorCode =
  | 'YANG_SYNTAX'
  | 'YANG_LIMIT'
  | 'YANG_COMPILE'
  | 'YANG_MODULE_MISSING'
  | 'YANG_CYCLE'
  | 'YANG_LEAFREF'
  | 'YANG_AUGMENT'
  | 'YANG_TYPE';

/** Where in a module text an error was found (1-based line and column). */
export interface SourceLocation {
  readonly file?: string;
  readonly line: number;
  readonly column: number;
}

const MARKER = Symbol.for('@yangkit/yang-schema.error');

function formatLocation(location: SourceLocation | undefined): string {
  if (!location) return '';
  return `${location.file ?? '<string>'}:${location.line}:${location.column}: `;
}

/** Base class of every error thrown by this package. */
export class YangSchemaError extends Error {
  /** Stable machine-readable code. */
  readonly code: YangSchemaErrorCode;
  /** Source location of the offending statement, when known. */
  readonly location?: SourceLocation;
  /** Name of the module being parsed or compiled, when known. */
  readonly module?: string;
  /** The message without the location prefix. */
  readonly detail: string;

  constructor(
    code: YangSchemaErrorCode,
    detail: string,
    options: { location?: SourceLocation | undefined; module?: string | undefined; cause?: unknown } = {},
  ) {
    super(
      `${formatLocation(options.location)}${detail}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.name = 'YangSchemaError';
    this.code = code;
    this.detail = detail;
    if (options.location) this.location = options.location;
    if (options.module !== undefined) this.module = options.module;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for errors of this package, also across duplicate installs. */
  static isInstance(value: unknown): value is YangSchemaError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** The YANG text violates the statement grammar of RFC 7950 section 6, or a parser limit was hit. */
export class YangSyntaxError extends YangSchemaError {
  constructor(
    detail: string,
    location: SourceLocation,
    options: { code?: 'YANG_SYNTAX' | 'YANG_LIMIT'; module?: string } = {},
  ) {
    super(options.code ?? 'YANG_SYNTAX', detail, { location, module: options.module });
    this.name = 'YangSyntaxError';
  }
}

/** A module set cannot be compiled into a schema tree. */
export class YangCompileError extends YangSchemaError {
  constructor(
    detail: string,
    options: {
      code?: 'YANG_COMPILE' | 'YANG_CYCLE' | 'YANG_LEAFREF' | 'YANG_AUGMENT' | 'YANG_TYPE';
      location?: SourceLocation | undefined;
      module?: string | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(options.code ?? 'YANG_COMPILE', detail, options);
    this.name = 'YangCompileError';
  }
}

/** A module named by import, include or the caller cannot be found in any source. */
export class YangModuleNotFoundError extends YangSchemaError {
  /** The module that was looked for. */
  readonly missing: string;
  /** The revision that was asked for, if any. */
  readonly revision?: string;
  /** The module that imports or includes the missing one, if any. */
  readonly importedBy?: string;

  constructor(
    missing: string,
    options: {
      revision?: string | undefined;
      importedBy?: string | undefined;
      location?: SourceLocation | undefined;
    } = {},
  ) {
    const what = options.revision ? `${missing}@${options.revision}` : missing;
    const by = options.importedBy ? ` (imported by ${options.importedBy})` : '';
    super('YANG_MODULE_MISSING', `module "${what}" not found${by}`, {
      location: options.location,
      module: options.importedBy,
    });
    this.name = 'YangModuleNotFoundError';
    this.missing = missing;
    if (options.revision) this.revision = options.revision;
    if (options.importedBy) this.importedBy = options.importedBy;
  }
}
