import {
  type InsertPosition,
  isWholeStep,
  stepOf,
  type TreeEdit,
  type TreeEditOperation,
} from '@yangkit/yang-json-codec';
import type { PatchEdit, PathStep, YangPatch } from './types.js';

/**
 * What one datastore edit does: the codec's edit operations (RFC 6241 section 7.2 operations plus `move`,
 * the reordering RFC 7950 section 7.8.6 expresses with `yang:insert` on an existing entry).
 */
export type DatastoreOperation = TreeEditOperation;

/** Where an inserted or moved entry goes (RFC 7950 section 7.8.6): the codec's `InsertPosition`. */
export type { InsertPosition } from '@yangkit/yang-json-codec';

/** One datastore edit: the codec's {@link TreeEdit}, with the patch edit it comes from. */
export interface DatastoreEdit extends TreeEdit {
  /** The patch edit this datastore edit comes from. */
  readonly editId: string;
}

/** A patch as the ordered datastore edits that carry it out (all of them, or none). */
export interface PatchPlan {
  readonly patchId: string;
  readonly edits: readonly DatastoreEdit[];
}

function addressesAll(step: PathStep | undefined): boolean {
  return step === undefined || isWholeStep(step);
}

function planEdit(edit: PatchEdit): DatastoreEdit[] {
  const { editId, target } = edit;
  const last = target[target.length - 1];
  switch (edit.operation) {
    case 'delete':
    case 'remove':
      return [{ editId, operation: edit.operation, target }];
    case 'move':
      return [{ editId, operation: 'move', target, insert: position(edit) }];
    case 'insert':
      return [{ editId, operation: 'create', target, node: edit.value![0]!, insert: position(edit) }];
    default: {
      const nodes = edit.value ?? [];
      if (!addressesAll(last)) return [{ editId, operation: edit.operation, target, node: nodes[0]! }];
      // The datastore, or a whole list or leaf-list: one edit per instance, each addressed by its keys.
      const parent = last === undefined ? target : target.slice(0, -1);
      const each = nodes.map(
        (node): DatastoreEdit => ({
          editId,
          operation:
            edit.operation === 'create' ? 'create' : edit.operation === 'merge' ? 'merge' : 'replace',
          target: [...parent, stepOf(node)],
          node,
        }),
      );
      // Replacing a whole list or leaf-list drops the entries the value does not hold (RFC 8040 4.5).
      return edit.operation === 'replace' && last !== undefined
        ? [{ editId, operation: 'remove', target }, ...each]
        : each;
    }
  }
}

function position(edit: PatchEdit): InsertPosition {
  return { where: edit.where ?? 'last', ...(edit.point === undefined ? {} : { point: edit.point }) };
}

/**
 * Plans a validated patch as the ordered datastore edits that carry it out (RFC 8072 section 2.5): one per
 * patch edit, except that an edit of the datastore or of a whole list becomes one edit per instance.
 */
export function planPatch(patch: YangPatch): PatchPlan {
  return { patchId: patch.patchId, edits: patch.edits.flatMap(planEdit) };
}

/** The identity of a path and of what contains it: its ancestors, and the whole list of a list entry. */
function pathKeys(steps: readonly PathStep[]): { full: string; containers: string[] } {
  const containers: string[] = [];
  let key = '';
  steps.forEach((s, i) => {
    const bare = `${key}/${s.schema.module}:${s.schema.name}`;
    const id =
      s.keys !== undefined
        ? `${bare}${JSON.stringify(s.keys.map((k) => k.value))}`
        : s.value !== undefined
          ? `${bare}${JSON.stringify([s.value])}`
          : bare;
    if (id !== bare) containers.push(bare);
    if (i < steps.length - 1) containers.push(id);
    key = id;
  });
  return { full: key, containers };
}

/**
 * True when the edits can run as one NETCONF edit-config without changing the result: no edit touches a node
 * another edit touches (neither target contains the other) and no insert or move is placed relative to a
 * node another edit writes. Linear in the number of edits (paths are compared through hashed keys).
 */
export function isCombinable(edits: readonly DatastoreEdit[]): boolean {
  const targets = new Set<string>();
  const containers = new Set<string>();
  for (const edit of edits) {
    const { full, containers: outer } = pathKeys(edit.target);
    // Same node, a node inside an earlier target, or an earlier target inside this one.
    if (targets.has(full) || containers.has(full)) return false;
    for (const c of outer) if (targets.has(c)) return false;
    targets.add(full);
    for (const c of outer) containers.add(c);
  }
  for (const edit of edits) {
    if (edit.insert?.point === undefined) continue;
    // The point is a sibling of the edit's own target, so any match is another edit's.
    const { full, containers: outer } = pathKeys(edit.insert.point);
    if (targets.has(full) || containers.has(full)) return false;
    for (const c of outer) if (targets.has(c)) return false;
  }
  return true;
}
