import {
  type ChildMap,
  CompactChildMap,
  cloneNodeSteps,
  type DataNode,
  entryKey,
  finishSteps,
  type InstanceTree,
  ITEMS_PER_STEP,
  type NodeFilter,
  type PathStep,
  type Steps,
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
  return finishSteps(readableTreeSteps(access, tree, share));
}

/**
 * {@link readableTree} in steps (see the codec's `Steps`), a step every few dozen nodes walked, so
 * that a server can copy what a user may read of a big datastore in slices. `tree` must not change
 * until it ends.
 */
export function* readableTreeSteps(
  access: UserAccess,
  tree: InstanceTree,
  share = true,
): Steps<InstanceTree> {
  const walk = new ReadableWalk(access, share);
  const children = yield* walk.children(tree.children, undefined, access.rootStates());
  return { ...tree, children };
}

/** One walk of {@link readableTreeSteps}: its user, whether it shares, and the nodes it has walked. */
class ReadableWalk {
  #walked = 0;

  constructor(
    private readonly access: UserAccess,
    private readonly share: boolean,
  ) {}

  *children(children: ChildMap, parent: DataNode | undefined, states: MatchState): Steps<ChildMap> {
    const out: ChildMap = new CompactChildMap();
    for (const [schema, nodes] of children) {
      const kept: DataNode[] = [];
      for (const child of nodes) {
        if (++this.#walked % ITEMS_PER_STEP === 0) yield;
        const c = yield* this.child(parent, child, states);
        if (c !== undefined) kept.push(c);
      }
      if (kept.length > 0) out.set(schema, kept);
    }
    return out;
  }

  *child(
    parent: DataNode | undefined,
    child: DataNode,
    parentStates: MatchState,
  ): Steps<DataNode | undefined> {
    const states = readableStates(this.access, parentStates, child);
    if (states === undefined) return undefined;
    // A full copy (for XPath, which walks to parents) is made in steps too, as the filter is evaluated.
    if (states === READABLE_BELOW) return this.share ? child : yield* cloneNodeSteps(child, parent);
    const copy: DataNode = { ...child, parent, children: undefined };
    copy.children = yield* this.children(child.children!, copy, states);
    return copy;
  }
}

/** The states of a node under which everything is readable: nothing below it is checked. */
const READABLE_BELOW: MatchState = [];

/**
 * The one read decision, for a copy ({@link readableTree}) and a view ({@link readFilter}) alike: the
 * match states of `node` (a child of a node in `parentStates`), undefined when the user may not read
 * it, {@link READABLE_BELOW} when every node in its subtree is readable.
 */
function readableStates(
  access: UserAccess,
  parentStates: MatchState,
  node: DataNode,
): MatchState | undefined {
  const schema = node.schema;
  const states = access.childStates(parentStates, schema, entryKey(node) ?? '');
  // A readable list entry keeps its keys: an entry without them could not be written.
  if (!schema.isKey && !access.permitted(schema, states, Access.read)) return undefined;
  return node.children === undefined || access.readableBelow(schema, states) ? READABLE_BELOW : states;
}

/**
 * The read access of a user (RFC 8341 section 3.4.5) as a filter of the codec's view: what
 * {@link readableTree} leaves out, left out while a data tree (from the datastore root) is written,
 * without a copy and without a walk ahead of the first byte.
 */
export function readFilter(access: UserAccess): NodeFilter<MatchState> {
  return {
    root: access.rootStates(),
    child: (parent, node) => readableStates(access, parent, node),
    keepsAllBelow: (states) => states === READABLE_BELOW,
    namedEntries: (parent, schema) => access.namedEntries(parent, schema),
  };
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
