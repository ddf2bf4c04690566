import type { FieldsNode } from '@yangkit/restconf-uri';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { findEntriesSteps, positionsSteps } from './child-index';
import { type ChildPairs, type Group, groupAt, instanceOf, MappedPairs, pairsOf, sizeOf } from './child-map';
import { contentGroups, holdsNoState } from './content';
import { fieldSelection, fieldsGroups, type Selection, selectedBelow } from './fields';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { type OriginRule, Origins } from './origin';
import { entryKey } from './path-step';
import { finishSteps, StepCounter, type Steps } from './steps';
import { checkedMode, defaultsGroups, type WithDefaultsMode } from './with-defaults';

/**
 * What a read writes of a tree, applied while it is walked rather than to the tree: the tree is only
 * read, so an encoder given a view writes a datastore's own nodes without copying them. In the order
 * they apply to each node's children:
 * - `withDefaults`: RFC 6243 section 3 (RESTCONF `with-defaults`, RFC 8040 section 4.8.9);
 * - `content`: RFC 8040 section 4.8.1 `content` / RFC 8526 section 3.1.1 `config-filter`, which
 *   also leaves out what `withDefaults` adds outside it;
 * - `fields`: RFC 8040 section 4.8.3;
 * - `depth`: RFC 8040 section 4.8.2;
 * - `origin`: RFC 8342 section 5.3.4 (RESTCONF `with-origin`, RFC 8527 section 3.2.2).
 */
export interface TreeView {
  /** `config` writes configuration only; `nonconfig` state, with the configuration ancestors (and list keys) that lead to it. */
  readonly content?: 'config' | 'nonconfig' | 'all';
  /** The with-defaults mode; `explicit` (the default) writes the tree as it is. */
  readonly withDefaults?: WithDefaultsMode;
  /** The `fields` expression, or its parsed form (`parseFields` of @yangkit/restconf-uri). */
  readonly fields?: string | readonly FieldsNode[];
  /** The `depth`; the target is level 1 (for a data document the datastore, so top-level nodes are level 2). */
  readonly depth?: number | 'unbounded';
  /**
   * The origin of each node, written as the `ietf-origin:origin` annotation where it differs from the
   * parent's (every top-level node states its own). A node's own annotation stands, and what
   * `withDefaults` adds has origin `ietf-origin:default`; the rule gives the rest. Absent: none written.
   */
  readonly origin?: OriginRule;
  /**
   * Nodes left out with their subtrees (access control, for one), applied after `withDefaults`
   * and before the rest, so `content`, `fields` and `depth` see only what it keeps.
   */
  readonly filter?: NodeFilter;
}

/**
 * A rule that leaves instances out of a read, with their subtrees, decided per instance from a state
 * carried down the walk from the root: a child's state comes from its parent's, so a rule that
 * matches by path and key costs one step per node. A list entry's keys are written whenever the entry
 * is (an entry without them could not be told apart), so the filter is not asked about them.
 * The walk is depth first; the states it holds are those of the holders on the way down.
 */
export interface NodeFilter<S = unknown> {
  /** The state of the tree itself (the datastore root, for a data tree). */
  readonly root: S;
  /** The state of `node`, a child of a holder in state `parent`; undefined when `node` is left out. */
  child(parent: S, node: DataNode): S | undefined;
  /** True when nothing below a node in `state` is left out: its subtree is written unchecked. */
  keepsAllBelow(state: S): boolean;
  /**
   * The instances of `schema` below a holder in state `parent` that `child` may judge apart from the
   * others, by their entry keys (`entryKey`: a list entry's key values joined by NUL, a leaf-list
   * entry's value): every instance whose key is not among them gets the same answer, state included,
   * as any other such instance. Empty when every instance gets the same answer (a container, a leaf,
   * a list whose entries the filter does not tell apart). Undefined when the filter cannot say (it
   * tells entries apart by part of their keys, say). Absent: undefined for every group.
   *
   * A group of configuration entries (whose keys are unique, RFC 7950 sections 7.7 and 7.8.2) is then
   * judged by the entries named, found by key, and one representative of the rest, so a big list is
   * not walked ahead of its entries; any other group has every instance judged.
   */
  namedEntries?(parent: S, schema: SchemaNode): readonly string[] | undefined;
}

/** How a filter judged the entries of a group it names apart (see {@link judgedByKeySteps}). */
export interface KeyedJudgement {
  /** The state of every entry not named (undefined: each is left out). */
  readonly rest: unknown;
  /** Each entry named that the group holds, with its state (undefined: left out). */
  readonly named: ReadonlyMap<DataNode, unknown>;
  /** The entries named whose fate (kept or left out) differs from the rest's. */
  readonly apart: ReadonlySet<DataNode>;
}

