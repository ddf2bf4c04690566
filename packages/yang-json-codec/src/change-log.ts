import type { SchemaNode, YangType } from '@yangkit/yang-schema';
import {
  findChild,
  findPath,
  insertChild,
  isDocument,
  moveChild,
  positionOf,
  removeChild,
} from './child-index';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { shallowCopy } from './instance';
import { PathCursor } from './path-cursor';
import { type PathStep, pathOf, stepOf } from './path-step';
import { finishSteps, ITEMS_PER_STEP, type Steps } from './steps';

/**
 * What a reader sharing a tree's nodes does before the tree changes in place (see
 * {@link ChangeLog.hold}): copy or write out what it still needs, at once or in the steps returned.
 */
export type Detach = () => Steps<void> | void;

/** A leaf's value and the union member it matched. */
export interface LeafValue {
  readonly value: string | undefined;
  readonly member: YangType | undefined;
}

/**
 * One primitive change of a tree, addressed by path so that it can be undone, replayed on another tree
 * (candidate to running), written to a journal or reported as an event. `after` places a list or
 * leaf-list entry: after the entry it names, first when null; single instances have none.
 */
export type TreeChange =
  | {
      readonly op: 'create';
      readonly path: readonly PathStep[];
      /**
       * The node as created, detached: a leaf with its value, an anydata node with its content, an inner
       * node without children except a list entry's keys.
       */
      readonly node: DataNode;
      readonly after?: PathStep | null;
    }
  | {
      readonly op: 'set';
      readonly path: readonly PathStep[];
      readonly before: LeafValue;
      readonly after: LeafValue;
    }
  | {
      readonly op: 'remove';
      readonly path: readonly PathStep[];
      /** The removed subtree (detached). */
      readonly node: DataNode;
      /** Where the entry was. */
      readonly after?: PathStep | null;
    }
  | {
      readonly op: 'move';
      readonly path: readonly PathStep[];
      /** Where the entry went. */
      readonly after: PathStep | null;
      /** Where it was. */
      readonly from: PathStep | null;
    };

/** Where an entry goes among its siblings (RFC 7950 section 7.8.6 insert). */
export interface Placement {
  readonly where: 'first' | 'last' | 'before' | 'after';
  /** before/after: the sibling entry. */
  readonly anchor?: DataNode;
}

function isEntry(schema: SchemaNode): boolean {
  return schema.kind === 'list' || schema.kind === 'leaf-list';
}

/** The step of the entry before `node` among its siblings (null when first), for entries only. */
function previousOf(holder: ChildHolder, node: DataNode): PathStep | null | undefined {
  if (!isEntry(node.schema)) return undefined;
  const at = positionOf(holder, node);
  return at > 0 ? stepOf(holder.children!.get(node.schema)![at - 1]!) : null;
}

/** The instance whose children `holder` is (undefined for a document). */
function parentOf(holder: ChildHolder): DataNode | undefined {
  return isDocument(holder) ? undefined : (holder as DataNode);
}

/** The position `after` names under `holder` (the end when its entry is gone). */
function positionAfter(holder: ChildHolder, after: PathStep | null | undefined): number | undefined {
  if (after === undefined) return undefined;
  if (after === null) return 0;
  const anchor = findChild(holder, after);
  return anchor === undefined ? undefined : positionOf(holder, anchor) + 1;
}

/**
 * The change log of one tree (a datastore): every mutation goes through its methods, which change the tree
 * through the keyed-index functions and record each primitive change with what undoes it. Rolling back to
 * a mark, replaying on another tree and inverting cost O(change x depth), never O(tree).
 */
export class ChangeLog {
  #tree: InstanceTree;
  #changes: TreeChange[] = [];
  /**
   * Readers that share nodes with the tree, each asked to stop before the tree changes in place, with
   * the steps of its detach once {@link ChangeLog.detachReadersSteps} has started them.
   */
  #readers = new Map<Detach, Steps<void> | undefined>();
  /**
   * The log whose tree and changes {@link ChangeLog.adopt} took, until {@link ChangeLog.take}: the first
   * `count` changes logged are still that log's (undoing to mark 0 gives them back with the tree).
   */
  #adopted: { readonly source: ChangeLog; count: number } | undefined;
  /** The node last created or set: the changes of one edit are made near each other. */
  readonly #cursor = new PathCursor();

  constructor(tree: InstanceTree) {
    this.#tree = tree;
  }

  /** The tree this log changes. */
  get tree(): InstanceTree {
    return this.#tree;
  }

