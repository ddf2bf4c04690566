import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { createNode } from './instance';
import { WITH_DEFAULTS_MODULE } from './known-annotations';
import { valueFromJson, valueFromXml } from './values';

/** The retrieval modes of RFC 6243 section 3 (the RESTCONF `with-defaults` parameter, RFC 8040 4.8.9). */
export type WithDefaultsMode = 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';

/**
 * Applies a with-defaults mode to a decoded tree, in place, and returns it:
 * - `explicit`: the tree as the server sent it (nothing to do);
 * - `trim`: leafs whose value equals their schema default are removed (RFC 6243 3.2);
 * - `report-all`: missing leafs and leaf-lists with defaults are added below every node present, through
 *   non-presence containers and the selected (or default) case of each choice (RFC 6243 3.1);
 * - `report-all-tagged`: as report-all, and every value equal to its default carries the
 *   `ietf-netconf-with-defaults:default` annotation (RFC 6243 3.4).
 */
export function applyWithDefaults(tree: InstanceTree, mode: WithDefaultsMode): InstanceTree {
  switch (mode) {
    case 'explicit':
      return tree;
    case 'trim':
      eachInner(tree, (n) => trim(tree.schema, n));
      return tree;
    case 'report-all':
    case 'report-all-tagged': {
      const tag = mode === 'report-all-tagged';
      const inner: DataNode[] = [];
      eachInner(tree, (n) => inner.push(n));
      for (const n of inner) addDefaults(tree.schema, n, n.schema.children, tag);
      if (tag) eachInner(tree, (n) => tagDefaults(tree.schema, n));
      return tree;
    }
    default:
      throw new CodecError('BAD_OPTION', `unknown with-defaults mode "${String(mode)}"`, {
        errorTag: 'invalid-value',
      });
  }
}

function eachInner(holder: ChildHolder, fn: (n: DataNode) => void): void {
  if (holder.children === undefined) return;
  for (const nodes of holder.children.values()) {
    for (const n of nodes) {
      if (n.children !== undefined) {
        fn(n);
        eachInner(n, fn);
      }
    }
  }
}

const defaultCache = new WeakMap<SchemaNode, string[] | null>();

/** The canonical default values of a leaf or leaf-list (empty when it has none). */
export function defaultValues(tree: SchemaTree, schema: SchemaNode): string[] {
  const cached = defaultCache.get(schema);
  if (cached !== undefined) return cached ?? [];
  const out: string[] = [];
  for (const text of schema.defaults) {
    // Defaults are written with the prefixes of the defining module; the node's own prefix and module
    // names cover what a default names in practice.
    let r = valueFromXml(tree, schema.type!, text, {
      lookup: (p: string) =>
        p === '' || p === schema.prefix
          ? schema.namespace
          : (tree.modules.find((m) => m.prefix === p)?.namespace ?? tree.moduleByName(p)?.namespace),
    });
    if (!r.ok) r = valueFromJson(tree, schema.type!, text, schema.module);
    if (r.ok) out.push(r.value);
  }
  defaultCache.set(schema, out.length === 0 ? null : out);
  return out;
}

function trim(tree: SchemaTree, n: DataNode): void {
  for (const [s, nodes] of n.children!) {
    if (s.kind === 'leaf') {
      const d = defaultValues(tree, s);
      if (d.length === 1 && nodes[0]?.value === d[0]) n.children!.delete(s);
    } else if (s.kind === 'leaf-list') {
      const d = defaultValues(tree, s);
      if (d.length > 0 && d.length === nodes.length && nodes.every((x, i) => x.value === d[i]))
        n.children!.delete(s);
    }
  }
}

/** True when any data node below `schema` (a case or choice) has an instance under `n`. */
function caseSelected(n: DataNode, schema: SchemaNode): boolean {
  for (const c of schema.children) {
    if (c.kind === 'choice' || c.kind === 'case') {
      if (caseSelected(n, c)) return true;
    } else if (n.children!.has(c)) return true;
  }
  return false;
}

function addDefaults(
  tree: SchemaTree,
  n: DataNode,
  schemaChildren: readonly SchemaNode[],
  tag: boolean,
): void {
  for (const cs of schemaChildren) {
    if (cs.kind === 'choice') {
      const chosen =
        cs.children.find((c) => caseSelected(n, c)) ?? cs.children.find((c) => c.name === cs.default);
      if (chosen !== undefined)
        addDefaults(tree, n, chosen.kind === 'case' ? chosen.children : [chosen], tag);
    } else if (cs.kind === 'leaf' || cs.kind === 'leaf-list') {
      if (n.children!.has(cs)) continue;
      const values = defaultValues(tree, cs);
      if (values.length === 0) continue;
      n.children!.set(
        cs,
        values.map((v) => {
          const leaf = createNode(cs, n);
          leaf.value = v;
          return leaf;
        }),
      );
    } else if (cs.kind === 'container' && cs.presence === undefined && !n.children!.has(cs)) {
      // A non-presence container "exists" with its defaults (RFC 7950 7.6.1).
      const c = createNode(cs, n);
      addDefaults(tree, c, cs.children, tag);
      if (c.children!.size > 0) n.children!.set(cs, [c]);
    }
  }
}

function tagDefaults(tree: SchemaTree, n: DataNode): void {
  for (const [s, nodes] of n.children!) {
    if (s.kind !== 'leaf' && s.kind !== 'leaf-list') continue;
    const d = defaultValues(tree, s);
    if (d.length === 0) continue;
    for (const leaf of nodes) {
      if (!d.includes(leaf.value ?? '')) continue;
      if (leaf.annotations?.some((a) => a.module === WITH_DEFAULTS_MODULE && a.name === 'default')) continue;
      (leaf.annotations ??= []).push({ module: WITH_DEFAULTS_MODULE, name: 'default', value: 'true' });
    }
  }
}