/**
 * How `filter` judges `group`, the configuration entries of a list or leaf-list below a holder in
 * state `state`, given `named`, the entries it tells apart ({@link NodeFilter.namedEntries}): each
 * named entry is found by key and judged, and one entry not named judged for all the others. Entry
 * keys are unique in configuration (RFC 7950 sections 7.7 and 7.8.2), so a big list is not walked:
 * at most one entry more than those named is looked at, once the group's key index is built (until
 * then the named entries are found in one scan, in steps). The group must not change until it ends.
 */
export function* judgedByKeySteps(
  filter: NodeFilter,
  state: unknown,
  group: readonly DataNode[],
  named: readonly string[],
): Steps<KeyedJudgement> {
  const keys = new Set(named);
  const representative = keys.size === 0 ? group[0] : group.find((n) => !keys.has(entryKey(n)!));
  const rest = representative === undefined ? undefined : filter.child(state, representative);
  const judged = new Map<DataNode, unknown>();
  const apart = new Set<DataNode>();
  for (const entry of yield* findEntriesSteps(group, keys)) {
    const entryState = filter.child(state, entry);
    judged.set(entry, entryState);
    if ((entryState === undefined) !== (rest === undefined)) apart.add(entry);
  }
  return { rest, named: judged, apart };
}

/**
 * The entries of `schema` below a holder in state `state` that `filter` judges apart by key (see
 * {@link judgedByKeySteps}); empty when it judges them all alike, undefined when each must be judged on
 * its own. Entries named by key stand for all their twins only in configuration, where keys are
 * unique (RFC 7950 sections 7.7 and 7.8.2): a state list's named entries are judged each.
 */
export function entriesNamedApart(
  filter: NodeFilter,
  state: unknown,
  schema: SchemaNode,
): readonly string[] | undefined {
  const named = filter.namedEntries?.(state, schema);
  return named !== undefined && (named.length === 0 || schema.config) ? named : undefined;
}

const NO_GROUPS: ChildPairs = [];

/** The rules of one view over one tree. */
class Rules {
  readonly schema: SchemaTree;
  readonly content: 'config' | 'nonconfig' | 'all';
  readonly withDefaults: WithDefaultsMode;
  readonly depth: number;
  readonly fields: Selection | undefined;
  readonly origins: Origins | undefined;
  readonly filter: NodeFilter | undefined;
  /**
   * True when `content=nonconfig` keeps a configuration node (a child of the holder last grouped at
   * `place`'s parent): state the filter keeps lies at or below it.
   */
  readonly stateBelow = (node: DataNode, place: Place): Steps<boolean> =>
    this.hasState(node, place, place.stateOf(node));

  /** Counts the instances judged or looked at in this walk, for its steps. */
  private readonly steps = new StepCounter();

  /**
   * In steps, a step every {@link ITEMS_PER_STEP} instances looked at, however deep; a group whose
   * schema holds no state below it is not looked into (a big list of configuration, say).
   */
  private *hasState(node: DataNode, place: Place, state: unknown): Steps<boolean> {
    const pairs = this.defaulted(node, place);
    for (let i = 0; i < pairs.length; i += 2) {
      const schema = pairs[i] as SchemaNode;
      if (schema.isKey || holdsNoState(schema)) continue;
      const group = groupAt(pairs, i + 1);
      const below = place.child(schema);
      for (let k = 0; k < sizeOf(group); k++) {
        if (this.steps.next()) yield;
        const child = instanceOf(group, k);
        const childState = this.childState(state, child);
        if (this.filter !== undefined && childState === undefined) continue;
        if (!schema.config) return true;
        if (child.children !== undefined && (yield* this.hasState(child, below, childState))) return true;
      }
    }
    return false;
  }

  /** The filter's state of `node` from its holder's (`state`), undefined when it is left out. */
  private childState(state: unknown, node: DataNode): unknown {
    const filter = this.filter;
    if (filter === undefined || node.schema.isKey || filter.keepsAllBelow(state)) return state;
    return filter.child(state, node);
  }

  constructor(tree: InstanceTree, view: TreeView) {
    this.schema = tree.schema;
    this.content = view.content ?? 'all';
    this.withDefaults = checkedMode(view.withDefaults ?? 'explicit');
    this.depth = view.depth === undefined || view.depth === 'unbounded' ? Infinity : view.depth;
    this.fields = view.fields === undefined ? undefined : fieldSelection(view.fields);
    this.origins = view.origin === undefined ? undefined : new Origins(view.origin);
    this.filter = view.filter;
  }

