import {
  type ChildMap,
  CompactChildMap,
  cloneNode,
  type DataNode,
  entryKey,
  type InstanceTree,
  type PathStep,
  stepKey,
} from '@yangkit/yang-json-codec';
import { Access } from './config.js';
import type { MatchState, UserAccess } from './rules.js';

/**
 * The part of a tree a user may read (RFC 8341 section 3.4.5, read access): unreadable nodes are
 * left out with their subtrees, silently. Only the parts that rules or extensions restrict are
 * walked; the rest is shared with `tree` when `share` is true (the copy's nodes keep their
 * original parents there, so XPath filters, which walk to parents, get a full copy instead).
 */
export function readableTree(access: UserAccess, tree: InstanceTree, share = true): InstanceTree {
  return {
    ...tree,
    children: readableChildren(access, tree.children, undefined, access.rootStates(), share),
  };
}

function readableChildren(
  access: UserAccess,
  children: ChildMap,
  parent: DataNode | undefined,
  states: MatchState,
  share: boolean,
): ChildMap {
  const out: ChildMap = new CompactChildMap();
  for (const [schema, nodes] of children) {
    const kept: DataNode[] = [];
    for (const child of nodes) {
      const c = readableChild(access, parent, child, states, share);
      if (c !== undefined) kept.push(c);
    }
    if (kept.length > 0) out.set(schema, kept);
  }
  return out;
}

function readableChild(
  access: UserAccess,
  parent: DataNode | undefined,
  child: DataNode,
  parentStates: MatchState,
  share: boolean,
): DataNode | undefined {
  const schema = child.schema;
  const states = access.childStates(parentStates, schema, entryKey(child) ?? '');
  // A readable list entry keeps its keys: an entry without them could not be written.
  if (!schema.isKey && !access.permitted(schema, states, Access.read)) return undefined;
  if (child.children === undefined || access.readableBelow(schema, states)) {
    return share ? child : cloneNode(child, parent);
  }
  const copy: DataNode = { ...child, parent, children: undefined };
  copy.children = readableChildren(access, child.children, copy, states, share);
  return copy;
}

/**
 * Whether the user may read every node along `steps`, from the root: a read leaves out an
 * unreadable node with its subtree, so the last node is readable only if all its ancestors are.
 */
export function readableAlong(access: UserAccess, steps: readonly PathStep[]): boolean {
  let states = access.rootStates();
  for (const s of steps) {
    states = access.childStates(states, s.schema, stepKey(s) ?? '');
    if (!s.schema.isKey && !access.permitted(s.schema, states, Access.read)) return false;
  }
  return true;
}
