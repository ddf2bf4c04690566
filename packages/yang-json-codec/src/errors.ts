/**
 * Stable codes of {@link CodecError}. Callers match on `code`; `errorTag` carries the NETCONF/RESTCONF
 * error-tag (RFC 6241 Appendix A, RFC 8040 section 7) a server reports for it.
 *
 * | code | errorTag | when |
 * |---|---|---|
 * | `XML_MALFORMED` | malformed-message | the text is not well-formed XML |
 * | `XML_FORBIDDEN` | malformed-message | DOCTYPE, entity declarations, processing instructions, unknown entities |
 * | `JSON_MALFORMED` | malformed-message | the text is not JSON, an object names a member twice, or a member name is not a YANG name |
 * | `LIMIT_EXCEEDED` | too-big / malformed-message | size or depth above the configured limit |
 * | `UNKNOWN_ELEMENT` | unknown-element | no schema node of that name where it appears |
 * | `UNKNOWN_NAMESPACE` | unknown-namespace | namespace or module name not in the schema |
 * | `UNKNOWN_ATTRIBUTE` | unknown-attribute | metadata that no module defines |
 * | `INVALID_VALUE` | invalid-value | a value outside its type (range, length, pattern, enum, ...) |
 * | `BAD_ELEMENT` | bad-element | right name, wrong shape (an object where a leaf value belongs, a duplicate leaf, ...) |
 * | `MISSING_ELEMENT` | missing-element | a list key or an operation's mandatory part is absent |
 * | `DATA_EXISTS` | data-exists | two list entries with the same keys, two equal leaf-list values in config; an edit creates a node that exists |
 * | `DATA_MISSING` | data-missing | leafref or instance-identifier `require-instance` target absent (error-app-tag instance-required); an edit deletes or moves a node that does not exist |
 * | `MISSING_INSTANCE` | bad-attribute | an insert or move names a sibling entry that does not exist (error-app-tag missing-instance) |
 * | `CONFIG_FALSE` | invalid-value | state data (config false) in a configuration body |
 * | `TOO_MANY_ELEMENTS` | operation-failed | more entries than max-elements (error-app-tag too-many-elements) |
 * | `TOO_FEW_ELEMENTS` | operation-failed | fewer entries than min-elements (error-app-tag too-few-elements) |
 * | `MANDATORY_MISSING` | missing-element | a mandatory node is absent (error-app-tag missing-choice for choices) |
 * | `UNIQUE_VIOLATION` | operation-failed | a `unique` constraint is broken (error-app-tag data-not-unique) |
 * | `MUST_VIOLATION` | operation-failed | a `must` expression is false (the statement's error-app-tag, or must-violation) |
 * | `WHEN_VIOLATION` | unknown-element | a node exists whose `when` expression is false (error-app-tag when-violation) |
 * | `XPATH_FAILED` | operation-failed | a `must` or `when` expression cannot be evaluated |
 * | `BAD_OPTION` | invalid-value | an option names nothing in the schema (operation, parent, fields) |
 */
export type CodecErrorCode =
  | 'XML_MALFORMED'
  | 'XML_FORBIDDEN'
  | 'JSON_MALFORMED'
  | 'LIMIT_EXCEEDED'
  | 'UNKNOWN_ELEMENT'
  | 'UNKNOWN_NAMESPACE'
  | 'UNKNOWN_ATTRIBUTE'
  | 'INVALID_VALUE'
  | 'BAD_ELEMENT'
  | 'MISSING_ELEMENT'
  | 'DATA_EXISTS'
  | 'DATA_MISSING'
  | 'MISSING_INSTANCE'
  | 'CONFIG_FALSE'
  | 'TOO_MANY_ELEMENTS'
  | 'TOO_FEW_ELEMENTS'
  | 'MANDATORY_MISSING'
  | 'UNIQUE_VIOLATION'
  | 'MUST_VIOLATION'
  | 'WHEN_VIOLATION'
  | 'XPATH_FAILED'
  | 'BAD_OPTION';

/** NETCONF error-tag values (RFC 6241 Appendix A) the codec reports. */
export type ErrorTag =
  | 'malformed-message'
  | 'too-big'
  | 'unknown-element'
  | 'unknown-namespace'
  | 'unknown-attribute'
  | 'invalid-value'
  | 'bad-element'
  | 'bad-attribute'
  | 'missing-element'
  | 'data-exists'
  | 'data-missing'
  | 'operation-failed';

/** The error path of a node in both encodings (RFC 8040 section 7.1: error-path is an instance-identifier). */
export interface ErrorPath {
  /** RFC 7951 section 6.11 form, module names: `/ietf-interfaces:interfaces/interface[name='eth0']/mtu`. */
  readonly json: string;
  /** XML form with the module prefixes of the schema: `/if:interfaces/if:interface[if:name='eth0']/if:mtu`. */
  readonly xml: string;
}

/** Fields of a {@link CodecError} beside its code and message. */
export interface CodecErrorInit {
  readonly errorTag: ErrorTag;
  readonly errorAppTag?: string | undefined;
  readonly errorPath?: ErrorPath | undefined;
  /** Extra error-info members, e.g. `bad-element`, `bad-value`, `bad-namespace`. */
  readonly errorInfo?: Readonly<Record<string, string>> | undefined;
  readonly cause?: unknown;
}

const MARKER = Symbol.for('@yangkit/yang-json-codec.CodecError');

/**
 * The one error class of this package. `errorMessage` (same as `message`) names the node and the rule that
 * failed; `errorPath` locates the node; the fields map 1:1 onto an `ietf-restconf:errors` entry.
 */
export class CodecError extends Error {
  override readonly name = 'CodecError';
  readonly code: CodecErrorCode;
  readonly errorTag: ErrorTag;
  readonly errorAppTag: string | undefined;
  readonly errorPath: ErrorPath | undefined;
  readonly errorInfo: Readonly<Record<string, string>> | undefined;
  readonly [MARKER] = true;

  constructor(code: CodecErrorCode, message: string, init: CodecErrorInit) {
    // Without a stack: it describes the input, by its path, not the code, and capturing the frames
    // (the decoders' generators go deep) was a fifth of the cost of a request refused for its body.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    Error.stackTraceLimit = limit;
    this.code = code;
    this.errorTag = init.errorTag;
    this.errorAppTag = init.errorAppTag;
    this.errorPath = init.errorPath;
    this.errorInfo = init.errorInfo;
  }

  /** The error-message text (RFC 6241 `error-message`): the node and the rule it broke. */
  get errorMessage(): string {
    return this.message;
  }

  /** True for a CodecError, also one from another copy of this package. */
  static isInstance(value: unknown): value is CodecError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** One `ietf-restconf:errors` `error` entry (RFC 8040 section 7.1) in RFC 7951 JSON form. */
  toRestconfError(): Record<string, unknown> {
    const entry: Record<string, unknown> = { 'error-type': 'application', 'error-tag': this.errorTag };
    if (this.errorAppTag !== undefined) entry['error-app-tag'] = this.errorAppTag;
    if (this.errorPath !== undefined) entry['error-path'] = this.errorPath.json;
    entry['error-message'] = this.message;
    if (this.errorInfo !== undefined) entry['error-info'] = { ...this.errorInfo };
    return entry;
  }
}