  /**
   * The groups of `pairs` (a holder's, in filter state `state`, held at `place`) with the instances
   * the filter leaves out removed. Each place of a child group is told the states decided for its
   * instances, which they are written with (see `Place.stateOf`): a node is judged once per walk
   * (`content=nonconfig`'s look-ahead, `stateBelow`, judges what lies below on its own).
   *
   * In steps: a group the filter cannot judge by key (see {@link entriesNamedApart}) has each of its
   * instances judged, a step every {@link ITEMS_PER_STEP}, so that an encoder gives the event loop
   * turns while a big list is judged ahead of its first entry. The states of the entries kept are
   * held until the group is written: they are what the entries are written with.
   */
  *filtered(pairs: ChildPairs, state: unknown, place: Place): Steps<ChildPairs> {
    const filter = this.filter!;
    const mapped = new MappedPairs(pairs);
    for (let i = 0; i < pairs.length; i += 2) {
      const schema = pairs[i] as SchemaNode;
      const group = groupAt(pairs, i + 1);
      if (schema.isKey) {
        mapped.put(i, group);
        continue;
      }
      const below = place.child(schema);
      const named = entriesNamedApart(filter, state, schema);
      if (named?.length === 0) {
        const shared = filter.child(state, instanceOf(group, 0));
        below.decided(shared, undefined);
        mapped.put(i, shared === undefined ? undefined : group);
        continue;
      }
      if (named !== undefined && Array.isArray(group)) {
        mapped.put(i, yield* this.filteredByKey(group as readonly DataNode[], named, state, below));
        continue;
      }
      const states = new Map<DataNode, unknown>();
      const kept: DataNode[] = [];
      for (let k = 0; k < sizeOf(group); k++) {
        if (this.steps.next()) yield;
        const n = instanceOf(group, k);
        const childState = filter.child(state, n);
        if (childState === undefined) continue;
        states.set(n, childState);
        kept.push(n);
      }
      below.decided(undefined, states);
      mapped.put(i, kept.length === sizeOf(group) ? group : kept);
    }
    return mapped.pairs();
  }

  /**
   * A group of configuration entries of which the filter judges those `named` apart (see
   * {@link judgedByKeySteps}): what is left out is cut from the group by slices, never entry by entry.
   */
  private *filteredByKey(
    group: readonly DataNode[],
    named: readonly string[],
    state: unknown,
    below: Place,
  ): Steps<Group | undefined> {
    const { rest, named: states, apart } = yield* judgedByKeySteps(this.filter!, state, group, named);
    below.decided(rest, states);
    if (apart.size === 0) return rest === undefined ? undefined : group;
    const positions = yield* positionsSteps(group, apart);
    if (rest === undefined) return positions.map((at) => group[at]!);
    const slices: DataNode[][] = [];
    let from = 0;
    for (const at of positions) {
      slices.push(group.slice(from, at));
      from = at + 1;
    }
    slices.push(group.slice(from));
    return ([] as DataNode[]).concat(...slices);
  }

  /** The children of `holder` after with-defaults (which applies to inner nodes, not to a document). */
  defaulted(holder: ChildHolder, place: Place): ChildPairs {
    if (holder.children === undefined) return NO_GROUPS;
    const pairs = pairsOf(holder.children);
    if (!place.inner || this.withDefaults === 'explicit') return pairs;
    return defaultsGroups(this.schema, holder as DataNode, pairs, this.withDefaults);
  }
}

/**
 * Where a walk of a viewed tree is: the level and the part of `fields` that apply to a holder's
 * children, and the filter state of the holder last grouped here. One place per schema node reached
 * (places of the entries of a list are one), so a walk allocates nothing per node for it.
 */
export class Place {
  private next: Map<SchemaNode, Place> | undefined;
  /** The filter state of the holder last grouped here (the walk is depth first: the one being written). */
  private state: unknown;
  /**
   * The filter states of the instances here of the holder last grouped at the parent place (see
   * {@link decided}): those judged one by one, and the state of every other.
   */
  private judged: ReadonlyMap<DataNode, unknown> | undefined;
  private shared: unknown;
  /** The holder last grouped here, and its groups. */
  private holder: ChildHolder | undefined;
  private pairs: ChildPairs = NO_GROUPS;

