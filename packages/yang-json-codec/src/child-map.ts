import type { SchemaNode } from '@yangkit/yang-schema';
import type { ChildMap, DataNode } from './instance';

/** Distinct schema nodes up to this many are found by a scan of the pairs; more get an index. */
const SCAN_LIMIT = 8;

/** The pairs of every map before its first key (never changed: a key added replaces the array). */
const NO_PAIRS: Slot[] = [];

/**
 * The children of one inner instance, as a `Map<SchemaNode, DataNode[]>` of a fraction of a Map's size.
 *
 * A tree has an inner node for every container and list entry, most with two to six child schema
 * nodes. A JS Map costs some 300 bytes even with two entries (its hash table is allocated for
 * several); this class keeps the pairs in one flat array of the exact size (key, group, key, group,
 * ...) that a lookup scans, and adds an index only past {@link SCAN_LIMIT} distinct schema nodes.
 * A group of one instance added by {@link addChild} (a leaf, a container: most groups) is kept as
 * the instance alone, and becomes an array the first time it is asked for as one (by `get` or an
 * iterator), which it then stays, so that every caller sees the same array as with a Map.
 *
 * Adding or removing a key replaces the array (a node's children change far less often than they
 * are read), so an array once read never changes shape: see {@link pairsOf}. The class behaves as a
 * Map in everything else, iterators included: they are live (they visit what is added while they run
 * and skip what is removed), following the arrays that replaced the one they started on.
 */
export class CompactChildMap implements Map<SchemaNode, DataNode[]> {
  /** Pairs in insertion order: each key at an even offset, its group after it. */
  private slots: Slot[] = NO_PAIRS;
  // The two fields below are on the prototype until a map sets its own (see `LeafInstance`): most maps
  // never do, and hold one field rather than three (16 bytes less each, 500,000 maps in a document
  // of 100,000 interfaces).
  /** Offset of each key in `slots`, once more than {@link SCAN_LIMIT} pairs are held. */
  declare private index: Map<SchemaNode, number> | undefined;
  /** Whether an iterator was ever made (one may still be on an older array). */
  declare private iterated: boolean;

  /** A map of `entries` (a Map or another child map to copy, say). */
  constructor(entries?: Iterable<readonly [SchemaNode, DataNode[]]> | null) {
    if (entries == null) return;
    if (entries instanceof CompactChildMap) {
      // A Map made from a Map shares its groups: make them arrays first.
      for (let i = 1; i < entries.slots.length; i += 2) entries.boxed(i);
      this.slots = entries.slots.slice();
    } else {
      const slots: Slot[] = [];
      for (const [k, v] of entries) {
        const at = slots.indexOf(k);
        if (at >= 0 && at % 2 === 0) slots[at + 1] = v;
        else slots.push(k, v);
      }
      this.slots = slots.slice();
    }
    this.reindex();
  }

  get size(): number {
    return this.slots.length >> 1;
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }

  private offsetOf(key: SchemaNode): number {
    if (this.index !== undefined) return this.index.get(key) ?? -1;
    const s = this.slots;
    for (let i = 0; i < s.length; i += 2) if (s[i] === key) return i;
    return -1;
  }

  get(key: SchemaNode): DataNode[] | undefined {
    const at = this.offsetOf(key);
    return at < 0 ? undefined : this.boxed(at + 1);
  }

  /**
   * The group at offset `at` of the pairs as an array, made one for good if it was one instance.
   * @internal
   */
  boxed(at: number): DataNode[] {
    const g = this.slots[at]!;
    if (Array.isArray(g)) return g;
    const group = [g as DataNode];
    this.slots[at] = group;
    return group;
  }

  /**
   * The first instance of `key`'s group, leaving a single instance as it is.
   * @internal
   */
  first(key: SchemaNode): DataNode | undefined {
    const at = this.offsetOf(key);
    if (at < 0) return undefined;
    const g = this.slots[at + 1]!;
    return Array.isArray(g) ? g[0] : (g as DataNode);
  }

  /**
   * Appends `node` to the group of its schema node, a new group being the node alone; returns the group.
   * @internal
   */
  add(node: DataNode): Group {
    const at = this.offsetOf(node.schema);
    if (at < 0) {
      this.append(node.schema, node);
      return node;
    }
    const group = this.boxed(at + 1);
    group.push(node);
    return group;
  }

