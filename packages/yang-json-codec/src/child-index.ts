import type { SchemaNode } from '@yangkit/yang-schema';
import { addChild, groupAt, instanceOf, pairsOf, sizeOf } from './child-map';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { entryKey, isWholeStep, type PathStep, stepKey } from './path-step';
import { finishInSlices, ITEMS_PER_STEP, Slices, type Steps } from './steps';

/**
 * Keyed lookup of list and leaf-list entries, and the mutations that keep it right.
 *
 * The entries of one list (or leaf-list) under one parent are one array of the parent's `children` map, in
 * document order (the order of an `ordered-by user` list). Beside an array of more than a few entries an
 * index maps each entry's key (see `entryKey`) to the entry; the decoders give it to the lists they read
 * ({@link adoptKeyIndex}), an edit to a list it fills past a few entries ({@link insertChild}); else
 * it is built on the first lookup, at once for a list of up to a few thousand entries, in the background
 * for a longer one, which is scanned meanwhile (or ahead of it, in steps, by {@link indexTreeSteps}: a
 * copy made by `cloneTree` has none). It is kept in step by the functions below, so finding an entry by
 * its keys costs O(1) whatever the list's size. A tree that is looked up by key must be changed through
 * these functions (or through a `ChangeLog`, which uses them); code that builds a fresh tree may push into
 * the arrays directly, as no index exists yet. A list
 * entry's keys and a leaf-list entry's value are its identity: they are never changed in place (remove the
 * entry and create another).
 */

/** Arrays up to this length are scanned rather than indexed (a Map costs more than a short scan). */
const SCAN_LIMIT = 8;

/**
 * Arrays up to this length have their index built by their first lookup, at once (a few milliseconds);
 * a longer one has it built in the background, in steps, and is scanned until then.
 */
const BUILT_AT_ONCE = 64 * ITEMS_PER_STEP;

const indexes = new WeakMap<readonly DataNode[], Map<string, DataNode>>();

/**
 * An index being built in steps ({@link indexGroupSteps}) from a copy of its group's entries, not yet used
 * by lookups. The functions below keep it in step with the group: an entry added meanwhile is indexed at
 * once, one removed is skipped. A state list, whose keys may repeat, has its build dropped instead (its
 * index keeps the first of a key in document order), which tells the builder to stop.
 */
interface IndexBuild {
  readonly index: Map<string, DataNode>;
  /** Entries removed from the group since the copy was taken. */
  readonly removed: Set<DataNode>;
}

const building = new WeakMap<readonly DataNode[], IndexBuild>();

function addEntry(index: Map<string, DataNode>, node: DataNode): void {
  const k = entryKey(node);
  if (k !== undefined && !index.has(k)) index.set(k, node);
}

function indexOf(group: readonly DataNode[]): Map<string, DataNode> {
  let index = indexes.get(group);
  if (index === undefined) {
    index = new Map();
    for (const n of group) addEntry(index, n);
    indexes.set(group, index);
    building.delete(group);
  }
  return index;
}

/**
 * Makes `index` (each entry's key, see `entryKey`, to the entry) the key index of `group`, a list's or
 * leaf-list's entries being decoded, whose keys the decoder collects anyway to refuse a repeated one:
 * the index then costs no pass of its own. The decoder keeps it in step with the entries it adds.
 */
export function adoptKeyIndex(group: readonly DataNode[], index: Map<string, DataNode>): void {
  building.delete(group);
  indexes.set(group, index);
}

/** True when lookups in `group` (a list's or leaf-list's entries) use an index that is already built. */
export function hasKeyIndex(group: readonly DataNode[]): boolean {
  return indexes.has(group);
}

/**
 * Builds the index of `group` in steps, a step every {@link ITEMS_PER_STEP} entries; lookups use it once
 * it is whole, and scan the group until then. The group may change between two steps (see
 * {@link IndexBuild}); should a state list change, or its index come otherwise, the work stops. Nothing
 * is done for a group indexed, or whose index is being built.
 */
export function* indexGroupSteps(group: readonly DataNode[]): Steps<void> {
  if (indexes.has(group) || building.has(group)) return;
  const build: IndexBuild = { index: new Map(), removed: new Set() };
  building.set(group, build);
  const entries = group.slice();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (!build.removed.has(entry)) addEntry(build.index, entry);
    if ((i + 1) % ITEMS_PER_STEP !== 0) continue;
    yield;
    if (building.get(group) !== build) return;
  }
  building.delete(group);
  indexes.set(group, build.index);
}

/**
 * Builds in steps the index that the first lookup by key in `group` would build at once: nothing for a
 * group short enough to be scanned, or whose index is built.
 */
export function* indexForLookupSteps(group: readonly DataNode[] | undefined): Steps<void> {
  if (group !== undefined && group.length > SCAN_LIMIT && isEntryGroup(group)) yield* indexGroupSteps(group);
}

