import type { SchemaNode } from '@yangkit/yang-schema';
import {
  attach,
  childAt,
  cloneNode,
  createNode,
  createRoot,
  type DataNode,
  detach,
  entries,
  isMulti,
  lookup,
  moveEntry,
  pathOf,
  positionOf,
  type Step,
} from './data-tree.js';

/**
 * One primitive change of a datastore. Changes address nodes by path, so the same change can be
 * undone here, replayed on another datastore (candidate to running) or written to the journal; each
 * costs O(depth), never O(datastore).
 */
export type Change =
  | {
      readonly op: 'create';
      readonly steps: readonly Step[];
      readonly value: string | undefined;
      readonly xml: string | undefined;
    }
  | {
      readonly op: 'set';
      readonly steps: readonly Step[];
      readonly before: string | undefined;
      readonly after: string | undefined;
      readonly beforeXml: string | undefined;
      readonly afterXml: string | undefined;
    }
  | {
      readonly op: 'remove';
      readonly steps: readonly Step[];
      readonly node: DataNode;
      /** The entry before the removed one in its list or leaf-list (undefined: it was first). */
      readonly prev: string | undefined;
      /** When the removal emptied its schema node's slot: the slot before it (null: it was first). */
      readonly prevSlot?: SchemaNode | null;
    }
  | {
      readonly op: 'move';
      readonly steps: readonly Step[];
      readonly where: 'first' | 'last' | 'before' | 'after';
      readonly anchor: string | undefined;
      readonly prev: string | undefined;
    };

/** The configuration datastore names of RFC 6241 (and NMDA `intended`, read-only here). */
export type DatastoreName = 'running' | 'candidate' | 'startup';

/**
 * A datastore: an instance tree plus the log of changes made since the last {@link Datastore.takeChanges}.
 * Every mutation goes through the methods below, so rollback (undo the log back to a mark) costs only
 * as much as the change.
 */
export class Datastore {
  root: DataNode;
  private log: Change[] = [];

  constructor(root: DataNode = createRoot()) {
    this.root = root;
  }

  /** A position in the change log, for {@link Datastore.undoTo}. */
  mark(): number {
    return this.log.length;
  }

  /** The changes since `mark` (default: all), oldest first. */
  changesSince(mark = 0): readonly Change[] {
    return this.log.slice(mark);
  }

  /** Returns and forgets the logged changes. */
  takeChanges(): Change[] {
    const out = this.log;
    this.log = [];
    return out;
  }

  /** Creates a child instance (a leaf with its value, an empty inner node, a keyed entry). */
  create(parent: DataNode, schema: SchemaNode, key: string, value?: string, xml?: string): DataNode {
    const node = createNode(schema, key, value);
    if (xml !== undefined) node.xml = xml;
    attach(parent, node);
    this.log.push({ op: 'create', steps: pathOf(node), value, xml });
    return node;
  }

  /** Changes a leaf's value (or anydata's content). */
  set(node: DataNode, value: string | undefined, xml?: string): void {
    if (node.value === value && node.xml === xml) return;
    this.log.push({
      op: 'set',
      steps: pathOf(node),
      before: node.value,
      after: value,
      beforeXml: node.xml,
      afterXml: xml,
    });
    node.value = value;
    node.xml = xml;
  }

  /** Removes a subtree. */
  remove(node: DataNode): void {
    const schema = node.schema!;
    const parent = node.parent!;
    // Undo puts the node back where it was, so a refused or rolled-back edit leaves the datastore
    // exactly as it found it, in system-ordered lists too (their order is still what clients read).
    let prev: string | undefined;
    let emptiesSlot = true;
    if (isMulti(schema)) {
      const map = entries(parent, schema);
      if (map !== undefined) {
        prev = positionOf(map, node.key);
        emptiesSlot = map.size === 1;
      }
    }
    const prevSlot = emptiesSlot ? slotBefore(parent, schema) : undefined;
    const steps = pathOf(node);
    detach(node);
    this.log.push({ op: 'remove', steps, node, prev, ...(prevSlot === undefined ? {} : { prevSlot }) });
  }

  /** Moves a user-ordered entry (RFC 7950 7.8.6 insert). */
  move(node: DataNode, where: 'first' | 'last' | 'before' | 'after', anchor?: string): void {
    const map = entries(node.parent!, node.schema!);
    if (map === undefined) return;
    const prev = positionOf(map, node.key);
    moveEntry(map, node.key, where, anchor);
    this.log.push({ op: 'move', steps: pathOf(node), where, anchor, prev });
  }

  /** Undoes every change after `mark`, newest first, and drops them from the log. */
  undoTo(mark: number): void {
    while (this.log.length > mark) {
      const change = this.log.pop()!;
      undoChange(this.root, change);
    }
  }

  /** Replaces the whole content (copy-config, delete-config, discard-changes), logged as a remove+create. */
  replaceAll(root: DataNode): void {
    this.root = root;
    this.log = [];
  }
}

function parentOf(root: DataNode, steps: readonly Step[]): DataNode | undefined {
  return lookup(root, steps.slice(0, -1));
}