  /** @internal See {@link fitGroup}. */
  fit(key: SchemaNode): void {
    const at = this.offsetOf(key);
    const group = this.slots[at + 1];
    if (at >= 0 && Array.isArray(group) && group.length <= FIT_LIMIT) this.slots[at + 1] = group.slice();
  }

  has(key: SchemaNode): boolean {
    return this.offsetOf(key) >= 0;
  }

  set(key: SchemaNode, group: DataNode[]): this {
    const at = this.offsetOf(key);
    if (at >= 0) this.slots[at + 1] = group;
    else this.append(key, group);
    return this;
  }

  private append(key: SchemaNode, group: DataNode[] | DataNode): void {
    // A copy of the exact size: a push would make room for 16 more pairs, most of the size of a
    // node's children.
    const s = this.slots;
    const fresh = new Array<Slot>(s.length + 2);
    for (let i = 0; i < s.length; i++) fresh[i] = s[i]!;
    fresh[s.length] = key;
    fresh[s.length + 1] = group;
    this.replace(fresh, NOTHING_REMOVED);
    if (this.index !== undefined) this.index.set(key, this.slots.length - 2);
    else if (this.slots.length > 2 * SCAN_LIMIT) this.reindex();
  }

  delete(key: SchemaNode): boolean {
    const at = this.offsetOf(key);
    if (at < 0) return false;
    const s = this.slots;
    const fresh = new Array<Slot>(s.length - 2);
    for (let i = 0; i < at; i++) fresh[i] = s[i]!;
    for (let i = at + 2; i < s.length; i++) fresh[i - 2] = s[i]!;
    this.replace(fresh, at);
    if (this.index !== undefined) this.reindex();
    return true;
  }

  clear(): void {
    this.replace([], ALL_REMOVED);
    if (this.index !== undefined) this.index = undefined;
  }

  /**
   * Puts `fresh` in the place of `slots`, `removed` being the offset of the pair it lacks. An
   * iterator may still be on the old array: then the old array points to its successor, so that
   * the iterator can find its place in the new one.
   */
  private replace(fresh: Slot[], removed: number): void {
    // An iterator on an older array reaches the current one through this chain, so once one was
    // made every replacement is recorded (the entries go with the arrays no iterator holds). The
    // empty array every map starts with is shared: an iterator on it goes to the current array.
    if (this.iterated && this.slots !== NO_PAIRS) successors.set(this.slots, { slots: fresh, removed });
    this.slots = fresh;
  }

  private reindex(): void {
    const s = this.slots;
    if (s.length <= 2 * SCAN_LIMIT) {
      // Only when set: the field stays on the prototype (see the class) rather than one more per map.
      if (this.index !== undefined) this.index = undefined;
      return;
    }
    const index = new Map<SchemaNode, number>();
    for (let i = 0; i < s.length; i += 2) index.set(s[i] as SchemaNode, i);
    this.index = index;
  }

  forEach(
    callback: (group: DataNode[], key: SchemaNode, map: Map<SchemaNode, DataNode[]>) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, group] of this) callback.call(thisArg, group, key, this);
  }

  keys(): MapIterator<SchemaNode> {
    return new KeyCursor(this);
  }

  values(): MapIterator<DataNode[]> {
    return new GroupCursor(this);
  }

  entries(): MapIterator<[SchemaNode, DataNode[]]> {
    return new EntryCursor(this);
  }

  [Symbol.iterator](): MapIterator<[SchemaNode, DataNode[]]> {
    return new EntryCursor(this);
  }

  /**
   * A map that takes `pairs` (see {@link pairsOf}; each key once) as its own.
   * @internal
   */
  static ofPairs(pairs: Slot[]): CompactChildMap {
    const map = new CompactChildMap();
    CompactChildMap.adopt(map, pairs);
    return map;
  }

  /**
   * Makes `pairs` (see {@link pairsOf}; each key once) the pairs of `map`, which holds none and made
   * no iterator yet (an inner node just made, say).
   * @internal
   */
  static adopt(map: CompactChildMap, pairs: Slot[]): void {
    map.slots = pairs;
    map.reindex();
  }

  /**
   * The pairs as they are now (see {@link pairsOf}).
   * @internal
   */
  static pairs(map: CompactChildMap): ChildPairs {
    return map.slots;
  }

  /**
   * The pairs as they are now, for a {@link Cursor} that will read them.
   * @internal
   */
  static pairsFor(map: CompactChildMap): ChildPairs {
    map.iterated = true;
    return map.slots;
  }
}

