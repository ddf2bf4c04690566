import { type ChildMap, type DataNode, type InstanceTree, validate } from '@yangkit/yang-json-codec';
import { YangPatchError } from './errors.js';
import {
  cloneNode,
  cloneTree,
  descend,
  find,
  insertAt,
  matches,
  mergeInto,
  removeNode,
} from './instance-ops.js';
import { describePath, errorPathOf, namespacesOf } from './paths.js';
import type { DatastoreEdit, InsertPosition, PatchPlan } from './plan.js';

/** Options of {@link applyPlan}. */
export interface ApplyOptions {
  /**
   * Validate the result against the YANG constraints once every edit is applied (RFC 8072 section 3: "After
   * all edits have been successfully processed, the result is validated"); a failure is a global error.
   * Default true.
   */
  readonly validate?: boolean;
}

/** The outcome of {@link applyPlan}: the new datastore content, or the error that stopped the patch. */
export type ApplyResult =
  | { readonly ok: true; readonly tree: InstanceTree }
  | { readonly ok: false; readonly error: YangPatchError };

/**
 * Applies a plan to a copy of an in-memory datastore, edit by edit in order, stopping at the first failing
 * edit (RFC 8072 section 2.5: all edits or none). `tree` itself is never modified: on success the result
 * holds the new content for the caller to install, so the datastore changes atomically.
 *
 * Rules: create and insert fail with data-exists when the node exists; delete and move fail with
 * data-missing when it does not; remove is silent; merge and replace create what is missing; insert and move
 * place the entry first, last, or before/after the point entry, which must exist (bad-attribute,
 * error-app-tag missing-instance, RFC 7950 section 7.8.6).
 */
export function applyPlan(tree: InstanceTree, plan: PatchPlan, options: ApplyOptions = {}): ApplyResult {
  const work = cloneTree(tree);
  for (const edit of plan.edits) {
    try {
      applyEdit(work, edit);
    } catch (e) {
      if (!YangPatchError.isInstance(e)) throw e;
      return { ok: false, error: e.withContext({ editId: edit.editId, patchId: plan.patchId }) };
    }
  }
  if (options.validate ?? true) {
    const errors = validate(work, { config: true });
    const first = errors[0];
    if (first !== undefined) {
      const error = new YangPatchError(
        'VALUE_INVALID',
        `the patched datastore is not valid: ${first.message}`,
        {
          patchId: plan.patchId,
          errorTag: first.errorTag,
          errorAppTag: first.errorAppTag,
          errorPath:
            first.errorPath === undefined
              ? undefined
              : { ...first.errorPath, namespaces: namespacesOf(tree.schema, first.errorPath.xml) },
          errorInfo: first.errorInfo,
          cause: first,
        },
      );
      return { ok: false, error };
    }
  }
  return { ok: true, tree: work };
}

function applyEdit(tree: InstanceTree, edit: DatastoreEdit): void {
  const schema = tree.schema;
  const parentSteps = edit.target.slice(0, -1);
  const step = edit.target[edit.target.length - 1]!;
  const failure = (code: 'DATA_EXISTS' | 'DATA_MISSING', message: string) =>
    new YangPatchError(code, message, { editId: edit.editId, errorPath: errorPathOf(schema, edit.target) });
  const create = edit.operation === 'create' || edit.operation === 'merge' || edit.operation === 'replace';
  const reached = descend(tree, parentSteps, create);
  const existing = reached === undefined ? [] : find(reached.holder, step);
  const where = describePath(edit.target);
  switch (edit.operation) {
    case 'create': {
      if (existing.length > 0)
        throw failure('DATA_EXISTS', `data already exists at ${where}; cannot be created`);
      const children = reached!.holder.children!;
      add(tree, children, cloneNode(edit.node!, reached!.node), edit);
      return;
    }
    case 'delete':
      if (existing.length === 0) throw failure('DATA_MISSING', `no data at ${where} to delete`);
      for (const n of existing) removeNode(reached!.holder.children!, n);
      return;
    case 'remove':
      for (const n of existing) removeNode(reached!.holder.children!, n);
      return;
    case 'merge': {
      const current = existing[0];
      if (current === undefined)
        add(tree, reached!.holder.children!, cloneNode(edit.node!, reached!.node), edit);
      else mergeInto(current, edit.node!);
      return;
    }
    case 'replace': {
      const children = reached!.holder.children!;
      const current = existing[0];
      const fresh = cloneNode(edit.node!, reached!.node);
      if (current === undefined) add(tree, children, fresh, edit);
      else {
        // Keep the entry where it was in a user-ordered list.
        const group = children.get(current.schema)!;
        group[group.indexOf(current)] = fresh;
      }
      return;
    }
    case 'move': {
      const current = existing[0];
      if (current === undefined) throw failure('DATA_MISSING', `no entry at ${where} to move`);
      const children = reached!.holder.children!;
      removeNode(children, current);
      add(tree, children, current, edit);
      return;
    }
  }
}

/** Adds `node` at the position the edit asks for (the end when it names none). */
function add(tree: InstanceTree, children: ChildMap, node: DataNode, edit: DatastoreEdit): void {
  insertAt(
    children,
    node,
    edit.insert === undefined ? undefined : indexFor(tree, children, node, edit.insert, edit),
  );
}

function indexFor(
  tree: InstanceTree,
  children: ChildMap,
  node: DataNode,
  at: InsertPosition,
  edit: DatastoreEdit,
): number {
  const group = children.get(node.schema) ?? [];
  if (at.where === 'first') return 0;
  if (at.where === 'last' || at.point === undefined) return group.length;
  const pointStep = at.point[at.point.length - 1]!;
  const i = group.findIndex((n) => matches(n, pointStep));
  if (i < 0) {
    throw new YangPatchError(
      'POINT_MISSING',
      `the insertion point ${describePath(at.point)} does not exist`,
      {
        editId: edit.editId,
        errorAppTag: 'missing-instance',
        errorPath: errorPathOf(tree.schema, at.point),
      },
    );
  }
  return at.where === 'before' ? i : i + 1;
}
