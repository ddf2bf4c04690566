import type { SchemaNode } from '@yangkit/yang-schema';
import { ChangeLog, type Placement, type TreeChange } from './change-log';
import {
  findChild,
  findChildren,
  findEntryByKey,
  findPath,
  indexForLookupSteps,
  positionOf,
} from './child-index';
import { CompactChildMap, entriesOf } from './child-map';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { cloneTreeSteps, createNode, shallowCopy } from './instance';
import { entryKey, isWholeStep, type PathStep } from './path-step';
import { pathOfSteps } from './paths';
import { dataParent } from './schema-view';
import { finishSteps, ITEMS_PER_STEP, type Steps } from './steps';

/**
 * What one edit does: the operations of RFC 6241 section 7.2, plus `move`, the reordering RFC 7950
 * section 7.8.6 expresses with `insert` on an existing entry (RFC 8072 section 2.5 edit operations map
 * onto these).
 */
export type TreeEditOperation = 'create' | 'delete' | 'merge' | 'replace' | 'remove' | 'move';

/** Where an inserted or moved entry goes (RFC 7950 section 7.8.6). */
export interface InsertPosition {
  readonly where: 'first' | 'last' | 'before' | 'after';
  /** before/after: the sibling entry, from the document root. */
  readonly point?: readonly PathStep[];
}

/** One edit of a tree: an operation on one instance (or, for delete and remove, on every entry of a list). */
export interface TreeEdit {
  readonly operation: TreeEditOperation;
  /** The node operated on, from the document root (never empty). */
  readonly target: readonly PathStep[];
  /** create, merge, replace: the instance written at `target` (its schema is the target's). */
  readonly node?: DataNode;
  /** create, merge, replace of an entry, and move: its place in an `ordered-by user` list or leaf-list. */
  readonly insert?: InsertPosition;
}

/** Options of {@link applyEdit}. */
export interface ApplyEditOptions {
  /**
   * The tree takes the edit's node and the instances below it as its own instead of copying them (a
   * decoded request body, used once): the caller must not use them afterwards, whether the edit
   * succeeds or not. Default false: the edit is left as it was.
   */
  readonly adopt?: boolean;
}

/**
 * Applies one edit through `log` (RFC 6241 section 7.2 with RFC 7950 sections 7.8.6 and 7.9):
 * - create fails with data-exists when the node exists; delete and move fail with data-missing when it
 *   does not; remove of a missing node does nothing;
 * - create, merge and replace create the missing ancestors (containers, list entries with their keys);
 * - merge sets leaves, adds missing nodes and merges the rest recursively; replace makes the node equal to
 *   the given one (removing what it lacks, keeping what is equal, so only real changes are logged);
 * - creating a node of one case of a choice removes the nodes of the choice's other cases;
 * - `insert` places a new entry, or moves an existing one, first, last, or before/after the point entry,
 *   which must exist (bad-attribute, error-app-tag missing-instance); system-ordered entries ignore it.
 *
 * Errors are {@link CodecError}s naming the target; what the edit changed before the error stays in the
 * log (undo to a mark taken before the edit to drop it).
 */
export function applyEdit(log: ChangeLog, edit: TreeEdit, options: ApplyEditOptions = {}): void {
  finishSteps(applyEditSteps(log, edit, options));
}

/**
 * {@link applyEdit} in steps (see {@link Steps}), a step after each node it adds, so that a server can
 * apply a big edit in slices. Between two steps the tree holds part of the edit: whoever runs it in
 * slices keeps others from the tree until it ends (or undoes it).
 */