  /**
   * Registers a reader that shares nodes with the tree instead of copying them (a response written while
   * other requests run): `detach` is called once before the next change of the tree in place, so that the
   * reader copies (or writes out) what it still needs and goes on from that; then the reader is
   * forgotten. The steps it may return run in slices when the change is itself made in steps (see
   * {@link ChangeLog.detachReadersSteps}), else at once. The function returned unregisters it (the
   * reader is done).
   */
  hold(detach: Detach): () => void {
    this.#readers.set(detach, undefined);
    return () => {
      this.#readers.delete(detach);
    };
  }

  /**
   * Lets every reader held detach, in steps (a step of each reader's detach at a time), so that the
   * change made in steps after them does not have them detach at once, in one turn, at its first
   * change: a reader still working out what it reads (a filter's selection) or writing it (a slow
   * client) finishes that work in slices. The tree must not change until it ends; a change made
   * meanwhile (one turn) has what is left run at once first. Readers held meanwhile are detached too.
   */
  *detachReadersSteps(): Steps<void> {
    for (let [reader] = this.#readers; reader !== undefined; [reader] = this.#readers) {
      const [detach, started] = reader;
      const steps = started ?? detach();
      if (steps === undefined) {
        this.#readers.delete(detach);
        continue;
      }
      this.#readers.set(detach, steps);
      // Until it ends, is released, or is finished at once by a change (which forgets it).
      while (this.#readers.get(detach) === steps) {
        if (steps.next().done === true) this.#readers.delete(detach);
        else yield;
      }
    }
  }

  /** How many readers {@link ChangeLog.hold} keeps. */
  get readers(): number {
    return this.#readers.size;
  }

