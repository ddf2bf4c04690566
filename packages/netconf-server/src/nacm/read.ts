import { cloneNode, type DataNode } from '../data-tree.js';
import { Access } from './config.js';
import type { MatchState, UserAccess } from './rules.js';

/**
 * The part of a tree a user may read (RFC 8341 section 3.4.5, read access): unreadable nodes are
 * left out with their subtrees, silently. Only the parts that rules or extensions restrict are
 * walked; the rest is shared with `root` when `share` is true (the copy's nodes keep their
 * original parents there, so XPath filters, which walk to parents, get a full copy instead).
 */
export function readableTree(access: UserAccess, root: DataNode, share = true): DataNode {
  return copyReadable(access, root, access.rootStates(), share);
}

function copyReadable(access: UserAccess, node: DataNode, states: MatchState, share: boolean): DataNode {
  const copy: DataNode = {
    schema: node.schema,
    parent: undefined,
    key: node.key,
    value: node.value,
    xml: node.xml,
    kids: node.kids === undefined ? undefined : new Map(),
  };
  if (node.kids === undefined) return copy;
  for (const [schema, slot] of node.kids) {
    if (slot instanceof Map) {
      const kept = new Map<string, DataNode>();
      for (const [key, child] of slot) {
        const c = readableChild(access, copy, child, states, share);
        if (c !== undefined) kept.set(key, c);
      }
      if (kept.size > 0) copy.kids!.set(schema, kept);
    } else {
      const c = readableChild(access, copy, slot, states, share);
      if (c !== undefined) copy.kids!.set(schema, c);
    }
  }
  return copy;
}

function readableChild(
  access: UserAccess,
  parent: DataNode,
  child: DataNode,
  parentStates: MatchState,
  share: boolean,
): DataNode | undefined {
  const schema = child.schema!;
  const states = access.childStates(parentStates, schema, child.key);
  // A readable list entry keeps its keys: an entry without them could not be written.
  if (!schema.isKey && !access.permitted(schema, states, Access.read)) return undefined;
  if (child.kids === undefined || access.readableBelow(schema, states)) {
    if (share) return child;
    const c = cloneNode(child);
    c.parent = parent;
    return c;
  }
  const c = copyReadable(access, child, states, share);
  c.parent = parent;
  return c;
}