function restore(
  parent: DataNode,
  node: DataNode,
  prev: string | undefined,
  prevSlot: SchemaNode | null | undefined,
): void {
  attach(parent, node);
  const schema = node.schema!;
  if (isMulti(schema)) {
    const map = entries(parent, schema)!;
    if (prev === undefined) moveEntry(map, node.key, 'first');
    else moveEntry(map, node.key, 'after', prev);
  }
  if (prevSlot !== undefined) placeSlotAfter(parent, schema, prevSlot);
}

/** The schema node whose slot comes before `schema`'s among `parent`'s children (null: none). */
function slotBefore(parent: DataNode, schema: SchemaNode): SchemaNode | null {
  let before: SchemaNode | null = null;
  for (const key of parent.kids!.keys()) {
    if (key === schema) return before;
    before = key;
  }
  return before;
}

/** Moves `schema`'s slot right after `prevSlot`'s (first when null); a parent has few slots. */
function placeSlotAfter(parent: DataNode, schema: SchemaNode, prevSlot: SchemaNode | null): void {
  const kids = parent.kids!;
  const moved = kids.get(schema)!;
  const order = [...kids.entries()].filter(([k]) => k !== schema);
  const at = prevSlot === null ? 0 : order.findIndex(([k]) => k === prevSlot) + 1;
  order.splice(at === 0 && prevSlot !== null ? order.length : at, 0, [schema, moved]);
  kids.clear();
  for (const [k, v] of order) kids.set(k, v);
}

function undoChange(root: DataNode, change: Change): void {
  const node = lookup(root, change.steps);
  switch (change.op) {
    case 'create':
      if (node) detach(node);
      break;
    case 'set':
      if (node) {
        node.value = change.before;
        node.xml = change.beforeXml;
      }
      break;
    case 'remove': {
      const parent = parentOf(root, change.steps);
      if (parent) restore(parent, change.node, change.prev, change.prevSlot);
      break;
    }
    case 'move': {
      if (!node) break;
      const map = entries(node.parent!, node.schema!)!;
      if (change.prev === undefined) moveEntry(map, node.key, 'first');
      else moveEntry(map, node.key, 'after', change.prev);
      break;
    }
  }
}

/**
 * Applies a change recorded on another datastore to `target` (candidate commit, journal replay).
 * Returns false when the path does not exist there.
 */
export function replayChange(target: Datastore, change: Change): boolean {
  const steps = change.steps;
  const last = steps[steps.length - 1]!;
  const parent = parentOf(target.root, steps);
  if (parent === undefined) return false;
  const existing = childAt(parent, last);
  switch (change.op) {
    case 'create':
      if (existing) target.remove(existing);
      target.create(parent, last.schema, last.key, change.value, change.xml);
      return true;
    case 'set':
      if (!existing) return false;
      target.set(existing, change.after, change.afterXml);
      return true;
    case 'remove':
      if (existing) target.remove(existing);
      return true;
    case 'move':
      if (!existing) return false;
      target.move(existing, change.where, change.anchor);
      return true;
  }
}

/** Replaces `target`'s content by a copy of `source`'s (copy-config), through the log. */
export function copyInto(target: Datastore, source: DataNode): void {
  for (const child of [...childrenOf(target.root)]) target.remove(child);
  for (const child of childrenOf(source)) {
    const copy = cloneNode(child);
    graft(target, target.root, copy);
  }
}

function* childrenOf(node: DataNode): Generator<DataNode> {
  if (!node.kids) return;
  for (const slot of node.kids.values()) {
    if (slot instanceof Map) yield* slot.values();
    else yield slot;
  }
}

/** Adds a detached subtree under `parent` node by node, so every piece is logged. */
export function graft(target: Datastore, parent: DataNode, subtree: DataNode): DataNode {
  const created = target.create(parent, subtree.schema!, subtree.key, subtree.value, subtree.xml);
  for (const c of childrenOf(subtree)) graft(target, created, c);
  return created;
}

/** Applies the inverse of a change through the logged API (confirmed-commit rollback). */
export function invert(ds: Datastore, change: Change): void {
  const inverse: Change | undefined =
    change.op === 'create'
      ? { op: 'remove', steps: change.steps, node: undefined as unknown as DataNode, prev: undefined }
      : change.op === 'set'
        ? {
            op: 'set',
            steps: change.steps,
            before: change.after,
            after: change.before,
            beforeXml: change.afterXml,
            afterXml: change.beforeXml,
          }
        : change.op === 'move'
          ? change.prev === undefined
            ? { op: 'move', steps: change.steps, where: 'first', anchor: undefined, prev: undefined }
            : { op: 'move', steps: change.steps, where: 'after', anchor: change.prev, prev: undefined }
          : undefined;
  if (inverse) {
    replayChange(ds, inverse);
    return;
  }
  if (change.op === 'remove') {
    let parent: DataNode | undefined = ds.root;
    for (const step of change.steps.slice(0, -1)) {
      const slot: DataNode | Map<string, DataNode> | undefined = parent?.kids?.get(step.schema);
      parent = slot instanceof Map ? slot.get(step.key) : slot;
    }
    if (parent) graft(ds, parent, change.node);
  }
}