  /**
   * {@link positionAfter}, without a lookup when the anchor is the entry replayed just before (as
   * when entries are created one after the other).
   */
  #positionAfter(holder: ChildHolder, after: PathStep | null | undefined): number | undefined {
    const last = after == null ? undefined : this.#cursor.nodeOf(after);
    if (last === undefined || last.parent !== parentOf(holder)) return positionAfter(holder, after);
    return positionOf(holder, last) + 1;
  }

  /** The step of the entry before `node` among its siblings, null when it is first (entries only). */
  #stepBefore(holder: ChildHolder, node: DataNode): PathStep | null {
    const at = positionOf(holder, node);
    return at > 0 ? this.#cursor.stepOf(holder.children!.get(node.schema)![at - 1]!) : null;
  }

  /**
   * Lets every reader detach, at once, before the tree changes (a reader detaching never changes the
   * tree); a detach {@link ChangeLog.detachReadersSteps} has started goes on from where it is.
   */
  #beforeChange(): void {
    if (this.#readers.size === 0) return;
    const readers = [...this.#readers];
    this.#readers.clear();
    for (const [detach, started] of readers) {
      const steps = started ?? detach();
      if (steps !== undefined) finishSteps(steps);
    }
  }

  /** A position in the log, for {@link ChangeLog.undoTo} and {@link ChangeLog.since}. */
  mark(): number {
    return this.#changes.length;
  }

  /** The changes after `mark` (default: all), oldest first. */
  since(mark = 0): readonly TreeChange[] {
    return this.#changes.slice(mark);
  }

  /** Returns and forgets the logged changes (the tree keeps them); an adoption is then final. */
  take(): TreeChange[] {
    const out = this.#changes;
    this.#changes = [];
    this.#adopted = undefined;
    return out;
  }

  /**
   * Undoes every change after `mark`, newest first, and drops them from the log. Back to mark 0 after
   * {@link ChangeLog.adopt}, the adopted tree and changes go back to their log, and this log has its own
   * tree again, as it was: the adopted changes are given back, not undone.
   */
  undoTo(mark: number): void {
    finishSteps(this.undoToSteps(mark));
  }

  /**
   * {@link ChangeLog.undoTo} in steps, a step every few dozen changes undone, so that a server can
   * undo a big edit in slices. Between two steps the tree holds part of the edit: whoever runs it in
   * slices keeps others from the tree until it ends.
   */
  *undoToSteps(mark: number): Steps<void> {
    const adopted = this.#adopted;
    const giveBack = adopted !== undefined && mark === 0;
    const floor = giveBack ? adopted.count : mark;
    if (this.#changes.length > floor) yield* this.detachReadersSteps();
    this.#cursor.forget();
    let undone = 0;
    while (this.#changes.length > floor) {
      undo(this.#tree, this.#changes.pop()!);
      if (++undone % ITEMS_PER_STEP === 0) yield;
    }
    if (adopted === undefined) return;
    if (!giveBack) {
      adopted.count = Math.min(adopted.count, mark);
      return;
    }
    this.#exchange(adopted.source);
    adopted.source.#changes = this.#changes;
    this.#changes = [];
    this.#adopted = undefined;
  }

  /**
   * Takes the tree of `source` and the changes `source` logged as this log's own, and gives `source` this
   * log's tree, with an empty log, in exchange: O(1), nothing is copied. It commits a candidate whose
   * changes were made on a tree equal to this one: this log then holds the committed tree with the changes
   * that made it (for validation, a journal, events), and `source` holds this log's former tree, which
   * replaying those changes brings up to date. Each reader held goes with the tree it reads, so that it
   * detaches before that tree changes. Until {@link ChangeLog.take}, undoing this log to mark 0 gives both
   * back as they were (a commit that fails validation); `source` must not change meanwhile. This log must
   * have no changes logged.
   */
  adopt(source: ChangeLog): void {
    if (this.#changes.length > 0 || source === this) {
      throw new CodecError(
        'BAD_OPTION',
        'a change log adopts a tree only with no changes logged of its own',
        {
          errorTag: 'invalid-value',
        },
      );
    }
    this.#exchange(source);
    this.#changes = source.#changes;
    source.#changes = [];
    this.#adopted = { source, count: this.#changes.length };
  }

  /** Exchanges the trees of two logs, each tree with its readers. */
  #exchange(other: ChangeLog): void {
    const tree = this.#tree;
    this.#tree = other.#tree;
    other.#tree = tree;
    const readers = this.#readers;
    this.#readers = other.#readers;
    other.#readers = readers;
    this.#cursor.forget();
    other.#cursor.forget();
  }

  /** Replaces the whole tree (copy-config, discard of a replaced candidate) and forgets the log. */
  reset(tree: InstanceTree): void {
    this.#tree = tree;
    this.#changes = [];
    this.#adopted = undefined;
    this.#cursor.forget();
  }

  /** The holder of `parent`'s children: the instance, or the tree at the top. */
  holder(parent: DataNode | undefined): ChildHolder {
    return parent ?? this.#tree;
  }

  /**
   * Adds `node` (detached, built by the caller: a leaf with its value, an inner node with at most a list
   * entry's keys, anydata with its content) under `parent` (undefined: the top of the tree), at `placement`
   * for an entry (default: last).
   */
  create(parent: DataNode | undefined, node: DataNode, placement?: Placement): DataNode {
    const holder = this.holder(parent);
    this.#beforeChange();
    insertChild(holder, node, placementIndex(holder, placement));
    const path = this.#cursor.pathOf(node);
    const record = shallowCopy(node);
    this.#changes.push(
      isEntry(node.schema)
        ? { op: 'create', path, node: record, after: this.#stepBefore(holder, node) }
        : { op: 'create', path, node: record },
    );
    this.#cursor.at(node, path);
    return node;
  }

  /** Sets a leaf's value (a key or leaf-list value is the entry's identity: never set it). */
  set(node: DataNode, value: string | undefined, member: YangType | undefined): void {
    if (node.value === value && node.member === member) return;
    this.#beforeChange();
    const path = this.#cursor.pathOf(node);
    this.#changes.push({
      op: 'set',
      path,
      before: { value: node.value, member: node.member },
      after: { value, member },
    });
    this.#cursor.at(node, path);
    node.value = value;
    node.member = member;
  }

  /** Removes a node and its subtree. */
  remove(node: DataNode): void {
    const holder = this.holder(node.parent);
    const path = pathOf(node);
    const after = previousOf(holder, node);
    this.#beforeChange();
    this.#cursor.forget();
    if (removeChild(holder, node) < 0) return;
    this.#changes.push({ op: 'remove', path, node, ...(after === undefined ? {} : { after }) });
    node.parent = undefined;
  }

  /** Moves an entry among its siblings (RFC 7950 section 7.8.6). */
  move(node: DataNode, placement: Placement): void {
    const holder = this.holder(node.parent);
    const from = previousOf(holder, node) ?? null;
    const at = positionOf(holder, node);
    let to = placementIndex(holder, placement) ?? holder.children!.get(node.schema)!.length;
    if (to > at) to--;
    if (to === at) return;
    this.#beforeChange();
    moveChild(holder, node, to);
    this.#changes.push({ op: 'move', path: pathOf(node), after: previousOf(holder, node) ?? null, from });
  }

  /**
   * Applies a change recorded on another tree (candidate commit, journal replay, a rollback's inverse),
   * logged here. Returns false when the change's place does not exist in this tree.
   */
  replay(change: TreeChange): boolean {
    const path = change.path;
    const holder = this.#cursor.find(this.#tree, path, path.length - 1);
    if (holder === undefined) return false;
    const last = path[path.length - 1]!;
    const existing = findChild(holder, last);
    switch (change.op) {
      case 'create': {
        if (existing !== undefined) this.remove(existing);
        this.#beforeChange();
        const node = shallowCopy(change.node);
        const at = this.#positionAfter(holder, change.after);
        insertChild(holder, node, at);
        // The change's node is a detached copy no tree holds, and its path names the new node: both
        // are logged as they are. Only an entry whose anchor is gone lands elsewhere (last).
        const moved = isEntry(node.schema) && at === undefined;
        this.#changes.push(
          moved
            ? { op: 'create', path: change.path, node: change.node, after: this.#stepBefore(holder, node) }
            : change,
        );
        this.#cursor.at(node, path);
        return true;
      }
      case 'set':
        if (existing === undefined) return false;
        this.set(existing, change.after.value, change.after.member);
        return true;
      case 'remove':
        if (existing !== undefined) this.remove(existing);
        return true;
      case 'move': {
        if (existing === undefined) return false;
        const anchor = change.after === null ? undefined : findChild(holder, change.after);
        this.move(
          existing,
          anchor === undefined
            ? { where: change.after === null ? 'first' : 'last' }
            : { where: 'after', anchor },
        );
        return true;
      }
    }
  }
}

