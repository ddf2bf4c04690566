import type { SchemaNode } from '@yangkit/yang-schema';
import type { DataNode } from './data-tree.js';
import { keyValues } from './data-tree.js';

/** An error-path (RFC 6241 4.3): an XPath with the namespace declarations its prefixes need. */
export interface ErrorPath {
  readonly path: string;
  readonly namespaces: Map<string, string>;
}

function quoteLiteral(v: string): string {
  return v.includes("'") ? `"${v}"` : `'${v}'`;
}

function step(schema: SchemaNode, ns: Map<string, string>, keys?: readonly string[]): string {
  ns.set(schema.prefix, schema.namespace);
  let s = `/${schema.prefix}:${schema.name}`;
  if (keys && schema.kind === 'list') {
    schema.keyNodes.forEach((k, i) => {
      s += `[${k.prefix}:${k.name}=${quoteLiteral(keys[i] ?? '')}]`;
    });
  } else if (keys && schema.kind === 'leaf-list' && keys[0] !== undefined)
    s += `[.=${quoteLiteral(keys[0])}]`;
  return s;
}

/** The error-path of an existing instance, e.g. `/if:interfaces/if:interface[if:name='eth0']`. */
export function pathOfNode(node: DataNode | undefined): ErrorPath {
  const ns = new Map<string, string>();
  const parts: string[] = [];
  for (let n = node; n?.schema !== undefined; n = n.parent) {
    const s = n.schema;
    parts.push(step(s, ns, s.kind === 'list' ? keyValues(n) : s.kind === 'leaf-list' ? [n.key] : undefined));
  }
  return { path: parts.reverse().join('') || '/', namespaces: ns };
}

/** The error-path of a child (maybe not yet existing) of `parent`. */
export function pathOfChild(
  parent: DataNode | undefined,
  schema: SchemaNode,
  keys?: readonly string[],
): ErrorPath {
  const base = pathOfNode(parent);
  const path = (base.path === '/' ? '' : base.path) + step(schema, base.namespaces, keys);
  return { path, namespaces: base.namespaces };
}