export function* applyEditSteps(log: ChangeLog, edit: TreeEdit, options: ApplyEditOptions = {}): Steps<void> {
  const adopt = options.adopt === true;
  const { target, operation } = edit;
  const last = target[target.length - 1];
  if (last === undefined) {
    throw new CodecError('BAD_OPTION', `a ${operation} edit names no node`, { errorTag: 'invalid-value' });
  }
  const creates = operation === 'create' || operation === 'merge' || operation === 'replace';
  if (creates && (edit.node === undefined || edit.node.schema !== last.schema || isWholeStep(last))) {
    throw new CodecError('BAD_OPTION', `a ${operation} edit needs one node of its target`, {
      errorTag: 'invalid-value',
      errorPath: pathOfSteps(log.tree.schema, target),
    });
  }
  // Readers of the tree finish in slices of their own, rather than at once at the first change.
  yield* log.detachReadersSteps();
  let parent: DataNode | undefined;
  for (let i = 0; i < target.length - 1; i++) {
    const step = target[i]!;
    let next = findChild(log.holder(parent), step);
    if (next === undefined) {
      if (operation === 'remove') return;
      if (!creates) throw missing(log, target, operation);
      next = createAncestor(log, parent, step);
    }
    parent = next;
  }
  const holder = log.holder(parent);
  switch (operation) {
    case 'delete':
    case 'remove': {
      const found = findChildren(holder, last);
      if (found.length === 0 && operation === 'delete') throw missing(log, target, operation);
      for (const n of [...found]) log.remove(n);
      return;
    }
    case 'create': {
      if (findChild(holder, last) !== undefined) {
        const path = pathOfSteps(log.tree.schema, target);
        throw new CodecError('DATA_EXISTS', `data already exists at ${path.json}; cannot be created`, {
          errorTag: 'data-exists',
          errorPath: path,
        });
      }
      yield* graft(log, parent, edit.node!, adopt, placement(log, edit));
      return;
    }
    case 'merge':
    case 'replace': {
      const existing = findChild(holder, last);
      if (existing === undefined) {
        yield* graft(log, parent, edit.node!, adopt, placement(log, edit));
        return;
      }
      if (operation === 'merge') yield* mergeInto(log, existing, edit.node!, adopt);
      else yield* syncInto(log, existing, edit.node!, adopt);
      if (edit.insert !== undefined) moveTo(log, existing, placement(log, edit));
      return;
    }
    case 'move': {
      const existing = findChild(holder, last);
      if (existing === undefined) throw missing(log, target, operation);
      moveTo(log, existing, placement(log, edit));
      return;
    }
  }
}

function missing(log: ChangeLog, target: readonly PathStep[], operation: TreeEditOperation): CodecError {
  const path = pathOfSteps(log.tree.schema, target);
  return new CodecError('DATA_MISSING', `no data at ${path.json} to ${operation}`, {
    errorTag: 'data-missing',
    errorPath: path,
  });
}

/** The placement an edit's `insert` asks for; undefined for system-ordered nodes (RFC 7950 7.8.6). */
function placement(log: ChangeLog, edit: TreeEdit): Placement | undefined {
  const at = edit.insert;
  const schema = edit.target[edit.target.length - 1]!.schema;
  if (at === undefined || schema.orderedBy !== 'user') return undefined;
  if (at.where === 'first' || at.where === 'last') return { where: at.where };
  const anchor = at.point === undefined ? undefined : findPath(log.tree, at.point);
  if (anchor === undefined || anchor.schema !== schema) {
    const path = pathOfSteps(log.tree.schema, at.point ?? edit.target);
    throw new CodecError('MISSING_INSTANCE', `the insertion point ${path.json} does not exist`, {
      errorTag: 'bad-attribute',
      errorAppTag: 'missing-instance',
      errorPath: path,
    });
  }
  return { where: at.where, anchor };
}

function moveTo(log: ChangeLog, node: DataNode, to: Placement | undefined): void {
  if (to === undefined || to.anchor === node) return;
  log.move(node, to);
}

/** A missing ancestor on an edit's path: a container, or a list entry with the step's keys. */
function createAncestor(log: ChangeLog, parent: DataNode | undefined, step: PathStep): DataNode {
  const node = createNode(step.schema, undefined);
  if (step.keys !== undefined) {
    for (const k of step.keys) {
      const keyNode = step.schema.keyNodes.find((n) => n.name === k.name);
      if (keyNode === undefined) continue;
      const leaf = createNode(keyNode, node);
      leaf.value = k.value;
      node.children!.set(keyNode, [leaf]);
    }
  } else if (step.value !== undefined) node.value = step.value;
  dropOtherCases(log, parent, step.schema);
  return log.create(parent, node);
}

function isLeafy(schema: SchemaNode): boolean {
  const kind = schema.kind;
  return kind === 'leaf' || kind === 'leaf-list' || kind === 'anydata' || kind === 'anyxml';
}

/**
 * Adds `source` and its subtree under `parent`, node by node, each node logged: copies, or with
 * `adopt` the instances themselves (each enters the tree with only its keys, then its children follow).
 * A step after each node added.
 */
