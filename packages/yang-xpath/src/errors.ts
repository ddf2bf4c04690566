/**
 * Stable error codes of @yangkit/yang-xpath. Callers match on `code`, never on messages.
 *
 * | code | class | meaning |
 * |---|---|---|
 * | `SYNTAX` | {@link XPathSyntaxError} | the expression is not XPath 1.0 (unexpected or unknown token) |
 * | `TOO_LONG` | {@link XPathSyntaxError} | the expression is longer than `maxLength` |
 * | `TOO_DEEP` | {@link XPathSyntaxError} | the expression nests deeper than `maxDepth` |
 * | `UNKNOWN_PREFIX` | {@link XPathCompileError} | a name test, function or identity names a prefix missing from the prefix map |
 * | `UNKNOWN_FUNCTION` | {@link XPathCompileError} | a function call names no core, YANG or caller-given function |
 * | `ARITY` | {@link XPathCompileError} | a function is called with the wrong number of arguments |
 * | `UNKNOWN_VARIABLE` | {@link XPathCompileError} | `$name` is not among the declared variables |
 * | `INVALID_REGEX` | {@link XPathCompileError}, {@link XPathEvaluationError} | `re-match()` got a pattern that is not an XSD regular expression |
 * | `TYPE` | {@link XPathEvaluationError} | a node-set was required (path step, filter, `count()`) and another type was given |
 * | `UNKNOWN_PREFIX` | {@link XPathEvaluationError} | `derived-from()` got an identity string whose prefix is not in the prefix map |
 * | `INVALID_XML` | {@link XmlInputError} | `parseXmlForXPath()` got input that is not well-formed, has a DOCTYPE, or exceeds a limit |
 * | `NO_SCHEMA_NODE` | {@link XPathSchemaError} | `checkSchemaPaths()`: a step names no node of the schema tree |
 * | `FUNCTION_FAILED` | {@link XPathEvaluationError} | an extension function threw; `cause` holds what it threw |
 * | `MISSING_SCHEMA_INFO` | {@link XPathEvaluationError} | a YANG function needs type information the navigator does not give |
 * | `WORK_LIMIT` | {@link XPathEvaluationError} | the evaluation did more work than its `maxWork` option allows |
 */
export type XPathErrorCode =
  | 'SYNTAX'
  | 'TOO_LONG'
  | 'TOO_DEEP'
  | 'UNKNOWN_PREFIX'
  | 'UNKNOWN_FUNCTION'
  | 'ARITY'
  | 'UNKNOWN_VARIABLE'
  | 'TYPE'
  | 'INVALID_REGEX'
  | 'MISSING_SCHEMA_INFO'
  | 'FUNCTION_FAILED'
  | 'INVALID_XML'
  | 'NO_SCHEMA_NODE'
  | 'WORK_LIMIT';

const marker = Symbol.for('@yangkit/yang-xpath.error');

/** Base class of every error this package throws; `code` is stable, `cause` keeps the underlying error. */
export class XPathError extends Error {
  /** Stable machine-readable code, see {@link XPathErrorCode}. */
  readonly code: XPathErrorCode;
  /** Offset (UTF-16 code units, 0-based) in the expression where the problem starts, when known. */
  readonly position: number | undefined;
  readonly [marker] = true;

  constructor(code: XPathErrorCode, message: string, position?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'XPathError';
    this.code = code;
    this.position = position;
  }

  /** True for errors of this package, even from another copy of it installed side by side. */
  static isInstance(value: unknown): value is XPathError {
    return typeof value === 'object' && value !== null && marker in value;
  }

  /** True for the error of an evaluation that passed its `maxWork` (code `WORK_LIMIT`). */
  static isWorkLimit(value: unknown): value is XPathEvaluationError {
    return XPathError.isInstance(value) && value.code === 'WORK_LIMIT';
  }
}

/** The expression text cannot be parsed: a token is unexpected or unknown, or a size limit was hit. */
export class XPathSyntaxError extends XPathError {
  /** Offset of the offending token. */
  declare readonly position: number;
  /** Text of the offending token (`''` at the end of the expression). */
  readonly token: string;

  constructor(code: 'SYNTAX' | 'TOO_LONG' | 'TOO_DEEP', message: string, position: number, token: string) {
    super(code, message, position);
    this.name = 'XPathSyntaxError';
    this.token = token;
  }
}

/** The expression parses but cannot be compiled against the given prefixes, functions and variables. */
export class XPathCompileError extends XPathError {
  constructor(
    code: 'UNKNOWN_PREFIX' | 'UNKNOWN_FUNCTION' | 'ARITY' | 'UNKNOWN_VARIABLE' | 'INVALID_REGEX',
    message: string,
    position: number,
  ) {
    super(code, message, position);
    this.name = 'XPathCompileError';
  }
}

/** Evaluation failed: a type error (XPath 1.0 has no implicit conversion to node-set) or a bad argument. */
export class XPathEvaluationError extends XPathError {
  constructor(
    code:
      | 'TYPE'
      | 'INVALID_REGEX'
      | 'MISSING_SCHEMA_INFO'
      | 'UNKNOWN_PREFIX'
      | 'FUNCTION_FAILED'
      | 'WORK_LIMIT',
    message: string,
    position?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, position, options);
    this.name = 'XPathEvaluationError';
  }
}

/** `parseXmlForXPath()` refused its input. */
export class XmlInputError extends XPathError {
  constructor(message: string) {
    super('INVALID_XML', message);
    this.name = 'XmlInputError';
  }
}

/** A location step names no schema node (reported by `checkSchemaPaths`, with the step's position). */
export class XPathSchemaError extends XPathError {
  declare readonly position: number;
  /** The offending step as written, e.g. `jbox:artst`. */
  readonly step: string;

  constructor(message: string, position: number, step: string) {
    super('NO_SCHEMA_NODE', message, position);
    this.name = 'XPathSchemaError';
    this.step = step;
  }
}
