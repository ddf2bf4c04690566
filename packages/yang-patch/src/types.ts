import type { DataNode, PathStep } from '@yangkit/yang-json-codec';

/** The `operation` of an edit (RFC 8072 section 2.5). */
export type EditOperation = 'create' | 'delete' | 'insert' | 'merge' | 'move' | 'replace' | 'remove';

/** Every edit operation, in the order of the ietf-yang-patch enumeration. */
export const EDIT_OPERATIONS: readonly EditOperation[] = [
  'create',
  'delete',
  'insert',
  'merge',
  'move',
  'replace',
  'remove',
];

/** The `where` of an insert or move (RFC 8072 section 2.5; default `last`). */
export type EditWhere = 'before' | 'after' | 'first' | 'last';

/** The values `where` takes. */
export const EDIT_WHERES: readonly EditWhere[] = ['before', 'after', 'first', 'last'];

/** A list key value and one path step: the codec's (`@yangkit/yang-json-codec`), named here as before. */
export type { PathKey, PathStep } from '@yangkit/yang-json-codec';

/** One validated edit: its target (absolute from the datastore), decoded value and insertion point. */
export interface PatchEdit {
  readonly editId: string;
  readonly operation: EditOperation;
  /** The `target` text as sent. */
  readonly targetText: string;
  /** The target data node, from the datastore root; empty only for a merge of `/` on the datastore. */
  readonly target: readonly PathStep[];
  /** insert/move: where the node goes (default `last`). */
  readonly where?: EditWhere;
  /** insert/move with before/after: the sibling entry, from the datastore root. */
  readonly point?: readonly PathStep[];
  /**
   * create/merge/replace/insert: the decoded instances of `value` (for a list entry, leaf or container
   * target, exactly one; for `/` on the datastore, the top-level nodes). Their `parent` is undefined.
   */
  readonly value?: readonly DataNode[];
}

/** A parsed and validated `ietf-yang-patch:yang-patch` (RFC 8072 section 2.2). */
export interface YangPatch {
  readonly patchId: string;
  readonly comment?: string;
  /** The request target the edit targets are relative to (empty = the datastore). */
  readonly requestTarget: readonly PathStep[];
  /** The edits in the order they must be applied. */
  readonly edits: readonly PatchEdit[];
}
