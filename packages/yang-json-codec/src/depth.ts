import type { ChildHolder, DataNode, InstanceTree } from './instance';

/** Inner nodes whose descendants `applyDepth` cut off: they stand for content, so they are never
 *  dropped as empty non-presence containers. */
const truncated = new WeakSet<DataNode>();

/** True when `applyDepth` emptied this node (its content lies below the requested depth). */
export function isTruncatedByDepth(node: DataNode): boolean {
  return truncated.has(node);
}

/**
 * Applies the RESTCONF `depth` query parameter (RFC 8040 section 4.8.2) to a decoded tree, in place, and
 * returns it. The target resource is level 1 (for a datastore document the datastore itself, so top-level
 * nodes are level 2); nodes deeper than `depth` are removed. As RFC 8040 Appendix B.3.2 shows, the nodes
 * at the last level are all kept, containers and list entries there as empty nodes (`"library": {}`,
 * one `{}` per entry), so a client learns which child resources exist without their content.
 */
export function applyDepth(tree: InstanceTree, depth: number | 'unbounded'): InstanceTree {
  if (depth === 'unbounded') return tree;
  const datastore = tree.kind === 'data' || tree.kind === 'config';
  if (datastore && depth === 1) tree.children?.clear();
  else prune(tree, datastore ? 2 : 1, depth);
  return tree;
}

function prune(holder: ChildHolder, level: number, depth: number): void {
  const children = holder.children;
  if (children === undefined) return;
  for (const nodes of children.values()) {
    for (const n of nodes) {
      if (level < depth) prune(n, level + 1, depth);
      else if (n.children !== undefined) {
        n.children.clear();
        truncated.add(n);
      }
    }
  }
}