  constructor(
    private readonly rules: Rules,
    /** The place of the holder's parent; undefined for the tree itself. */
    private readonly parent: Place | undefined,
    /** The RFC 8040 section 4.8.2 level of the holder. */
    private readonly level: number,
    /** The selection among the holder's children; undefined: all of them. */
    private readonly fields: Selection | undefined,
    /** For a resource document: the selection its top-level nodes apply to their children. */
    private readonly topFields: Selection | undefined,
    /** The module of the holder (a `fields` name without one is of this module). */
    private readonly module: string | undefined,
    /** True for an inner node, false for the document. */
    readonly inner: boolean,
  ) {
    if (parent === undefined) this.state = rules.filter?.root;
  }

  /** True when an inner node here is written without its children: it is at the last level `depth` asks for. */
  get truncated(): boolean {
    return this.level >= this.rules.depth;
  }

  /** The place of the instances of `schema`, a child of this place's holder. */
  child(schema: SchemaNode): Place {
    let place = this.next?.get(schema);
    if (place === undefined) {
      const fields = this.topFields ?? selectedBelow(this.fields, schema, this.module);
      place = new Place(this.rules, this, this.level + 1, fields, undefined, schema.module, true);
      (this.next ??= new Map()).set(schema, place);
    }
    return place;
  }

  /**
   * The filter state of `holder`, an instance here whose parent is the holder last grouped at the
   * parent place: the one decided as that holder was grouped (undefined when the filter leaves it out).
   */
  stateOf(holder: ChildHolder): unknown {
    const filter = this.rules.filter;
    if (filter === undefined) return undefined;
    const parent = this.parent;
    if (parent === undefined) return filter.root;
    // Nothing below a holder whose subtree is written unchecked was judged: they all have its state.
    if (filter.keepsAllBelow(parent.state)) return parent.state;
    return this.judged?.get(holder as DataNode) ?? this.shared;
  }

  /**
   * Records the filter states decided for the instances here of the holder being grouped at the
   * parent place: `judged` for those judged one by one, `shared` for every other one.
   * @internal
   */
  decided(shared: unknown, judged: ReadonlyMap<DataNode, unknown> | undefined): void {
    this.shared = shared;
    this.judged = judged;
  }

  /**
   * The child groups the view writes of `holder` (held here), as pairs (see `pairsOf`): the holder's
   * own when the view leaves them as they are; instances the view adds or annotates are new nodes.
   */
  groups(holder: ChildHolder): ChildPairs {
    // An encoder asks again for the holder it is writing (whether anything is written, then what):
    // the answer is kept, so a filter judges the entries of a big list once per walk.
    if (holder === this.holder) return this.pairs;
    return this.kept(holder, finishSteps(this.viewedGroups(holder)));
  }

  /**
   * {@link groups} in steps: a step every {@link ITEMS_PER_STEP} instances judged one by one (by the
   * filter, or by `content=nonconfig`'s look-ahead), so that an encoder writing a holder of a big
   * list can yield while its entries are judged, before the first one is written. The answer is
   * kept as `groups` keeps it.
   */
  *groupsInSteps(holder: ChildHolder): Steps<ChildPairs> {
    if (holder === this.holder) return this.pairs;
    return this.kept(holder, yield* this.viewedGroups(holder));
  }

  /** Keeps `pairs` as the groups of `holder`, the holder last grouped here; returns them. */
  private kept(holder: ChildHolder, pairs: ChildPairs): ChildPairs {
    this.holder = holder;
    this.pairs = pairs;
    return pairs;
  }

  private *viewedGroups(holder: ChildHolder): Steps<ChildPairs> {
    const rules = this.rules;
    if (this.truncated) return NO_GROUPS;
    let pairs = rules.defaulted(holder, this);
    if (rules.filter !== undefined) {
      this.state = this.stateOf(holder);
      if (this.state === undefined) pairs = NO_GROUPS;
      else if (!rules.filter.keepsAllBelow(this.state))
        pairs = yield* rules.filtered(pairs, this.state, this);
    }
    if (rules.content !== 'all')
      pairs = yield* contentGroups(pairs, rules.content === 'config', this, rules.stateBelow);
    if (this.fields !== undefined) {
      const keys = this.inner ? (holder as DataNode).schema.keyNodes : undefined;
      pairs = fieldsGroups(pairs, this.fields, this.module, keys);
    }
    if (rules.origins !== undefined) pairs = rules.origins.annotate(holder, pairs, this.inner);
    return pairs;
  }
}

/**
 * Where an encoder's walk of `tree` starts: the tree's place under `view`, or undefined when there
 * is no view or it writes the tree as it is (what a plain read passes), so that such a walk costs
 * nothing per node for the view.
 */
