import type { SchemaNode } from '@yangkit/yang-schema';
import type { XPathNavigator } from '@yangkit/yang-xpath';
import { findEntryByKey, isDocument } from './child-index';
import type { DataNode, InstanceTree } from './instance';
import { orderedChildren } from './instance';
import { nodeInfo, topLevelInfo } from './schema-view';

/** A node of an instance tree as XPath sees it: the document (the root) or an instance. */
export type TreeNode = DataNode | InstanceTree;

const navigators = new WeakMap<InstanceTree, XPathNavigator<TreeNode>>();

/**
 * A yang-xpath navigator over one instance tree, so that `must`, `when`, leafref paths, XPath filters and
 * access rules evaluate on the instances themselves (nothing is serialised): the document is the root,
 * children come in schema order, a leaf's string value is its canonical value, and a key predicate on a
 * single-key list (`list[key = 'v']`) is answered from the tree's key index in O(1).
 */
export function treeNavigator(tree: InstanceTree): XPathNavigator<TreeNode> {
  let nav = navigators.get(tree);
  if (nav === undefined) navigators.set(tree, (nav = createNavigator(tree)));
  return nav;
}

/** The children of `node` in document order. */
function* children(node: TreeNode): Generator<TreeNode> {
  for (const [, nodes] of orderedChildren(node, isDocument(node) ? undefined : node.schema)) yield* nodes;
}

function createNavigator(tree: InstanceTree): XPathNavigator<TreeNode> {
  const schema = tree.schema;
  const moduleOfNs = (ns: string): string | undefined => schema.moduleByNamespace(ns)?.name;
  /** The schema child `{namespace}localName` of a node (notifications and actions included). */
  const childSchema = (node: TreeNode, namespace: string, localName: string): SchemaNode | undefined => {
    const parent =
      isDocument(node) || node.schema.kind === 'anydata' || node.schema.kind === 'anyxml'
        ? undefined
        : node.schema;
    const found = (parent === undefined ? topLevelInfo(schema) : nodeInfo(parent)).byNamespace
      .get(namespace)
      ?.get(localName);
    if (found !== undefined) return found;
    const module = moduleOfNs(namespace);
    if (module === undefined) return undefined;
    return parent === undefined ? schema.topLevel(module, localName) : parent.dataChild(module, localName);
  };
  const stringValue = (node: TreeNode): string => {
    if (!isDocument(node) && node.value !== undefined) return node.value;
    let s = '';
    for (const [, nodes] of orderedChildren(node, isDocument(node) ? undefined : node.schema)) {
      for (const c of nodes) s += stringValue(c);
    }
    return s;
  };
  return {
    root: () => tree,
    parent: (node) => (isDocument(node) ? undefined : (node.parent ?? tree)),
    children,
    kind: (node) => (isDocument(node) ? 'root' : 'element'),
    localName: (node) => (isDocument(node) ? '' : node.schema.name),
    namespace: (node) => (isDocument(node) ? '' : node.schema.namespace),
    stringValue,
    childrenNamed(node, namespace, localName) {
      const s = childSchema(node, namespace, localName);
      return (s === undefined ? undefined : node.children?.get(s)) ?? [];
    },
    childrenByKey(node, element, key, value) {
      const s = childSchema(node, element.namespace, element.localName);
      if (s === undefined) return [];
      const only = s.kind === 'list' && s.keyNodes.length === 1 ? s.keyNodes[0] : undefined;
      if (only === undefined || only.name !== key.localName || only.namespace !== key.namespace)
        return undefined;
      const entry = findEntryByKey(node, s, value);
      return entry === undefined ? [] : [entry];
    },
    schemaInfo(node) {
      if (isDocument(node)) return undefined;
      const type = node.schema.type;
      if (type === undefined) return undefined;
      return {
        baseType: type.base,
        enumValue: (name: string) => type.enums?.find((e) => e.name === name)?.value,
        isDerivedFrom(value: string, base: { namespace: string; name: string }, orSelf: boolean) {
          const baseModule = moduleOfNs(base.namespace);
          if (baseModule === undefined) return false;
          const q = `${baseModule}:${base.name}`;
          const id = value.includes(':') ? value : `${node.schema.module}:${value}`;
          return (orSelf && id === q) || schema.isDerivedFrom(id, q);
        },
      };
    },
  };
}
