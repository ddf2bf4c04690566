import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { findEntryByKey, findPath } from './child-index';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { instanceIdSteps } from './instance-identifier';
import { pathOfNode } from './paths';
import { isDataKind } from './schema-view';

/** The leaves of a schema that must refer to an existing instance, and what they refer to. */
interface References {
  /** Leaves and leaf-lists of type leafref or instance-identifier with require-instance true. */
  readonly referencing: readonly SchemaNode[];
  /** Leafref leaves per target schema node. */
  readonly byTarget: ReadonlyMap<SchemaNode, readonly SchemaNode[]>;
  /** Leaves of type instance-identifier with require-instance true (they may point anywhere). */
  readonly instanceIds: readonly SchemaNode[];
}

const cache = new WeakMap<SchemaTree, References>();

/** True for a leafref or instance-identifier whose instance must exist (RFC 7950 9.9.3, 9.13.2). */
export function requiresInstance(schema: SchemaNode): boolean {
  const t = schema.type;
  return (t?.base === 'leafref' || t?.base === 'instance-identifier') && t.requireInstance !== false;
}

function referencesOf(tree: SchemaTree): References {
  let refs = cache.get(tree);
  if (refs !== undefined) return refs;
  const referencing: SchemaNode[] = [];
  const byTarget = new Map<SchemaNode, SchemaNode[]>();
  const instanceIds: SchemaNode[] = [];
  for (const s of tree) {
    if ((s.kind !== 'leaf' && s.kind !== 'leaf-list') || !requiresInstance(s)) continue;
    referencing.push(s);
    if (s.type!.base === 'instance-identifier') instanceIds.push(s);
    const target = s.type!.leafrefTarget as SchemaNode | undefined;
    if (target === undefined) continue;
    const list = byTarget.get(target);
    if (list === undefined) byTarget.set(target, [s]);
    else list.push(s);
  }
  refs = { referencing, byTarget, instanceIds };
  cache.set(tree, refs);
  return refs;
}

/** The data ancestors of `schema` (itself included) from the top, choice and case left out. */
function dataChain(schema: SchemaNode): SchemaNode[] {
  const chain: SchemaNode[] = [];
  for (let s: SchemaNode | undefined = schema; s !== undefined; s = s.parent) {
    if (s.kind !== 'choice' && s.kind !== 'case') chain.push(s);
  }
  return chain.reverse();
}

/**
 * The part of `chain` inside the document and the holders it starts from: the top of a data document, or
 * the operation's input/output (or the notification) of an operation document. Undefined when the
 * document does not hold the chain's top.
 */
function within(
  tree: InstanceTree,
  chain: readonly SchemaNode[],
): { from: number; level: ChildHolder[] } | undefined {
  for (let i = 0; i < chain.length; i++) {
    if (tree.children.has(chain[i]!)) return { from: i, level: [tree] };
    if (isDataKind(chain[i]!.kind)) break;
  }
  return undefined;
}

/** Whether some instance of `target` has `value`: O(1) for the key of a keyed list under containers. */
function targetHas(tree: InstanceTree, target: SchemaNode, value: string): boolean | undefined {
  const chain = dataChain(target);
  const start = within(tree, chain);
  if (start === undefined) return undefined;
  let level = start.level;
  for (let i = start.from; i < chain.length; i++) {
    const s = chain[i]!;
    const last = i === chain.length - 1;
    const keyNext =
      i === chain.length - 2 &&
      s.kind === 'list' &&
      s.keyNodes.length === 1 &&
      s.keyNodes[0] === chain[i + 1];
    if (keyNext || (last && s.kind === 'leaf-list')) {
      return level.some((h) => findEntryByKey(h, s, value) !== undefined);
    }
    const next: DataNode[] = [];
    for (const h of level) for (const n of h.children?.get(s) ?? []) next.push(n);
    if (last) return next.some((n) => n.value === value);
    level = next;
  }
  return false;
}

/**
 * RFC 7950 9.9.3 and 9.13.2: the instance a leafref or instance-identifier with require-instance refers to
 * exists. `complete`: the document is a whole datastore, so a target outside it is missing; otherwise only
 * targets inside the document are checked.
 */
export function checkReference(
  tree: InstanceTree,
  leaf: DataNode,
  complete: boolean,
  errors: CodecError[],
): void {
  const schema = leaf.schema;
  const value = leaf.value ?? '';
  let found: boolean | undefined;
  if (schema.type?.base === 'instance-identifier') {
    const steps = instanceIdSteps(tree.schema, value);
    if (steps === undefined) return;
    if (!complete && !tree.children.has(steps[0]!.schema)) return;
    found = findPath(tree, steps) !== undefined;
  } else {
    const target = schema.type?.leafrefTarget as SchemaNode | undefined;
    if (target === undefined) return;
    found = targetHas(tree, target, value);
    if (found === undefined) {
      // The target's top is not in the document: missing in a whole datastore, unknown otherwise.
      if (!complete || target.isOperation) return;
      found = false;
    }
  }
  if (found) return;
  const path = pathOfNode(tree.schema, leaf);
  errors.push(
    new CodecError(
      'DATA_MISSING',
      `${schema.kind} "${schema.name}" refers to "${value}", which does not exist (${path.json})`,
      {
        errorTag: 'data-missing',
        errorAppTag: 'instance-required',
        errorPath: path,
        errorInfo: { 'bad-value': value },
      },
    ),
  );
}

/** Every instance of `schema` in the tree (walking only the branches that lead to it). */
function instancesOf(tree: InstanceTree, schema: SchemaNode): DataNode[] {
  const chain = dataChain(schema);
  const start = within(tree, chain);
  if (start === undefined) return [];
  let level: ChildHolder[] = start.level;
  for (let i = start.from; i < chain.length; i++) {
    const next: DataNode[] = [];
    for (const h of level) for (const n of h.children?.get(chain[i]!) ?? []) next.push(n);
    level = next;
  }
  return level as DataNode[];
}

/** True when `schema` is `ancestor` or below it. */
function isWithin(schema: SchemaNode, ancestor: SchemaNode): boolean {
  for (let s: SchemaNode | undefined = schema; s !== undefined; s = s.parent) if (s === ancestor) return true;
  return false;
}

/**
 * After `removed` (a schema node whose instances were removed) left the tree: checks the references that may
 * have pointed into it, the leafrefs to it or below it and every instance-identifier.
 */
export function checkReferencesInto(
  tree: InstanceTree,
  removed: SchemaNode,
  errors: CodecError[],
  maxErrors: number,
): void {
  const refs = referencesOf(tree.schema);
  const leaves = new Set<SchemaNode>(refs.instanceIds);
  for (const [target, referencing] of refs.byTarget) {
    if (isWithin(target, removed)) for (const r of referencing) leaves.add(r);
  }
  for (const s of leaves) {
    if (!s.config) continue;
    for (const leaf of instancesOf(tree, s)) {
      if (errors.length >= maxErrors) return;
      checkReference(tree, leaf, true, errors);
    }
  }
}

/** True when removing instances of `schema` may break a reference (something refers into its subtree). */
export function isReferenced(tree: SchemaTree, schema: SchemaNode): boolean {
  const refs = referencesOf(tree);
  if (refs.instanceIds.length > 0) return true;
  for (const target of refs.byTarget.keys()) if (isWithin(target, schema)) return true;
  return false;
}