/**
 * Builds, in steps, the missing indexes of every list and leaf-list under `holder` with more than a few
 * entries (the groups a lookup would index), so that the first lookup by key in a big list of a
 * datastore loaded or replaced whole finds its index made rather than building it at once. The tree may
 * change between steps (changes go through the functions below); a lookup in a group the work has not
 * reached yet builds that group's index at once, as without it.
 */
export function* indexTreeSteps(holder: ChildHolder): Steps<void> {
  const pending: ChildHolder[] = [holder];
  let visited = 0;
  while (pending.length > 0) {
    const children = pending.pop()!.children;
    if (children === undefined) continue;
    // The pairs of a map never change shape (see `pairsOf`): safe to follow across steps.
    const pairs = pairsOf(children);
    for (let p = 1; p < pairs.length; p += 2) {
      const group = groupAt(pairs, p);
      if (Array.isArray(group)) yield* indexForLookupSteps(group);
      // The group may shrink between steps: its length is read again each time.
      for (let i = 0; i < sizeOf(group); i++) {
        const n = instanceOf(group, i);
        if (n.children !== undefined) pending.push(n);
        if (++visited % ITEMS_PER_STEP === 0) yield;
      }
    }
  }
}

/** True for a group of list or leaf-list entries. */
function isEntryGroup(group: readonly DataNode[]): boolean {
  const kind = group[0]?.schema.kind;
  return kind === 'list' || kind === 'leaf-list';
}

/**
 * The entry of `group` (a list's or leaf-list's entries) whose key is `key` (see `entryKey`): the first
 * of that key in document order. A big group not indexed yet is scanned, its index built meanwhile in
 * the background, in slices, rather than by this lookup in one run (0.4 to 0.8 s for 500,000 entries).
 */
export function findEntry(group: readonly DataNode[], key: string): DataNode | undefined {
  const index = indexes.get(group);
  if (index !== undefined) return index.get(key);
  if (group.length > SCAN_LIMIT && group.length <= BUILT_AT_ONCE) return indexOf(group).get(key);
  if (group.length > BUILT_AT_ONCE && !building.has(group)) indexInBackground(group);
  for (const n of group) if (entryKey(n) === key) return n;
  return undefined;
}

/**
 * The entries of `group` whose keys are among `keys`, each the first of its key (see
 * {@link findEntry}): found by the index, or in one scan of a big group not indexed yet, a step every
 * {@link ITEMS_PER_STEP} entries, stopped once every key is found, rather than a scan for each key.
 * The group must not change until it ends.
 */
export function* findEntriesSteps(group: readonly DataNode[], keys: ReadonlySet<string>): Steps<DataNode[]> {
  if (keys.size <= 1 || group.length <= BUILT_AT_ONCE || indexes.has(group)) {
    const found: DataNode[] = [];
    for (const key of keys) {
      const entry = findEntry(group, key);
      if (entry !== undefined) found.push(entry);
    }
    return found;
  }
  if (!building.has(group)) indexInBackground(group);
  const found = new Map<string, DataNode>();
  for (let i = 0; i < group.length && found.size < keys.size; i++) {
    const n = group[i]!;
    const key = entryKey(n)!;
    if (keys.has(key) && !found.has(key)) found.set(key, n);
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
  }
  return [...found.values()];
}

/**
 * The positions in `group` of `entries` (some of its entries), ascending, found in one scan, a step
 * every {@link ITEMS_PER_STEP} entries, stopped once each is found: for a few entries of a big group,
 * rather than a search of the group for each. The group must not change until it ends.
 */
export function* positionsSteps(group: readonly DataNode[], entries: ReadonlySet<DataNode>): Steps<number[]> {
  const positions: number[] = [];
  for (let i = 0; i < group.length && positions.length < entries.size; i++) {
    if (entries.has(group[i]!)) positions.push(i);
    if ((i + 1) % ITEMS_PER_STEP === 0) yield;
  }
  return positions;
}

/** Builds the index of `group` in slices of a few milliseconds, from the next turn on. */
function indexInBackground(group: readonly DataNode[]): void {
  const steps = indexGroupSteps(group);
  // Its steps throw nothing: a change of the group stops them.
  new Slices()
    .turn()
    .then(() => finishInSlices(steps))
    .catch(() => undefined);
}

/** True for a step meant to name one entry that names none (keys missing while an entry is decoded). */
function namesOne(step: PathStep): boolean {
  const kind = step.schema.kind;
  return (kind === 'list' || kind === 'leaf-list') && !isWholeStep(step);
}

/** True when `holder` is a document rather than an instance. */
export function isDocument(holder: ChildHolder): holder is InstanceTree {
  return 'kind' in holder;
}

/**
 * The instance(s) one step names among the children of `holder`: the entry with the step's keys (or
 * value) in O(1), the single instance of a container, leaf or anydata, or every entry for a whole list.
 */
export function findChildren(holder: ChildHolder, step: PathStep): readonly DataNode[] {
  const group = holder.children?.get(step.schema);
  if (group === undefined) return [];
  const key = stepKey(step);
  if (key === undefined) return namesOne(step) ? [] : group;
  const found = findEntry(group, key);
  return found === undefined ? [] : [found];
}

