import type { ChildHolder, ChildMap, DataNode, InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { PathStep } from './types.js';

/** A fresh instance of `schema` under `parent` (children map only for inner nodes). */
export function newNode(schema: SchemaNode, parent: DataNode | undefined): DataNode {
  const leafy =
    schema.kind === 'leaf' ||
    schema.kind === 'leaf-list' ||
    schema.kind === 'anydata' ||
    schema.kind === 'anyxml';
  return {
    schema,
    parent,
    value: undefined,
    member: undefined,
    any: undefined,
    children: leafy ? undefined : new Map(),
    annotations: undefined,
  };
}

/** Deep copy of an instance and everything below it, re-parented under `parent`. */
export function cloneNode(node: DataNode, parent: DataNode | undefined): DataNode {
  const copy: DataNode = {
    schema: node.schema,
    parent,
    value: node.value,
    member: node.member,
    any: node.any,
    children: undefined,
    annotations: node.annotations === undefined ? undefined : [...node.annotations],
  };
  if (node.children !== undefined) copy.children = cloneChildren(node.children, copy);
  return copy;
}

/** Deep copy of a child map under `parent`. */
export function cloneChildren(children: ChildMap, parent: DataNode | undefined): ChildMap {
  const out: ChildMap = new Map();
  for (const [schema, nodes] of children)
    out.set(
      schema,
      nodes.map((n) => cloneNode(n, parent)),
    );
  return out;
}

/** Deep copy of a document; the original is left untouched. */
export function cloneTree(tree: InstanceTree): InstanceTree {
  return { ...tree, children: cloneChildren(tree.children, undefined) };
}

/** True when `node` is the instance `step` names (every instance of the schema node when no keys are given). */
export function matches(node: DataNode, step: PathStep): boolean {
  if (step.value !== undefined) return node.value === step.value;
  if (step.keys === undefined) return true;
  for (const k of step.keys) {
    const keyNode = node.schema.keyNodes.find((n) => n.name === k.name);
    if (keyNode === undefined || node.children?.get(keyNode)?.[0]?.value !== k.value) return false;
  }
  return true;
}

/** The instances of `step` among the children of `holder`. */
export function find(holder: ChildHolder, step: PathStep): DataNode[] {
  return (holder.children?.get(step.schema) ?? []).filter((n) => matches(n, step));
}

/**
 * Walks `steps` down from the document, creating missing containers and list entries (with their key
 * leaves) when `create` is set, as NETCONF creates the ancestors of an edited node (RFC 6241 section 7.2).
 */
export function descend(
  tree: InstanceTree,
  steps: readonly PathStep[],
  create: boolean,
): { holder: ChildHolder; node: DataNode | undefined } | undefined {
  let holder: ChildHolder = tree;
  let node: DataNode | undefined;
  for (const step of steps) {
    let next = find(holder, step)[0];
    if (next === undefined) {
      if (!create) return undefined;
      next = newNode(step.schema, node);
      for (const k of step.keys ?? []) {
        const keyNode = step.schema.keyNodes.find((n) => n.name === k.name);
        if (keyNode === undefined) continue;
        const leaf = newNode(keyNode, next);
        leaf.value = k.value;
        next.children!.set(keyNode, [leaf]);
      }
      if (step.value !== undefined) next.value = step.value;
      insertAt(holder.children!, next, undefined);
    }
    holder = next;
    node = next;
  }
  return { holder, node };
}

/** Adds `node` to its group, at `index` (default: the end). */
export function insertAt(children: ChildMap, node: DataNode, index: number | undefined): void {
  let group = children.get(node.schema);
  if (group === undefined) children.set(node.schema, (group = []));
  group.splice(index ?? group.length, 0, node);
}

/** Removes `node` from its group (dropping an empty group). */
export function removeNode(children: ChildMap, node: DataNode): void {
  const group = children.get(node.schema);
  if (group === undefined) return;
  const i = group.indexOf(node);
  if (i >= 0) group.splice(i, 1);
  if (group.length === 0) children.delete(node.schema);
}

/**
 * NETCONF merge (RFC 6241 section 7.2): leaves take the new value, containers and list entries (matched by
 * keys) merge recursively, leaf-list values are added when absent, anydata is replaced.
 */
export function mergeInto(existing: DataNode, incoming: DataNode): void {
  existing.value = incoming.value;
  existing.member = incoming.member;
  if (incoming.any !== undefined) existing.any = incoming.any;
  if (incoming.annotations !== undefined) existing.annotations = [...incoming.annotations];
  if (incoming.children === undefined || existing.children === undefined) return;
  for (const [schema, nodes] of incoming.children) {
    for (const n of nodes) {
      const group = existing.children.get(schema) ?? [];
      const same =
        schema.kind === 'list'
          ? group.find((g) => matchesEntry(g, n))
          : schema.kind === 'leaf-list'
            ? group.find((g) => g.value === n.value)
            : group[0];
      if (same === undefined) insertAt(existing.children, cloneNode(n, existing), undefined);
      else if (schema.kind !== 'leaf-list') mergeInto(same, n);
    }
  }
}

function matchesEntry(a: DataNode, b: DataNode): boolean {
  for (const k of a.schema.keyNodes) {
    if (a.children?.get(k)?.[0]?.value !== b.children?.get(k)?.[0]?.value) return false;
  }
  return true;
}
