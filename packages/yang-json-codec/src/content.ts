import type { SchemaNode } from '@yangkit/yang-schema';
import type { ChildHolder, InstanceTree } from './instance';

/**
 * Applies the RESTCONF `content` query parameter (RFC 8040 section 4.8.1) or the NMDA `config-filter`
 * (RFC 8526 section 3.1.1) to a tree, in place, and returns it: `config` keeps configuration nodes only;
 * `nonconfig` keeps state nodes, with the configuration ancestors (and list keys) that lead to them.
 */
export function applyContent(tree: InstanceTree, content: 'config' | 'nonconfig' | 'all'): InstanceTree {
  if (content !== 'all') prune(tree, content === 'config');
  return tree;
}

/** Drops what `content` leaves out below `holder`; true when state is left (nonconfig). */
function prune(holder: ChildHolder, config: boolean): boolean {
  const children = holder.children;
  if (children === undefined) return false;
  let kept = false;
  for (const [schema, nodes] of [...children]) {
    if (config) {
      if (!schema.config) children.delete(schema);
      else for (const n of nodes) prune(n, true);
      continue;
    }
    if (!schema.config) {
      kept = true;
      continue;
    }
    if (schema.isKey) continue;
    // A configuration container or list entry stays when state lies below it.
    const left = nodes.filter((n) => prune(n, false));
    if (left.length === 0) children.delete(schema);
    else {
      children.set(schema, left);
      kept = true;
    }
  }
  return kept;
}

const configOnly = new WeakMap<SchemaNode, boolean>();

/**
 * True when no state data can sit at or below `node` (RFC 7950 section 7.21.1 `config true` all
 * the way down), so the configuration alone answers a read of it.
 */
export function holdsNoState(node: SchemaNode): boolean {
  let known = configOnly.get(node);
  if (known === undefined) {
    known = node.config && node.dataChildren().every(holdsNoState);
    configOnly.set(node, known);
  }
  return known;
}