export function startPlace(tree: InstanceTree, view: TreeView | undefined): Place | undefined {
  if (view === undefined) return undefined;
  const judged = judgedAhead.get(view);
  judgedAhead.delete(view);
  const asItIs =
    (view.content ?? 'all') === 'all' &&
    (view.withDefaults ?? 'explicit') === 'explicit' &&
    view.fields === undefined &&
    (view.depth ?? 'unbounded') === 'unbounded' &&
    view.origin === undefined &&
    view.filter === undefined;
  if (asItIs) return undefined;
  return judged?.tree === tree ? judged.place : viewPlace(tree, view);
}

/** The place of `tree` itself under `view`, from which a walk starts. */
export function viewPlace(tree: InstanceTree, view: TreeView): Place {
  const rules = new Rules(tree, view);
  const datastore = tree.kind === 'data' || tree.kind === 'config';
  // A datastore is level 1, so its top-level nodes are level 2; a resource's top-level nodes are level 1.
  return datastore
    ? new Place(rules, undefined, 1, rules.fields, undefined, undefined, false)
    : new Place(rules, undefined, 0, undefined, rules.fields, undefined, false);
}

/**
 * The place from which {@link viewedTopLevelSteps} judged a tree under a view, kept for the first
 * encoder that then writes that tree under that view: the groups it judged (a big list's entries
 * judged one by one, say) are kept by their places (see `Place.groups`), so the encoder does not
 * judge them again. Taken once, so a later walk (of a tree changed since) starts afresh.
 */
const judgedAhead = new WeakMap<TreeView, { readonly tree: InstanceTree; readonly place: Place }>();

/** A top-level instance a view writes (see {@link viewedTopLevel}). */
export interface ViewedNode {
  readonly node: DataNode;
  /** True for an inner node written without children. */
  readonly empty: boolean;
}

/**
 * The top-level instances of `tree` that `view` writes, in order, each with whether it is an inner
 * node written without children: what a server answering for a target resource checks (the target
 * exists in the `content` asked for; an empty target is still written).
 */
export function viewedTopLevel(tree: InstanceTree, view: TreeView): ViewedNode[] {
  return finishSteps(viewedTopLevelSteps(tree, view));
}

/**
 * {@link viewedTopLevel} in steps (see {@link Steps}): a step every {@link ITEMS_PER_STEP}
 * top-level instances, or instances judged below them (a target list of many entries, a target
 * holding a big list that the view's filter judges entry by entry). `tree` must not change until it
 * ends.
 */
export function* viewedTopLevelSteps(tree: InstanceTree, view: TreeView): Steps<ViewedNode[]> {
  const root = viewPlace(tree, view);
  judgedAhead.set(view, { tree, place: root });
  const pairs = yield* root.groupsInSteps(tree);
  const steps = new StepCounter();
  const out: ViewedNode[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const group = groupAt(pairs, i + 1);
    const place = root.child(pairs[i] as SchemaNode);
    for (let k = 0; k < sizeOf(group); k++) {
      if (steps.next()) yield;
      const node = instanceOf(group, k);
      const empty = node.children !== undefined && (yield* place.groupsInSteps(node)).length === 0;
      out.push({ node, empty });
    }
  }
  return out;
}

/** Inner nodes whose children a view applied in place cut off by depth (see {@link isTruncatedByDepth}). */
const truncated = new WeakSet<ChildHolder>();

/**
 * True when applying a view in place emptied this node because its content lies below the requested
 * depth: it stands for content, so it is never left out as an empty non-presence container.
 */
export function isTruncatedByDepth(node: DataNode): boolean {
  return truncated.has(node);
}

/**
 * Makes `tree` what `view` writes of it, in place, and returns it: each holder's children become the
 * view's groups. The public `applyContent`, `applyWithDefaults`, `applyFields` and `applyDepth` are
 * this with one rule each.
 */
export function applyView(tree: InstanceTree, view: TreeView): InstanceTree {
  materialize(tree, viewPlace(tree, view));
  return tree;
}

function materialize(holder: ChildHolder, place: Place): void {
  const children = holder.children;
  if (children === undefined) return;
  if (place.inner && place.truncated) {
    children.clear();
    truncated.add(holder);
    return;
  }
  const pairs = place.groups(holder);
  if (pairs !== pairsOf(children)) {
    children.clear();
    for (let i = 0; i < pairs.length; i += 2) {
      const group = groupAt(pairs, i + 1);
      children.set(
        pairs[i] as SchemaNode,
        Array.isArray(group) ? (group as DataNode[]) : [group as DataNode],
      );
    }
  }
  for (let i = 0; i < pairs.length; i += 2) {
    const group = groupAt(pairs, i + 1);
    const below = place.child(pairs[i] as SchemaNode);
    for (let k = 0; k < sizeOf(group); k++) materialize(instanceOf(group, k), below);
  }
}
