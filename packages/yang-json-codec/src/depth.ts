import type { ChildHolder, InstanceTree } from './instance';

/**
 * Applies the RESTCONF `depth` query parameter (RFC 8040 section 4.8.2) to a decoded tree, in place, and
 * returns it. The target resource is level 1 (for a datastore document the datastore itself, so top-level
 * nodes are level 2); nodes deeper than `depth` are removed. As the RFC's examples show (Appendix B.3.2),
 * leafs at the last level are kept while containers and list entries there are left out, except the target
 * itself, which stays as an empty node.
 */
export function applyDepth(tree: InstanceTree, depth: number | 'unbounded'): InstanceTree {
  if (depth === 'unbounded') return tree;
  const datastore = tree.kind === 'data' || tree.kind === 'config';
  prune(tree, datastore ? 2 : 1, depth, !datastore);
  return tree;
}

function prune(holder: ChildHolder, level: number, depth: number, targetLevel: boolean): void {
  const children = holder.children;
  if (children === undefined) return;
  for (const [schema, nodes] of children) {
    const inner =
      schema.kind !== 'leaf' &&
      schema.kind !== 'leaf-list' &&
      schema.kind !== 'anydata' &&
      schema.kind !== 'anyxml';
    if (level > depth || (inner && level === depth && !targetLevel)) {
      children.delete(schema);
      continue;
    }
    for (const n of nodes) prune(n, level + 1, depth, false);
  }
}