Object.defineProperty(CompactChildMap.prototype, 'index', { value: undefined, writable: true });
Object.defineProperty(CompactChildMap.prototype, 'iterated', { value: false, writable: true });

/** A key, or its group: an array, or one instance alone (see {@link CompactChildMap}). */
export type Slot = SchemaNode | DataNode[] | DataNode;

/** Schema nodes at even offsets, each followed by its group (read it with {@link groupAt}). */
export type ChildPairs = readonly Slot[];

/** A group as the pairs hold it: one instance alone, or an array of them (to read, not to change). */
export type Group = DataNode | readonly DataNode[];

/** The group at offset `at` of `pairs`, as it is held: read it with {@link sizeOf} and {@link instanceOf}. */
export function groupAt(pairs: ChildPairs, at: number): Group {
  return pairs[at] as Group;
}

/** How many instances `group` holds. */
export function sizeOf(group: Group): number {
  return Array.isArray(group) ? group.length : 1;
}

/**
 * Instance `k` of `group`. With {@link sizeOf}, a loop over the instances of a group that allocates
 * nothing for one held alone.
 */
export function instanceOf(group: Group, k: number): DataNode {
  return Array.isArray(group) ? (group as readonly DataNode[])[k]! : (group as DataNode);
}

/**
 * `pairs` with each group replaced by what `fn` makes of it (undefined or empty: the pair left out),
 * or `pairs` itself when `fn` gives every group back as it is: a view of a node's children that
 * allocates only when it differs.
 */
export function mapGroups(
  pairs: ChildPairs,
  fn: (schema: SchemaNode, group: Group) => Group | undefined,
): ChildPairs {
  const mapped = new MappedPairs(pairs);
  for (let i = 0; i < pairs.length; i += 2) mapped.put(i, fn(pairs[i] as SchemaNode, groupAt(pairs, i + 1)));
  return mapped.pairs();
}

/**
 * What {@link mapGroups} makes of `source`, built group by group by a caller that maps them itself
 * (work in steps, which a callback cannot yield from).
 */
export class MappedPairs {
  private out: Slot[] | undefined;

  constructor(private readonly source: ChildPairs) {}

  /** Puts `group` in the place of the group of the pair at offset `at` (undefined or empty: left out). */
  put(at: number, group: Group | undefined): void {
    const source = this.source;
    if (group !== groupAt(source, at + 1) && this.out === undefined) this.out = source.slice(0, at) as Slot[];
    if (this.out !== undefined && group !== undefined && sizeOf(group) > 0)
      this.out.push(source[at]!, group as Slot);
  }

  /** The pairs made: `source` itself when every group was put back as it is. */
  pairs(): ChildPairs {
    return this.out ?? this.source;
  }
}

/** Adds `node` at the end of the instances of its schema node in `children`; returns their group. */
export function addChild(children: ChildMap, node: DataNode): Group {
  if (children instanceof CompactChildMap) return children.add(node);
  const group = children.get(node.schema);
  if (group === undefined) {
    const fresh = [node];
    children.set(node.schema, fresh);
    return fresh;
  }
  group.push(node);
  return group;
}

/**
 * Groups up to this many instances are fitted ({@link fitGroup}); a longer one keeps its array: its
 * room for more is small beside its entries, and the decoder gave that array its key index (see
 * child-index's `adoptKeyIndex`, which indexes the groups a lookup would: those of more than 8).
 */
const FIT_LIMIT = 8;

/**
 * Makes the group of `schema` in `children`, grown by {@link addChild}, an array of its exact size:
 * an array filled by `push` keeps room for more, most of its size for a list of a few entries. A
 * group of one instance stays the instance alone, one of more than {@link FIT_LIMIT} its array.
 */
export function fitGroup(children: ChildMap, schema: SchemaNode): void {
  if (children instanceof CompactChildMap) children.fit(schema);
  else {
    const group = children.get(schema);
    if (group !== undefined && group.length <= FIT_LIMIT) children.set(schema, group.slice());
  }
}

/**
 * The groups of `children` as they are now, each with its schema node: for a loop that does not
 * change the map while it runs (it may change the groups). Unlike the map's own iterators, which
 * follow it live, it leaves the map as it is: a map that made an iterator records each change of its
 * keys from then on, with a field of its own, one more on every node of a datastore an edit walked.
 */