/** The index `placement` names under `holder` for `node` (undefined: the end). */
function placementIndex(holder: ChildHolder, placement: Placement | undefined): number | undefined {
  if (placement === undefined || placement.where === 'last') return undefined;
  if (placement.where === 'first') return 0;
  const at = placement.anchor === undefined ? -1 : positionOf(holder, placement.anchor);
  if (at < 0) return undefined;
  return placement.where === 'before' ? at : at + 1;
}

/** Undoes one change on `tree` without logging it. */
function undo(tree: InstanceTree, change: TreeChange): void {
  const path = change.path;
  const parentSteps = path.slice(0, -1);
  const parent = parentSteps.length === 0 ? undefined : findPath(tree, parentSteps);
  const holder: ChildHolder | undefined = parentSteps.length === 0 ? tree : parent;
  if (holder === undefined) return;
  const node = change.op === 'remove' ? undefined : findChild(holder, path[path.length - 1]!);
  switch (change.op) {
    case 'create':
      if (node !== undefined) removeChild(holder, node);
      return;
    case 'set':
      if (node !== undefined) {
        node.value = change.before.value;
        node.member = change.before.member;
      }
      return;
    case 'remove':
      insertChild(holder, change.node, positionAfter(holder, change.after));
      return;
    case 'move':
      if (node !== undefined) {
        removeChild(holder, node);
        insertChild(holder, node, positionAfter(holder, change.from));
      }
      return;
  }
}

/**
 * The changes that undo `change` when replayed, newest last (a removed subtree comes back node by node, so
 * that each node is a change of its own for access control and the journal).
 */
export function invertChange(change: TreeChange): TreeChange[] {
  switch (change.op) {
    case 'create':
      return [
        {
          op: 'remove',
          path: change.path,
          node: change.node,
          ...(change.after === undefined ? {} : { after: change.after }),
        },
      ];
    case 'set':
      return [{ op: 'set', path: change.path, before: change.after, after: change.before }];
    case 'move':
      return [{ op: 'move', path: change.path, after: change.from, from: change.after }];
    case 'remove':
      return createsOf(change.node, change.path, change.after);
  }
}

/** The create changes that build `node`'s subtree at `path`, parents first. */
export function createsOf(node: DataNode, path: readonly PathStep[], after?: PathStep | null): TreeChange[] {
  const out: TreeChange[] = [];
  const visit = (n: DataNode, p: readonly PathStep[], a: PathStep | null | undefined): void => {
    out.push({ op: 'create', path: p, node: shallowCopy(n), ...(a === undefined ? {} : { after: a }) });
    if (n.children === undefined || n.schema.kind === 'anydata' || n.schema.kind === 'anyxml') return;
    for (const [schema, nodes] of n.children) {
      if (schema.isKey && n.schema.kind === 'list') continue;
      let prev: PathStep | null = null;
      for (const c of nodes) {
        const step = stepOf(c);
        visit(c, [...p, step], isEntry(schema) ? prev : undefined);
        prev = step;
      }
    }
  };
  visit(node, path, after);
  return out;
}
