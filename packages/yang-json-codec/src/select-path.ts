import { findChildren } from './child-index';
import { CompactChildMap } from './child-map';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { cloneNode, copyWithKeys } from './instance';
import { type PathStep, stepKey } from './path-step';

/**
 * The instances a data path names in `tree`, as a new document of `tree`'s kind that shares no node
 * with it: each instance copied whole, inside copies of its ancestors that hold the path's node alone
 * (a list entry with its keys), as the RFC 6241 section 6 subtree filter of the path selects: a list
 * entry named by its keys is selected with them even when the rest of the path is missing (its keys
 * are content match nodes, section 6.2.5). A keyed step costs O(1) (see `findChildren`); a step
 * without keys goes through every entry. An empty path copies the whole tree.
 *
 * With `share`, the instances the path names are not copied: the new document holds them as they are in
 * `tree` (their parents still those of `tree`), inside copies of their ancestors, and a whole list as
 * `tree`'s own array of its entries (with its index of keys, see `findEntry`). Such a view costs
 * O(path), whatever the size of the selection; it must not be changed, and it sees every later change
 * of `tree` (see `ChangeLog.hold`).
 */
export function selectPath(tree: InstanceTree, steps: readonly PathStep[], share = false): InstanceTree {
  const children = new CompactChildMap();
  if (steps.length === 0) {
    for (const [schema, nodes] of tree.children)
      children.set(schema, share ? nodes : nodes.map((n) => cloneNode(n, undefined)));
  } else {
    const selected = copiesAlong(tree, steps, 0, undefined, share);
    if (selected.length > 0) children.set(steps[0]!.schema, selected);
  }
  return { ...tree, children };
}

/** Copies of the instances `steps[i]` names below `source` that lead to the path's last node. */
function copiesAlong(
  source: ChildHolder,
  steps: readonly PathStep[],
  i: number,
  parent: DataNode | undefined,
  share: boolean,
): DataNode[] {
  const found = findChildren(source, steps[i]!);
  if (i === steps.length - 1) return share ? (found as DataNode[]) : found.map((n) => cloneNode(n, parent));
  const out: DataNode[] = [];
  // A list entry named by its keys is selected by them (its keys are content match nodes), whatever
  // lies below it; a container or an entry of a whole list only when the rest of the path is there.
  const named = stepKey(steps[i]!) !== undefined;
  for (const n of found) {
    // An inner node on the way to the selection: a list entry keeps its keys.
    const copy = copyWithKeys(n, parent, undefined);
    const below = copiesAlong(n, steps, i + 1, copy, share);
    if (below.length > 0) copy.children!.set(steps[i + 1]!.schema, below);
    if (below.length > 0 || named) out.push(copy);
  }
  return out;
}