function* graft(
  log: ChangeLog,
  parent: DataNode | undefined,
  source: DataNode,
  adopt: boolean,
  at?: Placement,
): Steps<DataNode> {
  dropOtherCases(log, parent, source.schema);
  const children = source.children;
  if (isLeafy(source.schema) || children === undefined) {
    const node = log.create(parent, adopt ? source : shallowCopy(source), at);
    yield;
    return node;
  }
  const list = source.schema.kind === 'list';
  if (!adopt) {
    const node = log.create(parent, shallowCopy(source), at);
    yield;
    for (const [schema, nodes] of entriesOf(children)) {
      if (schema.isKey && list) continue;
      for (const c of nodes) yield* graft(log, node, c, false);
    }
    return node;
  }
  // The node enters the tree with its keys alone; the groups below follow it node by node.
  let below: [SchemaNode, readonly DataNode[]][] | undefined;
  for (const entry of entriesOf(children)) if (!entry[0].isKey || !list) (below ??= []).push(entry);
  if (below !== undefined) for (const [schema] of below) children.delete(schema);
  log.create(parent, source, at);
  yield;
  if (below !== undefined)
    for (const [, nodes] of below) for (const c of nodes) yield* graft(log, source, c, true);
  return source;
}

/** RFC 7950 7.9: a node of one case exists only when the nodes of the choice's other cases do not. */
function dropOtherCases(log: ChangeLog, parent: DataNode | undefined, schema: SchemaNode): void {
  const top = dataParent(schema);
  if (schema.parent === top) return;
  const holder = log.holder(parent);
  if (holder.children === undefined || holder.children.size === 0) return;
  for (let own: SchemaNode = schema; own.parent !== undefined && own.parent !== top; own = own.parent) {
    const choice = own.parent;
    if (choice.kind !== 'choice') continue;
    for (const [childSchema, nodes] of [...holder.children]) {
      if (childSchema === schema) continue;
      let branch: SchemaNode | undefined = childSchema;
      while (branch !== undefined && branch.parent !== choice) branch = branch.parent;
      if (branch === undefined || branch === own) continue;
      for (const n of [...nodes]) log.remove(n);
    }
  }
}

/**
 * The instance under `holder` that `node` (of another tree) stands for: the entry with the same keys
 * (or leaf-list value), else the instance of the same schema node (as `findChild` with `node`'s step,
 * without making the step).
 */
function counterpart(holder: ChildHolder, node: DataNode): DataNode | undefined {
  const s = node.schema;
  if ((s.kind === 'list' && s.keyNodes.length > 0) || (s.kind === 'leaf-list' && node.value !== undefined)) {
    const key = entryKey(node);
    return key === undefined ? undefined : findEntryByKey(holder, s, key);
  }
  return holder.children?.get(s)?.[0];
}

function sameContent(a: DataNode, b: DataNode): boolean {
  return a.any === b.any && a.children === b.children && a.value === b.value;
}

/** anydata/anyxml content is a value: a different one replaces the node. */
function* replaceAny(log: ChangeLog, existing: DataNode, incoming: DataNode, adopt: boolean): Steps<void> {
  if (sameContent(existing, incoming)) return;
  const parent = existing.parent;
  log.remove(existing);
  yield* graft(log, parent, incoming, adopt);
}

/** Writes the value of a leaf or the content of anydata; false for other nodes (their children merge). */
function* writeValue(log: ChangeLog, existing: DataNode, incoming: DataNode, adopt: boolean): Steps<boolean> {
  const kind = existing.schema.kind;
  if (kind === 'leaf') log.set(existing, incoming.value, incoming.member);
  else if (kind === 'anydata' || kind === 'anyxml') yield* replaceAny(log, existing, incoming, adopt);
  else return kind === 'leaf-list';
  yield;
  return true;
}

/** NETCONF merge (RFC 6241 section 7.2) of `incoming` into `existing` (same schema node and keys). */
function* mergeInto(log: ChangeLog, existing: DataNode, incoming: DataNode, adopt: boolean): Steps<void> {
  if ((yield* writeValue(log, existing, incoming, adopt)) || incoming.children === undefined) return;
  const kind = existing.schema.kind;
  // A step every few dozen nodes merged, whether they change anything or not (entries that exist
  // already and hold only their keys change nothing); a big list's index is built in steps first.
  let seen = 0;
  for (const [schema, nodes] of incoming.children) {
    if (schema.isKey && kind === 'list') continue;
    yield* indexForLookupSteps(existing.children?.get(schema));
    for (const n of nodes) {
      const found = counterpart(existing, n);
      if (found === undefined) yield* graft(log, existing, n, adopt);
      else yield* mergeInto(log, found, n, adopt);
      if (++seen % ITEMS_PER_STEP === 0) yield;
    }
  }
}

