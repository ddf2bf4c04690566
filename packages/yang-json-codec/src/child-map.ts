import type { SchemaNode } from '@yangkit/yang-schema';
import type { DataNode } from './instance';

/**
 * The children of one inner instance, as a `Map<SchemaNode, DataNode[]>` of a fraction of a Map's size.
 *
 * A tree has an inner node for every container and list entry, most with two to six child schema
 * nodes. A JS Map costs some 300 bytes even with two entries (its hash table is allocated for
 * several); this class keeps the pairs in one flat array (key, group, key, group, ...) that a lookup
 * scans, and adds an index only past {@link SCAN_LIMIT} distinct schema nodes. It behaves as a Map
 * in everything, iterators included: they are live (they visit what is added while they run and
 * skip what is removed), which is why a removed pair leaves a hole, swept once holes outnumber pairs.
 */
export class CompactChildMap implements Map<SchemaNode, DataNode[]> {
  /** Pairs in insertion order: each key at an even offset, its group after it; a removed pair is two holes. */
  private slots: unknown[] = [];
  /** How many pairs of `slots` are holes. */
  private holes = 0;
  /** Offset of each key in `slots`, once more than {@link SCAN_LIMIT} pairs were held. */
  private index: Map<SchemaNode, number> | undefined = undefined;
  /** Whether an iterator was made since `slots` was last replaced (so it may still be on them). */
  private iterated = false;

  /** A map of `entries` (a Map or another child map to copy, say). */
  constructor(entries?: Iterable<readonly [SchemaNode, DataNode[]]> | null) {
    if (entries != null) for (const [k, v] of entries) this.set(k, v);
  }

  get size(): number {
    return (this.slots.length >> 1) - this.holes;
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
    const s = this.slots;
    if (this.index === undefined) {
      // The scan of offsetOf, inlined: this is the lookup of every step down a tree.
      for (let i = 0; i < s.length; i += 2) if (s[i] === key) return s[i + 1] as DataNode[];
      return undefined;
    }
    const at = this.index.get(key);
    return at === undefined ? undefined : (s[at + 1] as DataNode[]);
  }

  has(key: SchemaNode): boolean {
    return this.offsetOf(key) >= 0;
  }

  set(key: SchemaNode, group: DataNode[]): this {
    const at = this.offsetOf(key);
    if (at >= 0) {
      this.slots[at + 1] = group;
      return this;
    }
    if (this.index !== undefined) {
      this.index.set(key, this.slots.push(key, group) - 2);
      return this;
    }
    // A copy the exact size rather than a push: push makes room for 16 more pairs, which would be
    // most of the size of a node's children.
    this.replaceSlots(2);
    const s = this.slots;
    s[s.length - 2] = key;
    s[s.length - 1] = group;
    if (s.length > 2 * SCAN_LIMIT) this.reindex();
    return this;
  }

  delete(key: SchemaNode): boolean {
    const at = this.offsetOf(key);
    if (at < 0) return false;
    this.slots[at] = HOLE;
    this.slots[at + 1] = HOLE;
    this.holes++;
    this.index?.delete(key);
    if (2 * this.holes > this.slots.length >> 1) this.replaceSlots(0);
    return true;
  }

  clear(): void {
    const s = this.slots;
    for (let i = 0; i < s.length; i++) s[i] = HOLE;
    this.holes = s.length >> 1;
    this.replaceSlots(0);
  }

  /**
   * Replaces `slots` by a copy without holes and with `room` more slots at the end. An iterator may
   * still be on the old array: then the old array is left as it was, pointing to its successor, so
   * that the iterator can find its place in the new one.
   */
  private replaceSlots(room: number): void {
    const old = this.slots;
    const fresh: unknown[] = new Array(old.length - 2 * this.holes + room);
    let j = 0;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i] === HOLE) continue;
      fresh[j++] = old[i];
      fresh[j++] = old[i + 1];
    }
    if (this.iterated) {
      successors.set(old, fresh);
      this.iterated = false;
    }
    this.slots = fresh;
    if (this.holes > 0) {
      this.holes = 0;
      if (this.index !== undefined) this.reindex();
    }
  }

  private reindex(): void {
    const index = new Map<SchemaNode, number>();
    const s = this.slots;
    for (let i = 0; i < s.length; i += 2) if (s[i] !== HOLE) index.set(s[i] as SchemaNode, i);
    this.index = index;
  }

  forEach(
    callback: (group: DataNode[], key: SchemaNode, map: Map<SchemaNode, DataNode[]>) => void,
    thisArg?: unknown,
  ): void {
    const cursor = new Cursor<SchemaNode>(this, KEYS);
    for (let r = cursor.next(); !r.done; r = cursor.next()) {
      callback.call(thisArg, cursor.group(), r.value, this);
    }
  }

  keys(): MapIterator<SchemaNode> {
    return new Cursor(this, KEYS);
  }

  values(): MapIterator<DataNode[]> {
    return new Cursor(this, VALUES);
  }

  entries(): MapIterator<[SchemaNode, DataNode[]]> {
    return new Cursor(this, ENTRIES);
  }

  [Symbol.iterator](): MapIterator<[SchemaNode, DataNode[]]> {
    return new Cursor(this, ENTRIES);
  }

  /** The pairs as they are now, for a {@link Cursor} that will read them. */
  static slotsOf(map: CompactChildMap): unknown[] {
    map.iterated = true;
    return map.slots;
  }
}

/** Distinct schema nodes up to this many are found by a scan of the pairs; more get an index. */
const SCAN_LIMIT = 8;

/** What a removed pair leaves in the slots (never a key). */
const HOLE = Symbol('removed');

/** Each slots array a sweep replaced, to the array that replaced it. */
const successors = new WeakMap<unknown[], unknown[]>();

const KEYS = 0;
const VALUES = 1;
const ENTRIES = 2;
type CursorKind = typeof KEYS | typeof VALUES | typeof ENTRIES;

/**
 * An iterator over a {@link CompactChildMap}, live as a Map's: it reads the current slots at each
 * step, and after a sweep moves to the same place in the array that replaced the one it was on.
 */
class Cursor<T> implements MapIterator<T> {
  private slots: unknown[];
  private at = 0;
  private done = false;

  constructor(
    private readonly map: CompactChildMap,
    private readonly kind: CursorKind,
  ) {
    this.slots = CompactChildMap.slotsOf(map);
  }

  next(): IteratorResult<T, undefined> {
    if (this.done) return { value: undefined, done: true };
    let s = this.slots;
    let at = this.at;
    const current = CompactChildMap.slotsOf(this.map);
    while (s !== current) {
      // The sweep kept the pairs before `at` that were not holes, in order.
      let kept = 0;
      for (let i = 0; i < at; i += 2) if (s[i] !== HOLE) kept += 2;
      at = kept;
      s = successors.get(s)!;
    }
    while (at < s.length && s[at] === HOLE) at += 2;
    this.slots = s;
    if (at >= s.length) {
      this.done = true;
      return { value: undefined, done: true };
    }
    this.at = at + 2;
    const value =
      this.kind === KEYS ? s[at] : this.kind === VALUES ? s[at + 1] : [s[at] as SchemaNode, s[at + 1] as DataNode[]];
    return { value: value as T, done: false };
  }

  /** The group of the pair the last `next` returned. */
  group(): DataNode[] {
    return this.slots[this.at - 1] as DataNode[];
  }

  [Symbol.iterator](): this {
    return this;
  }
}