export function entriesOf(children: ChildMap): [SchemaNode, readonly DataNode[]][] {
  const pairs = pairsOf(children);
  const entries: [SchemaNode, readonly DataNode[]][] = new Array(pairs.length >> 1);
  for (let p = 0; p < pairs.length; p += 2) {
    const group = groupAt(pairs, p + 1);
    entries[p >> 1] = [pairs[p] as SchemaNode, Array.isArray(group) ? group : [group as DataNode]];
  }
  return entries;
}

/** The first instance of `schema` in `children` (of a leaf or a container: the one instance). */

export function firstChild(children: ChildMap | undefined, schema: SchemaNode): DataNode | undefined {
  if (children instanceof CompactChildMap) return children.first(schema);
  return children?.get(schema)?.[0];
}

/**
 * The pairs of `children` as one flat array, a schema node then its group, in insertion order: for
 * the loops over a whole tree (encoders, validation) that should allocate nothing per node. For a
 * {@link CompactChildMap} this is its own array, which a later `set` of a new key or a `delete`
 * replaces rather than changes. Read-only.
 */
export function pairsOf(children: ChildMap): ChildPairs {
  if (children instanceof CompactChildMap) return CompactChildMap.pairs(children);
  const pairs: Slot[] = [];
  for (const [k, v] of children) pairs.push(k, v);
  return pairs;
}

/** What replaced a pairs array, and the offset of the pair the replacement lacks. */
interface Successor {
  readonly slots: ChildPairs;
  readonly removed: number;
}

/** `removed` of a replacement that only added a pair. */
const NOTHING_REMOVED = -1;
/** `removed` of a replacement by an empty map. */
const ALL_REMOVED = -2;

/** Each pairs array that was replaced while an iterator may have been on it, to its successor. */
const successors = new WeakMap<ChildPairs, Successor>();

/**
 * An iterator over a {@link CompactChildMap}, live as a Map's: at each step it moves to the pairs
 * that replaced the ones it was on, if any, keeping its place. One small class per kind of value,
 * so that a loop over one of them stays simple enough for V8 to inline.
 */
abstract class Cursor<T> implements MapIterator<T> {
  protected pairs: ChildPairs;
  /** Offset of the next pair; -1 once the end was reached (an ended iterator stays ended). */
  protected at = 0;

  constructor(protected readonly map: CompactChildMap) {
    this.pairs = CompactChildMap.pairsFor(map);
  }

  /** The offset of the next pair in `pairs`, or -1 at the end. */
  protected advance(): number {
    const at = this.at;
    if (at < 0) return -1;
    if (this.pairs !== CompactChildMap.pairs(this.map)) this.follow();
    if (this.at >= this.pairs.length) {
      this.at = -1;
      return -1;
    }
    this.at += 2;
    return this.at - 2;
  }

  /** Moves to the current pairs of the map, through every replacement since the last step. */
  private follow(): void {
    const current = CompactChildMap.pairsFor(this.map);
    let pairs = this.pairs;
    let at = this.at;
    if (pairs === NO_PAIRS) pairs = current; // everything in the map came after the iterator was made
    while (pairs !== current) {
      const next = successors.get(pairs)!;
      if (next.removed === ALL_REMOVED) at = 0;
      else if (next.removed >= 0 && next.removed < at) at -= 2;
      pairs = next.slots;
    }
    this.pairs = pairs;
    this.at = at;
  }

  abstract next(): IteratorResult<T, undefined>;

  [Symbol.iterator](): this {
    return this;
  }
}

class KeyCursor extends Cursor<SchemaNode> {
  next(): IteratorResult<SchemaNode, undefined> {
    const at = this.advance();
    return at < 0 ? { value: undefined, done: true } : { value: this.pairs[at] as SchemaNode, done: false };
  }
}

class GroupCursor extends Cursor<DataNode[]> {
  next(): IteratorResult<DataNode[], undefined> {
    const at = this.advance();
    return at < 0 ? { value: undefined, done: true } : { value: this.map.boxed(at + 1), done: false };
  }
}

class EntryCursor extends Cursor<[SchemaNode, DataNode[]]> {
  next(): IteratorResult<[SchemaNode, DataNode[]], undefined> {
    const at = this.advance();
    if (at < 0) return { value: undefined, done: true };
    return { value: [this.pairs[at] as SchemaNode, this.map.boxed(at + 1)], done: false };
  }
}
