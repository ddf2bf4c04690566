import type { InstanceTree } from './instance';
import { applyView } from './view';

/**
 * Applies the RESTCONF `depth` query parameter (RFC 8040 section 4.8.2) to a decoded tree, in place, and
 * returns it. The target resource is level 1 (for a datastore document the datastore itself, so top-level
 * nodes are level 2); nodes deeper than `depth` are removed. As RFC 8040 Appendix B.3.2 shows, the nodes
 * at the last level are all kept, containers and list entries there as empty nodes (`"library": {}`,
 * one `{}` per entry), so a client learns which child resources exist without their content. An encoder
 * applies the same rule while writing, without changing the tree, with its `view` option.
 */
export function applyDepth(tree: InstanceTree, depth: number | 'unbounded'): InstanceTree {
  return depth === 'unbounded' ? tree : applyView(tree, { depth });
}
