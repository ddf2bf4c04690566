import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath, type XPathNavigator } from '@yangkit/yang-xpath';
import { allChildren, type DataNode } from './data-tree.js';

/**
 * An XPath navigator over a datastore tree (yang-xpath's `XPathNavigator`), so `must`, `when`,
 * `:xpath` filters and leafref paths evaluate on the live instances without serialising them.
 */
export function dataNavigator(tree: SchemaTree): XPathNavigator<DataNode> {
  const moduleOfNs = (ns: string): string | undefined => tree.moduleByNamespace(ns)?.name;
  return {
    root(node) {
      let n = node;
      while (n.parent) n = n.parent;
      return n;
    },
    parent: (node) => node.parent,
    children: (node) => allChildren(node),
    kind: (node) => (node.schema === undefined ? 'root' : 'element'),
    localName: (node) => node.schema?.name ?? '',
    namespace: (node) => node.schema?.namespace ?? '',
    stringValue(node) {
      if (node.value !== undefined) return node.value;
      let s = '';
      for (const c of allChildren(node)) s += this.stringValue(c);
      return s;
    },
    *childrenNamed(node, namespace, localName) {
      if (!node.kids) return;
      const module = moduleOfNs(namespace);
      if (module === undefined) return;
      const schema =
        node.schema === undefined
          ? tree.topLevel(module, localName)
          : node.schema.dataChild(module, localName);
      if (!schema) return;
      const slot = node.kids.get(schema);
      if (slot === undefined) return;
      if (slot instanceof Map) yield* slot.values();
      else yield slot;
    },
    schemaInfo(node) {
      const type = node.schema?.type;
      if (!type) return undefined;
      return {
        baseType: type.base,
        enumValue: (name: string) => type.enums?.find((e) => e.name === name)?.value,
        isDerivedFrom(value: string, base: { namespace: string; name: string }, orSelf: boolean) {
          const baseModule = moduleOfNs(base.namespace);
          if (baseModule === undefined) return false;
          const q = `${baseModule}:${base.name}`;
          const colon = value.indexOf(':');
          const id = colon === -1 ? `${node.schema!.module}:${value}` : value;
          return (orSelf && id === q) || tree.isDerivedFrom(id, q);
        },
      };
    },
  };
}

const cache = new WeakMap<object, CompiledXPath>();

/**
 * Compiles a `must`/`when` expression of the schema once: prefixes map to the namespaces of the
 * module where it was written; unprefixed names belong to that module (RFC 7950 6.4.1).
 */
export function schemaXPath(
  tree: SchemaTree,
  expr: SchemaNode['must'][number] | SchemaNode['when'][number],
): CompiledXPath {
  let compiled = cache.get(expr);
  if (compiled) return compiled;
  const prefixes = new Map<string, string>();
  for (const [prefix, module] of expr.prefixes) {
    const m = tree.moduleByName(module);
    if (m) prefixes.set(prefix, m.namespace);
  }
  compiled = compileXPath(expr.expression, {
    prefixes,
    defaultNamespace: tree.moduleByName(expr.module)?.namespace ?? '',
  });
  cache.set(expr, compiled);
  return compiled;
}
