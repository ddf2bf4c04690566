import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';

/**
 * The codec's view of the compiled schema: lookups every decoder and encoder needs, cached per schema node
 * (nodes are immutable after compilation, so a WeakMap cache never goes stale). A document of 100,000 list
 * entries resolves each child name through one Map lookup instead of a scan of the schema children.
 */

/** Kinds of schema node that carry instance data. */
export type DataKind = 'container' | 'list' | 'leaf' | 'leaf-list' | 'anydata' | 'anyxml';

/** Per-node facts the codec looks up on every instance. */
export interface NodeInfo {
  /** Data children by `module:name`. */
  readonly byQName: Map<string, SchemaNode>;
  /** Data children by bare name (RFC 7951 members without a module, resolved against the parent's module). */
  readonly byName: Map<string, SchemaNode[]>;
  /** Data children in schema order (choice and case transparent). */
  readonly ordered: readonly SchemaNode[];
  /** Position of each data child in `ordered`. */
  readonly index: Map<SchemaNode, number>;
  /** Key leaf schema nodes of a list, in key order. */
  readonly keyNodes: readonly SchemaNode[];
  /** Data children by XML namespace, then local name (no string building per element). */
  readonly byNamespace: Map<string, Map<string, SchemaNode>>;
  /** Data children in the node's own module by bare name (RFC 7951 unqualified members). */
  readonly sameModule: Map<string, SchemaNode>;
}

const infoCache = new WeakMap<object, NodeInfo>();

/** The data children of an inner node (choice/case transparent) in schema order. */
export function dataChildrenOf(node: SchemaNode): readonly SchemaNode[] {
  if (node.kind === 'rpc' || node.kind === 'action') return [];
  return node.dataChildren();
}

/** The input or output node of an rpc or action. */
export function operationPart(node: SchemaNode, kind: 'input' | 'output'): SchemaNode | undefined {
  return node.children.find((c) => c.kind === kind);
}

/** Cached lookup facts for `node`. */
export function nodeInfo(node: SchemaNode): NodeInfo {
  let info = infoCache.get(node);
  if (info === undefined) {
    info = buildInfo(dataChildrenOf(node), node);
    infoCache.set(node, info);
  }
  return info;
}

function buildInfo(children: readonly SchemaNode[], node: SchemaNode | undefined): NodeInfo {
  const byQName = new Map<string, SchemaNode>();
  const byName = new Map<string, SchemaNode[]>();
  const index = new Map<SchemaNode, number>();
  children = children.filter((c) => isDataKind(c.kind));
  if (node?.kind === 'list' && node.keyNodes.length > 0) {
    // RFC 7950 7.8.5: list keys come first, in the order of the key statement.
    const keys = node.keyNodes;
    children = [...keys, ...children.filter((c) => !keys.includes(c))];
  }
  children.forEach((c, i) => {
    byQName.set(`${c.module}:${c.name}`, c);
    const same = byName.get(c.name);
    if (same === undefined) byName.set(c.name, [c]);
    else same.push(c);
    index.set(c, i);
  });
  const keyNodes = node === undefined ? [] : node.keyNodes;
  const byNamespace = new Map<string, Map<string, SchemaNode>>();
  for (const c of children) {
    let m = byNamespace.get(c.namespace);
    if (m === undefined) byNamespace.set(c.namespace, (m = new Map()));
    m.set(c.name, c);
  }
  const sameModule = new Map<string, SchemaNode>();
  if (node !== undefined) for (const c of children) if (c.module === node.module) sameModule.set(c.name, c);
  return { byQName, byName, ordered: children, index, keyNodes, byNamespace, sameModule };
}

const topCache = new WeakMap<object, NodeInfo>();

/** Lookup facts for the top-level data nodes of every implemented module of `tree`. */
export function topLevelInfo(tree: SchemaTree): NodeInfo {
  let info = topCache.get(tree);
  if (info === undefined) {
    info = buildInfo(topLevelNodes(tree), undefined);
    topCache.set(tree, info);
  }
  return info;
}

/** Top-level data nodes of all modules, in module then schema order. */
export function topLevelNodes(tree: SchemaTree): SchemaNode[] {
  return tree.children.filter((n) => isDataKind(n.kind));
}

/** Module name for an XML namespace URI, or undefined when no module of the schema has it. */
export function moduleOfNamespace(tree: SchemaTree, ns: string): string | undefined {
  return tree.moduleByNamespace(ns)?.name;
}

/** XML namespace URI of a module, or undefined when the schema has no such module. */
export function namespaceOfModule(tree: SchemaTree, module: string): string | undefined {
  return tree.moduleByName(module)?.namespace;
}

/** The schema prefix of a module (used for XML output and XML error paths). */
export function prefixOfModule(tree: SchemaTree, module: string): string {
  return tree.moduleByName(module)?.prefix ?? module;
}

/** True for a data node that holds instance data (not choice/case/rpc/...). */
export function isDataKind(kind: string): kind is DataKind {
  return (
    kind === 'container' ||
    kind === 'list' ||
    kind === 'leaf' ||
    kind === 'leaf-list' ||
    kind === 'anydata' ||
    kind === 'anyxml'
  );
}

/** The nearest ancestor that holds instance data or is an operation/notification (skips choice and case). */
export function dataParent(node: SchemaNode): SchemaNode | undefined {
  let p = node.parent;
  while (p !== undefined && (p.kind === 'choice' || p.kind === 'case')) p = p.parent;
  return p;
}

/** The top-level schema node `module:name` of any kind (data node, rpc, notification), or undefined. */
export function topLevelSchemaNode(tree: SchemaTree, module: string, name: string): SchemaNode | undefined {
  return tree.topLevel(module, name);
}

/**
 * Resolves a module-qualified schema path (`/ex:a/b/ex2:c`, module names as in RFC 7951; unqualified steps
 * inherit the module of the step before) to a schema node of any kind, choice and case transparent.
 */
export function findSchemaNode(tree: SchemaTree, path: string): SchemaNode | undefined {
  return tree.find(path);
}

/** Lookup facts for the top nodes of yang-data structures. */
export function structureInfo(structure: readonly SchemaNode[]): NodeInfo {
  return buildInfo(structure, undefined);
}

/** Splits an RFC 7951 member name `module:name` (module undefined when absent). */
export function splitName(key: string): [string | undefined, string] {
  const colon = key.indexOf(':');
  return colon < 0 ? [undefined, key] : [key.slice(0, colon), key.slice(colon + 1)];
}