/**
 * Makes `existing` equal to `incoming` (same schema node and keys) with the fewest changes: what `incoming`
 * lacks is removed, what it adds is created, leaves that differ are set, and entries of user-ordered lists
 * are moved into its order.
 */
function* syncInto(log: ChangeLog, existing: DataNode, incoming: DataNode, adopt: boolean): Steps<void> {
  if (yield* writeValue(log, existing, incoming, adopt)) return;
  yield* syncChildren(
    log,
    existing,
    incoming,
    existing.schema.kind === 'list' ? existing.schema : undefined,
    adopt,
  );
}

/** Makes the children of `parent` (the tree's top when undefined) those of `incoming`. */
function* syncChildren(
  log: ChangeLog,
  parent: DataNode | undefined,
  incoming: ChildHolder,
  list: SchemaNode | undefined,
  adopt: boolean,
): Steps<void> {
  const holder = log.holder(parent);
  const wanted = incoming.children ?? new CompactChildMap();
  // A step every few dozen nodes compared, whether they differ or not; the entries of a big list are
  // looked up by key in an index built in steps first.
  let seen = 0;
  for (const [schema, nodes] of holder.children === undefined ? [] : entriesOf(holder.children)) {
    if (list !== undefined && schema.isKey) continue;
    const kept = wanted.get(schema);
    yield* indexForLookupSteps(kept);
    for (const n of [...nodes]) {
      if (kept === undefined || counterpart(incoming, n) === undefined) log.remove(n);
      if (++seen % ITEMS_PER_STEP === 0) yield;
    }
  }
  for (const [schema, nodes] of entriesOf(wanted)) {
    if (list !== undefined && schema.isKey) continue;
    const ordered = schema.orderedBy === 'user';
    yield* indexForLookupSteps(holder.children?.get(schema));
    let prev: DataNode | undefined;
    for (const c of nodes) {
      if (++seen % ITEMS_PER_STEP === 0) yield;
      let found = counterpart(holder, c);
      if (found === undefined) {
        const at: Placement | undefined = ordered
          ? prev === undefined
            ? { where: 'first' }
            : { where: 'after', anchor: prev }
          : undefined;
        found = yield* graft(log, parent, c, adopt, at);
      } else {
        yield* syncInto(log, found, c, adopt);
        if (ordered && !follows(holder, found, prev)) {
          log.move(found, prev === undefined ? { where: 'first' } : { where: 'after', anchor: prev });
        }
      }
      prev = found;
    }
  }
}

/** True when `node` comes right after `prev` among its siblings (first when `prev` is undefined). */
function follows(holder: ChildHolder, node: DataNode, prev: DataNode | undefined): boolean {
  const at = positionOf(holder, node);
  return prev === undefined ? at === 0 : holder.children!.get(node.schema)![at - 1] === prev;
}

/**
 * Makes the whole tree of `log` equal to `source` (RFC 6241 copy-config, edit-config with default-operation
 * replace at the top), logging only the nodes that differ.
 */
export function replaceTree(log: ChangeLog, source: InstanceTree): void {
  finishSteps(replaceTreeSteps(log, source));
}

/**
 * {@link replaceTree} in steps (see {@link Steps}), so that a server can replace a big datastore in
 * slices. Between two steps the tree holds part of the change: whoever runs it in slices keeps others
 * from the tree until it ends; `source` must not change meanwhile.
 */
export function* replaceTreeSteps(log: ChangeLog, source: InstanceTree): Steps<void> {
  yield* log.detachReadersSteps();
  yield* syncChildren(log, undefined, source, undefined, false);
}

/**
 * The changes that turn `a` into `b` (copy-config and the like): nodes only in `a` removed, nodes only in
 * `b` created node by node, leaves that differ set, user-ordered entries moved. Neither tree changes.
 */
export function diff(a: InstanceTree, b: InstanceTree): TreeChange[] {
  return finishSteps(diffSteps(a, b));
}

/**
 * {@link diff} in steps (see {@link Steps}): `a` is copied, then the copy made equal to `b`, a step
 * every few dozen nodes, so that a server can compare two big datastores in slices. Neither tree may
 * change until it ends.
 */
export function* diffSteps(a: InstanceTree, b: InstanceTree): Steps<TreeChange[]> {
  const log = new ChangeLog(yield* cloneTreeSteps(a));
  yield* replaceTreeSteps(log, b);
  return log.take();
}
