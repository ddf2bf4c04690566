import type { SchemaNode } from '@yangkit/yang-schema';

/**
 * One instance in a datastore: a container, a list entry, a leaf, a leaf-list entry or anydata.
 * Children are grouped per schema node; list entries and leaf-list values sit in a `Map` keyed by
 * their key, so an entry is found in O(1) whatever the list's size. The root has no schema.
 */
export interface DataNode {
  readonly schema: SchemaNode | undefined;
  parent: DataNode | undefined;
  /** List entry: its key values joined by NUL; leaf-list entry: its value; otherwise ''. */
  readonly key: string;
  /**
   * Leaf and leaf-list value in canonical form; identityref as `module:identity`, instance-identifier
   * with module names as prefixes (RFC 7951 section 6.11 form).
   */
  value: string | undefined;
  /** anydata/anyxml content, kept as XML text. */
  xml: string | undefined;
  /** Children of inner nodes: one node per container/leaf/anydata, a keyed map per list/leaf-list. */
  kids: Map<SchemaNode, Slot> | undefined;
}

/** What a parent holds for one child schema node. */
export type Slot = DataNode | Map<string, DataNode>;

/** One step of a path from the root: the schema node and, for list/leaf-list entries, the key. */
export interface Step {
  readonly schema: SchemaNode;
  readonly key: string;
}

/** True for schema nodes whose instances are keyed entries (list, leaf-list). */
export function isMulti(schema: SchemaNode): boolean {
  return schema.kind === 'list' || schema.kind === 'leaf-list';
}

/** True for schema nodes whose instances hold children. */
export function isInner(schema: SchemaNode | undefined): boolean {
  return (
    schema === undefined ||
    schema.kind === 'container' ||
    schema.kind === 'list' ||
    schema.kind === 'input' ||
    schema.kind === 'output' ||
    schema.kind === 'notification'
  );
}

/** Creates the root of an empty datastore. */
export function createRoot(): DataNode {
  return { schema: undefined, parent: undefined, key: '', value: undefined, xml: undefined, kids: new Map() };
}

/** Creates a detached instance. */
export function createNode(schema: SchemaNode, key = '', value?: string): DataNode {
  return {
    schema,
    parent: undefined,
    key,
    value,
    xml: undefined,
    kids: isInner(schema) ? new Map() : undefined,
  };
}

/** The key of a list entry built from its key values in key order. */
export function joinKey(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : values.join('\u0000');
}

/** The single child instance of a container/leaf/anydata schema node, if present. */
export function single(parent: DataNode, schema: SchemaNode): DataNode | undefined {
  const slot = parent.kids?.get(schema);
  return slot === undefined || slot instanceof Map ? undefined : slot;
}

/** The entries of a list or leaf-list under `parent`, keyed. */
export function entries(parent: DataNode, schema: SchemaNode): Map<string, DataNode> | undefined {
  const slot = parent.kids?.get(schema);
  return slot instanceof Map ? slot : undefined;
}

/** The child instance for one step, if present. */
export function childAt(parent: DataNode, step: Step): DataNode | undefined {
  const slot = parent.kids?.get(step.schema);
  if (slot === undefined) return undefined;
  return slot instanceof Map ? slot.get(step.key) : slot;
}

/** Every child instance of `parent`, grouped per schema node in insertion order. */
export function* allChildren(parent: DataNode): Generator<DataNode> {
  if (parent.kids === undefined) return;
  for (const slot of parent.kids.values()) {
    if (slot instanceof Map) yield* slot.values();
    else yield slot;
  }
}

/** True when `parent` holds no child instance. */
export function isEmpty(parent: DataNode): boolean {
  return parent.kids === undefined || parent.kids.size === 0;
}

