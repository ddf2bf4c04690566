/**
 * Stable codes of {@link YangPatchError}. Callers match on `code`; `errorTag` is the RFC 8040 section 7
 * error-tag a server reports (and from which it takes the HTTP status).
 *
 * | code | errorTag | when |
 * |---|---|---|
 * | `BODY_MALFORMED` | malformed-message | the body is not JSON/XML, or not a `yang-patch` document |
 * | `LIMIT_EXCEEDED` | too-big | body size, edit count or nesting above the configured limit |
 * | `PATCH_ID_MISSING` | missing-element | no `patch-id` |
 * | `ELEMENT_UNKNOWN` | unknown-element | a member or element RFC 8072 does not define |
 * | `ELEMENT_DUPLICATE` | bad-element | a leaf of the envelope given twice |
 * | `ELEMENT_INVALID` | invalid-value | an envelope leaf of the wrong JSON type or shape |
 * | `EDIT_ID_MISSING` | missing-element | an edit without `edit-id` |
 * | `EDIT_ID_DUPLICATE` | data-exists | two edits with the same `edit-id` (it is the list key) |
 * | `OPERATION_MISSING` | missing-element | an edit without `operation` |
 * | `OPERATION_UNKNOWN` | invalid-value | `operation` outside create, delete, insert, merge, move, replace, remove |
 * | `TARGET_MISSING` | missing-element | an edit without `target` |
 * | `TARGET_INVALID` | invalid-value | `target` is no data resource below the request target (its restconf-uri error is the `cause`) |
 * | `POINT_INVALID` | invalid-value | `point`/`where` missing where needed, given where not allowed, or naming another list |
 * | `NOT_USER_ORDERED` | invalid-value | insert/move on something other than an `ordered-by user` list or leaf-list |
 * | `VALUE_MISSING` | missing-element | no `value` for create, merge, replace or insert |
 * | `VALUE_NOT_ALLOWED` | invalid-value | a `value` for delete, remove or move |
 * | `VALUE_INVALID` | (from the codec) | the value does not decode against the target's schema node (the CodecError is the `cause`) |
 * | `VALUE_MISMATCH` | invalid-value | the value is not one instance of the target node, or its keys differ from the target's |
 * | `DATA_EXISTS` | data-exists | create or insert of data that exists |
 * | `DATA_MISSING` | data-missing | delete or move of data that does not exist |
 * | `POINT_MISSING` | bad-attribute | the insertion point does not exist (RFC 7950 7.8.6, error-app-tag missing-instance) |
 * | `NOT_REPRESENTABLE` | operation-not-supported | an edit NETCONF edit-config cannot express |
 * | `SCHEMA_INCOMPLETE` | operation-failed | the schema lacks ietf-yang-patch's `yang-patch` template, which defines the envelope |
 */
export type YangPatchErrorCode =
  | 'BODY_MALFORMED'
  | 'LIMIT_EXCEEDED'
  | 'PATCH_ID_MISSING'
  | 'ELEMENT_UNKNOWN'
  | 'ELEMENT_DUPLICATE'
  | 'ELEMENT_INVALID'
  | 'EDIT_ID_MISSING'
  | 'EDIT_ID_DUPLICATE'
  | 'OPERATION_MISSING'
  | 'OPERATION_UNKNOWN'
  | 'TARGET_MISSING'
  | 'TARGET_INVALID'
  | 'POINT_INVALID'
  | 'NOT_USER_ORDERED'
  | 'VALUE_MISSING'
  | 'VALUE_NOT_ALLOWED'
  | 'VALUE_INVALID'
  | 'VALUE_MISMATCH'
  | 'DATA_EXISTS'
  | 'DATA_MISSING'
  | 'POINT_MISSING'
  | 'NOT_REPRESENTABLE'
  | 'SCHEMA_INCOMPLETE';

/** An error-path in both encodings (RFC 8040 section 7.1: an instance-identifier). */
export interface PatchErrorPath {
  /** RFC 7951 form: `/example-jukebox:jukebox/library/artist[name='Foo']`. */
  readonly json: string;
  /** XML form with prefixes: `/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo']`. */
  readonly xml: string;
  /** Namespaces the XML form uses, prefix to URI. */
  readonly namespaces: Readonly<Record<string, string>>;
}