/** The one instance a step names under `holder` (the first entry for a whole list), or undefined. */
export function findChild(holder: ChildHolder, step: PathStep): DataNode | undefined {
  const group = holder.children?.get(step.schema);
  if (group === undefined) return undefined;
  const key = stepKey(step);
  if (key === undefined) return namesOne(step) ? undefined : group[0];
  return findEntry(group, key);
}

/** The entry of list or leaf-list `schema` under `holder` whose key is `key` (see `entryKey`). */
export function findEntryByKey(holder: ChildHolder, schema: SchemaNode, key: string): DataNode | undefined {
  const group = holder.children?.get(schema);
  return group === undefined ? undefined : findEntry(group, key);
}

/** Follows `steps` from `holder`, O(depth); undefined when an instance on the way is missing. */
export function findPath(holder: ChildHolder, steps: readonly PathStep[]): DataNode | undefined {
  let node: ChildHolder | undefined = holder;
  for (const step of steps) {
    node = findChild(node, step);
    if (node === undefined) return undefined;
  }
  return node as DataNode | undefined;
}

/** The parent a child of `holder` points to (undefined at the top of a document). */
function parentFor(holder: ChildHolder): DataNode | undefined {
  return isDocument(holder) ? undefined : (holder as DataNode);
}

function forget(group: DataNode[], node: DataNode): void {
  const build = building.get(group);
  if (build !== undefined) {
    if (!node.schema.config) building.delete(group);
    else {
      build.removed.add(node);
      const k = entryKey(node);
      if (k !== undefined && build.index.get(k) === node) build.index.delete(k);
    }
  }
  const index = indexes.get(group);
  if (index === undefined) return;
  const k = entryKey(node);
  if (k === undefined || index.get(k) !== node) return;
  index.delete(k);
  // State leaf-lists and keyless lists may repeat a key: rebuild rather than lose the other entry.
  if (!node.schema.config) indexes.delete(group);
}

/**
 * Adds `node` under `holder` at `position` among the instances of its schema node (default: the end),
 * setting its parent.
 */
export function insertChild(holder: ChildHolder, node: DataNode, position?: number): void {
  const children = holder.children!;
  node.parent = parentFor(holder);
  const group = children.get(node.schema);
  // A new group is the node held alone (see `CompactChildMap`), not an array: one grown from empty
  // by a push keeps room for 16 more, most of the size of a group of a few. It has no index yet.
  if (group === undefined) {
    addChild(children, node);
    return;
  }
  if (position === undefined || position >= group.length) group.push(node);
  else group.splice(Math.max(0, position), 0, node);
  const build = building.get(group);
  if (build !== undefined) {
    if (node.schema.config) addEntry(build.index, node);
    else building.delete(group);
  }
  const index = indexes.get(group);
  if (index !== undefined) addEntry(index, node);
  // A list an edit fills (a datastore's first content, say) is indexed as it passes the entries that
  // are scanned, then kept in step: its first lookup by key does not build the index of it whole.
  else if (group.length === SCAN_LIMIT + 1 && isEntryGroup(group)) indexOf(group);
}

/** The position of `node` among the instances of its schema node under `holder` (-1 when absent). */
export function positionOf(holder: ChildHolder, node: DataNode): number {
  const group = holder.children?.get(node.schema);
  // Recently added entries are at the end: search from there.
  return group === undefined ? -1 : group.lastIndexOf(node);
}

/** Removes `node` from `holder` (its parent is left as it was); returns the position it had, or -1. */
export function removeChild(holder: ChildHolder, node: DataNode): number {
  const children = holder.children;
  const group = children?.get(node.schema);
  if (group === undefined) return -1;
  const at = group.lastIndexOf(node);
  if (at < 0) return -1;
  group.splice(at, 1);
  forget(group, node);
  if (group.length === 0) {
    children!.delete(node.schema);
    indexes.delete(group);
  }
  return at;
}

/** Moves `node` to `position` among the instances of its schema node under `holder` (RFC 7950 7.8.6). */
export function moveChild(holder: ChildHolder, node: DataNode, position: number): void {
  const group = holder.children?.get(node.schema);
  if (group === undefined) return;
  const at = group.lastIndexOf(node);
  if (at < 0) return;
  group.splice(at, 1);
  group.splice(Math.min(Math.max(0, position), group.length), 0, node);
  // An index maps keys to entries, whatever their order; a state list's keeps the first of a key.
  if (!node.schema.config) building.delete(group);
}

/** Puts `fresh` in the place of `old` under `holder` (same schema node), keeping its position. */
export function replaceChild(holder: ChildHolder, old: DataNode, fresh: DataNode): void {
  const group = holder.children?.get(old.schema);
  const at = group === undefined ? -1 : group.lastIndexOf(old);
  if (at < 0) {
    insertChild(holder, fresh);
    return;
  }
  group!.splice(at, 1);
  forget(group!, old);
  insertChild(holder, fresh, at);
}