/** Attaches `child` as the last instance of its schema node (entries replace an equal key in place). */
export function attach(parent: DataNode, child: DataNode): void {
  const schema = child.schema!;
  child.parent = parent;
  const kids = parent.kids!;
  if (isMulti(schema)) {
    let map = kids.get(schema) as Map<string, DataNode> | undefined;
    if (map === undefined) kids.set(schema, (map = new Map()));
    map.set(child.key, child);
  } else kids.set(schema, child);
}

/** Removes `child` from its parent. */
export function detach(child: DataNode): void {
  const parent = child.parent;
  if (parent === undefined) return;
  const schema = child.schema!;
  const kids = parent.kids!;
  if (isMulti(schema)) {
    const map = kids.get(schema) as Map<string, DataNode> | undefined;
    if (map !== undefined && map.get(child.key) === child) {
      map.delete(child.key);
      if (map.size === 0) kids.delete(schema);
    }
  } else if (kids.get(schema) === child) kids.delete(schema);
  child.parent = undefined;
}

/** Deep copy of a subtree (detached). */
export function cloneNode(node: DataNode): DataNode {
  const copy: DataNode = {
    schema: node.schema,
    parent: undefined,
    key: node.key,
    value: node.value,
    xml: node.xml,
    kids: node.kids === undefined ? undefined : new Map(),
  };
  if (node.kids !== undefined) {
    for (const [schema, slot] of node.kids) {
      if (slot instanceof Map) {
        const map = new Map<string, DataNode>();
        for (const [k, c] of slot) {
          const cc = cloneNode(c);
          cc.parent = copy;
          map.set(k, cc);
        }
        copy.kids!.set(schema, map);
      } else {
        const cc = cloneNode(slot);
        cc.parent = copy;
        copy.kids!.set(schema, cc);
      }
    }
  }
  return copy;
}

/** The steps from the root to `node`. */
export function pathOf(node: DataNode): Step[] {
  const steps: Step[] = [];
  for (let n: DataNode | undefined = node; n?.schema !== undefined; n = n.parent) {
    steps.push({ schema: n.schema, key: n.key });
  }
  return steps.reverse();
}

/** Follows `steps` from `root`; undefined when an instance on the way is missing. */
export function lookup(root: DataNode, steps: readonly Step[]): DataNode | undefined {
  let node: DataNode | undefined = root;
  for (const step of steps) {
    node = childAt(node, step);
    if (node === undefined) return undefined;
  }
  return node;
}

/** Key leaf values of a list entry, in key order. */
export function keyValues(entry: DataNode): string[] {
  return entry.schema!.keyNodes.map((k) => single(entry, k)?.value ?? '');
}

/** Number of instances in a subtree (the node included). */
export function countNodes(node: DataNode): number {
  let n = 1;
  for (const c of allChildren(node)) n += countNodes(c);
  return n;
}

/**
 * Reorders the entries of a user-ordered list or leaf-list (RFC 7950 7.8.6): moves `key` to the front,
 * the end, or before/after `anchor`. O(entries), as a Map keeps insertion order only.
 */
export function moveEntry(
  map: Map<string, DataNode>,
  key: string,
  where: 'first' | 'last' | 'before' | 'after',
  anchor?: string,
): void {
  const node = map.get(key);
  if (node === undefined) return;
  if (where === 'last') {
    map.delete(key);
    map.set(key, node);
    return;
  }
  const rest = [...map].filter(([k]) => k !== key);
  map.clear();
  if (where === 'first') map.set(key, node);
  for (const [k, v] of rest) {
    if (where === 'before' && k === anchor) map.set(key, node);
    map.set(k, v);
    if (where === 'after' && k === anchor) map.set(key, node);
  }
  if (!map.has(key)) map.set(key, node);
}

/** The position of `key` among the entries (for undoing a removal or a move). */
export function positionOf(map: Map<string, DataNode>, key: string): string | undefined {
  let prev: string | undefined;
  for (const k of map.keys()) {
    if (k === key) return prev;
    prev = k;
  }
  return prev;
}
