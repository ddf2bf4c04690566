import type { XmlElement } from '@yangkit/xml';
import { YangPatchError } from './errors.js';

/** Namespace of ietf-yang-patch (RFC 8072 section 3). */
export const YANG_PATCH_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-patch';
/** Module name of ietf-yang-patch, the JSON member prefix. */
export const YANG_PATCH_MODULE = 'ietf-yang-patch';

/** The `value` of an edit before it is decoded: JSON members, or XML elements. */
export type RawValue =
  | { readonly encoding: 'json'; readonly members: Readonly<Record<string, unknown>> }
  | { readonly encoding: 'xml'; readonly elements: readonly XmlElement[] };

/** One edit as read from the envelope, fields as text, nothing checked against the schema yet. */
export interface RawEdit {
  /** 1-based position in the edit list, for messages about edits without an edit-id. */
  readonly position: number;
  readonly editId: string | undefined;
  readonly operation: string | undefined;
  readonly target: string | undefined;
  readonly point: string | undefined;
  readonly where: string | undefined;
  readonly value: RawValue | undefined;
}

/** A `yang-patch` envelope as read from the body. */
export interface RawPatch {
  readonly patchId: string | undefined;
  readonly comment: string | undefined;
  readonly edits: readonly RawEdit[];
}

/** Limits that keep parsing bounded on hostile input. */
export interface PatchLimits {
  /** Largest accepted body in UTF-16 code units (default 16 MiB). */
  readonly maxSize?: number;
  /** Most edits in one patch (default 10000). */
  readonly maxEdits?: number;
  /** Deepest accepted nesting of the body (default 128). */
  readonly maxDepth?: number;
}

/** Defaults of {@link PatchLimits}. */
export const DEFAULT_PATCH_LIMITS: Required<PatchLimits> = {
  maxSize: 16 * 1024 * 1024,
  maxEdits: 10_000,
  maxDepth: 128,
};

/** Fields of an edit while it is being read. */
export interface EditFields {
  editId?: string;
  operation?: string;
  target?: string;
  point?: string;
  where?: string;
  value?: RawValue;
}

/** The leaf names of an edit entry (RFC 8072 section 3, list `edit`). */
export const EDIT_LEAVES = new Set(['edit-id', 'operation', 'target', 'point', 'where']);

/** Sets an edit leaf, refusing a second instance (a leaf occurs at most once, RFC 7950 7.6). */
export function setEditLeaf(fields: EditFields, name: string, text: string, position: number): void {
  const key = name === 'edit-id' ? 'editId' : (name as 'operation' | 'target' | 'point' | 'where');
  if (fields[key] !== undefined) {
    throw new YangPatchError('ELEMENT_DUPLICATE', `edit ${label(fields, position)} gives "${name}" twice`, {
      editId: fields.editId,
      errorInfo: { 'bad-element': name },
    });
  }
  fields[key] = text;
}

/** How an edit is named in messages: by edit-id, else by position. */
export function label(fields: { editId?: string | undefined }, position: number): string {
  return fields.editId === undefined ? `#${position}` : `"${fields.editId}"`;
}

/** Checks the edit count against the limit before the edit is read. */
export function checkEditCount(count: number, maxEdits: number): void {
  if (count > maxEdits) {
    throw new YangPatchError('LIMIT_EXCEEDED', `the patch has more than ${maxEdits} edits`);
  }
}

/** Freezes what was read of one edit. */
export function finishEdit(fields: EditFields, position: number): RawEdit {
  return {
    position,
    editId: fields.editId,
    operation: fields.operation,
    target: fields.target,
    point: fields.point,
    where: fields.where,
    value: fields.value,
  };
}
