import { findChild } from './child-index';
import { CompactChildMap } from './child-map';
import type { ChildHolder, ChildMap, DataNode, InstanceTree } from './instance';
import { stepOf } from './path-step';

/**
 * A read view of `base` with `extra` merged in (RFC 8342 operational state over configuration), sharing
 * every subtree of `base` that `extra` does not touch: only the instances on the way to a merged node are
 * copied (shallowly), so reading a datastore with some state added does not copy the datastore. Neither
 * tree changes; treat the view as read-only.
 */
export function overlayTree(base: InstanceTree, extra: InstanceTree): InstanceTree {
  return { ...base, children: overlayChildren(base, extra, undefined) };
}

function overlayChildren(base: ChildHolder, extra: ChildHolder, parent: DataNode | undefined): ChildMap {
  const out: ChildMap = new CompactChildMap(base.children);
  for (const [schema, nodes] of extra.children ?? []) {
    const group = [...(out.get(schema) ?? [])];
    for (const n of nodes) {
      const existing = findChild(base, stepOf(n));
      const at = existing === undefined ? -1 : group.indexOf(existing);
      const merged =
        existing?.children !== undefined && n.children !== undefined ? overlayNode(existing, n, parent) : n;
      if (at < 0) group.push(merged);
      else group[at] = merged;
    }
    out.set(schema, group);
  }
  return out;
}

function overlayNode(base: DataNode, extra: DataNode, parent: DataNode | undefined): DataNode {
  const copy: DataNode = { ...base, parent };
  copy.children = overlayChildren(base, extra, copy);
  return copy;
}
