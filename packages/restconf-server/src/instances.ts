import type { ResolvedApiPath, ResolvedStep } from '@yangkit/restconf-uri';
import type { ChildHolder, DataNode, InstanceTree, PathStep } from '@yangkit/yang-json-codec';
import { CompactChildMap } from '@yangkit/yang-json-codec';
import { fromResolved } from '@yangkit/yang-patch';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';

/** The schema node of a resolved step (restconf-uri's view is a structural subset of SchemaNode). */
export function schemaOf(step: ResolvedStep): SchemaNode {
  return step.node as unknown as SchemaNode;
}

const pathSteps = new WeakMap<ResolvedApiPath, readonly PathStep[]>();

/**
 * Resolved api-path steps as the codec's path steps; resolved paths are kept per URL, so each is
 * converted once and the backend can keep what it derives from the steps (a subtree filter).
 */
export function toPathSteps(resolved: ResolvedApiPath): readonly PathStep[] {
  let steps = pathSteps.get(resolved);
  if (steps === undefined) {
    steps = fromResolved(resolved);
    pathSteps.set(resolved, steps);
  }
  return steps;
}

const modulePrefixes = new WeakMap<SchemaTree, Record<string, string>>();

/** Module name to the module's own prefix, the prefixes XML instance-identifiers are written with. */
export function prefixesOf(schema: SchemaTree): Record<string, string> {
  let prefixes = modulePrefixes.get(schema);
  if (prefixes === undefined) {
    prefixes = {};
    for (const m of schema.modules) prefixes[m.name] = m.prefix;
    modulePrefixes.set(schema, prefixes);
  }
  return prefixes;
}

/** The data parent of a schema node: choice and case are skipped (undefined at the top level). */
export function dataParent(node: SchemaNode): SchemaNode | undefined {
  let p = node.parent;
  while (p !== undefined && (p.kind === 'choice' || p.kind === 'case')) p = p.parent;
  return p;
}

function matches(node: DataNode, step: PathStep): boolean {
  if (step.value !== undefined) return node.value === step.value;
  if (step.keys === undefined) return true;
  for (const key of step.keys) {
    let found: string | undefined;
    for (const [schema, nodes] of node.children ?? []) {
      if (schema.name === key.name && schema.isKey) found = nodes[0]?.value;
    }
    if (found !== key.value) return false;
  }
  return true;
}

/** The instances a data path names in a decoded datastore tree (empty when there is none). */
export function findInstances(tree: ChildHolder, path: readonly PathStep[]): DataNode[] {
  let holders: ChildHolder[] = [tree];
  let found: DataNode[] = [];
  for (const step of path) {
    found = [];
    for (const h of holders) {
      for (const n of h.children?.get(step.schema) ?? []) if (matches(n, step)) found.push(n);
    }
    if (found.length === 0) return [];
    holders = found;
  }
  return found;
}

/** True when a top node of the document has children (an operation's input or output has parameters). */
export function hasChildren(tree: InstanceTree | undefined): tree is InstanceTree {
  if (tree === undefined) return false;
  for (const nodes of tree.children.values()) {
    for (const n of nodes) if (n.children !== undefined && n.children.size > 0) return true;
  }
  return false;
}

/** A 'resource' document holding `nodes` (RFC 8040 section 3.5: the target resource and its descendants). */
export function resourceTree(tree: InstanceTree, nodes: DataNode[]): InstanceTree {
  const schema = nodes[0]!.schema;
  return {
    schema: tree.schema,
    kind: 'resource',
    parent: dataParent(schema),
    operation: undefined,
    eventTime: undefined,
    children: new CompactChildMap([[schema, nodes]]),
    annotations: undefined,
  };
}