/** Fields of a {@link YangPatchError} beside its code and message. */
export interface YangPatchErrorInit {
  /** The edit the problem belongs to; absent for problems of the whole patch. */
  readonly editId?: string | undefined;
  /** The patch-id, when it was read before the problem. */
  readonly patchId?: string | undefined;
  /** Overrides the error-tag the code implies (used for codec errors). */
  readonly errorTag?: string | undefined;
  readonly errorAppTag?: string | undefined;
  readonly errorPath?: PatchErrorPath | undefined;
  /** Extra `error-info` members such as `bad-element`. */
  readonly errorInfo?: Readonly<Record<string, string>> | undefined;
  readonly cause?: unknown;
}

const TAGS: Record<YangPatchErrorCode, string> = {
  BODY_MALFORMED: 'malformed-message',
  LIMIT_EXCEEDED: 'too-big',
  PATCH_ID_MISSING: 'missing-element',
  ELEMENT_UNKNOWN: 'unknown-element',
  ELEMENT_DUPLICATE: 'bad-element',
  ELEMENT_INVALID: 'invalid-value',
  EDIT_ID_MISSING: 'missing-element',
  EDIT_ID_DUPLICATE: 'data-exists',
  OPERATION_MISSING: 'missing-element',
  OPERATION_UNKNOWN: 'invalid-value',
  TARGET_MISSING: 'missing-element',
  TARGET_INVALID: 'invalid-value',
  POINT_INVALID: 'invalid-value',
  NOT_USER_ORDERED: 'invalid-value',
  VALUE_MISSING: 'missing-element',
  VALUE_NOT_ALLOWED: 'invalid-value',
  VALUE_INVALID: 'invalid-value',
  VALUE_MISMATCH: 'invalid-value',
  DATA_EXISTS: 'data-exists',
  DATA_MISSING: 'data-missing',
  POINT_MISSING: 'bad-attribute',
  NOT_REPRESENTABLE: 'operation-not-supported',
  SCHEMA_INCOMPLETE: 'operation-failed',
};

const MARKER = Symbol.for('@yangkit/yang-patch.YangPatchError');

/**
 * The one error class of this package. Its fields map 1:1 onto an `error` entry of
 * `ietf-yang-patch:yang-patch-status` (RFC 8072 section 2.3): in `edit-status/edit` when `editId` is set,
 * in `global-errors` otherwise.
 */
export class YangPatchError extends Error {
  override readonly name = 'YangPatchError';
  readonly code: YangPatchErrorCode;
  readonly editId: string | undefined;
  readonly patchId: string | undefined;
  /** Always `application` for a patch (RFC 8040 section 7.1 error-type). */
  readonly errorType = 'application';
  readonly errorTag: string;
  readonly errorAppTag: string | undefined;
  readonly errorPath: PatchErrorPath | undefined;
  readonly errorInfo: Readonly<Record<string, string>> | undefined;
  readonly [MARKER] = true;

  constructor(code: YangPatchErrorCode, message: string, init: YangPatchErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.editId = init.editId;
    this.patchId = init.patchId;
    this.errorTag = init.errorTag ?? TAGS[code];
    this.errorAppTag = init.errorAppTag;
    this.errorPath = init.errorPath;
    this.errorInfo = init.errorInfo;
  }

  /** The same error tied to an edit and/or patch (used as errors travel outwards), `prefix` before its message. */
  withContext(
    context: { editId?: string | undefined; patchId?: string | undefined },
    prefix = '',
  ): YangPatchError {
    return new YangPatchError(this.code, `${prefix}${this.message}`, {
      editId: this.editId ?? context.editId,
      patchId: this.patchId ?? context.patchId,
      errorTag: this.errorTag,
      errorAppTag: this.errorAppTag,
      errorPath: this.errorPath,
      errorInfo: this.errorInfo,
      cause: this.cause,
    });
  }

  /** True for a YangPatchError, also one from another copy of this package. */
  static isInstance(value: unknown): value is YangPatchError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
