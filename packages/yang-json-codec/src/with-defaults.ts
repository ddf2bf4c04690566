import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import {
  type ChildPairs,
  CompactChildMap,
  type Group,
  instanceOf,
  mapGroups,
  type Slot,
  sizeOf,
} from './child-map';
import { CodecError } from './errors';
import type { DataNode, InstanceTree } from './instance';
import { createNode, withAnnotations } from './instance';
import { WITH_DEFAULTS_MODULE } from './known-annotations';
import { valueFromJson, valueFromXml } from './values';
import { applyView } from './view';

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
 * An encoder applies the same rules while writing, without changing the tree, with its `view` option.
 */
export function applyWithDefaults(tree: InstanceTree, mode: WithDefaultsMode): InstanceTree {
  return checkedMode(mode) === 'explicit' ? tree : applyView(tree, { withDefaults: mode });
}

const MODES: readonly string[] = ['report-all', 'report-all-tagged', 'trim', 'explicit'];

/**
 * `mode`, checked.
 *
 * @throws {CodecError} `BAD_OPTION` for a mode RFC 6243 does not define
 */
export function checkedMode(mode: WithDefaultsMode): WithDefaultsMode {
  if (MODES.includes(mode)) return mode;
  throw new CodecError('BAD_OPTION', `unknown with-defaults mode "${String(mode)}"`, {
    errorTag: 'invalid-value',
  });
}

/**
 * The child groups of inner node `holder` (`pairs`) in a mode other than `explicit`: trimmed, or with
 * the missing defaults added (new nodes) and, tagged, default values replaced by annotated copies.
 * The holder's own pairs when nothing changes.
 */
export function defaultsGroups(
  tree: SchemaTree,
  holder: DataNode,
  pairs: ChildPairs,
  mode: WithDefaultsMode,
): ChildPairs {
  if (mode === 'trim') return trimmed(tree, pairs);
  const added = missingDefaults(tree, holder, pairs, holder.schema.children);
  const all = added.length === 0 ? pairs : [...pairs, ...added];
  return mode === 'report-all-tagged' ? tagged(tree, all) : all;
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

/** `pairs` without the leafs (and leaf-lists) whose value is their default (RFC 6243 section 3.2). */
function trimmed(tree: SchemaTree, pairs: ChildPairs): ChildPairs {
  return mapGroups(pairs, (s, group) =>
    (s.kind === 'leaf' || s.kind === 'leaf-list') && isDefault(defaultValues(tree, s), group)
      ? undefined
      : group,
  );
}

/** True when a leaf's value, or a leaf-list's values in order, are the defaults `d`. */
function isDefault(d: readonly string[], group: Group): boolean {
  if (d.length === 0 || d.length !== sizeOf(group)) return false;
  for (let k = 0; k < d.length; k++) if (instanceOf(group, k).value !== d[k]) return false;
  return true;
}

/** True when `schema` has instances in `pairs`. */
function holds(pairs: ChildPairs, schema: SchemaNode): boolean {
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === schema) return true;
  return false;
}

/** True when any data node below `schema` (a case or choice) has an instance in `pairs`. */
function caseSelected(pairs: ChildPairs, schema: SchemaNode): boolean {
  for (const c of schema.children) {
    if (c.kind === 'choice' || c.kind === 'case') {
      if (caseSelected(pairs, c)) return true;
    } else if (holds(pairs, c)) return true;
  }
  return false;
}

/**
 * The groups with defaults that `schemaChildren` of `n` lack in `pairs`, as new nodes: leafs and
 * leaf-lists with defaults, through the selected (or default) case of each choice and non-presence
 * containers, which "exist" with their defaults (RFC 7950 section 7.6.1).
 */
function missingDefaults(
  tree: SchemaTree,
  n: DataNode,
  pairs: ChildPairs,
  schemaChildren: readonly SchemaNode[],
  added: Slot[] = [],
): Slot[] {
  for (const cs of schemaChildren) {
    if (cs.kind === 'choice') {
      const present = (c: SchemaNode) => caseSelected(pairs, c) || caseSelected(added, c);
      const chosen = cs.children.find(present) ?? cs.children.find((c) => c.name === cs.default);
      if (chosen !== undefined)
        missingDefaults(tree, n, pairs, chosen.kind === 'case' ? chosen.children : [chosen], added);
    } else if (cs.kind === 'leaf' || cs.kind === 'leaf-list') {
      if (holds(pairs, cs) || holds(added, cs)) continue;
      const values = defaultValues(tree, cs);
      if (values.length === 0) continue;
      added.push(
        cs,
        values.map((v) => {
          const leaf = createNode(cs, n);
          leaf.value = v;
          return leaf;
        }),
      );
    } else if (
      cs.kind === 'container' &&
      cs.presence === undefined &&
      !holds(pairs, cs) &&
      !holds(added, cs)
    ) {
      const c = createNode(cs, n);
      const inner = missingDefaults(tree, c, [], cs.children);
      if (inner.length === 0) continue;
      CompactChildMap.adopt(c.children as CompactChildMap, inner);
      added.push(cs, [c]);
    }
  }
  return added;
}

/** `pairs` with each value equal to a default of its leaf (or leaf-list) annotated as one (RFC 6243 section 3.4). */
function tagged(tree: SchemaTree, pairs: ChildPairs): ChildPairs {
  return mapGroups(pairs, (s, group) => {
    if (s.kind !== 'leaf' && s.kind !== 'leaf-list') return group;
    const d = defaultValues(tree, s);
    if (d.length === 0) return group;
    let copies: DataNode[] | undefined;
    for (let k = 0; k < sizeOf(group); k++) {
      const leaf = instanceOf(group, k);
      if (!d.includes(leaf.value ?? '') || isTagged(leaf)) continue;
      copies ??= Array.from({ length: sizeOf(group) }, (_, j) => instanceOf(group, j));
      copies[k] = withAnnotations(leaf, [...(leaf.annotations ?? []), DEFAULT_TAG]);
    }
    return copies ?? group;
  });
}

const DEFAULT_TAG = { module: WITH_DEFAULTS_MODULE, name: 'default', value: 'true' } as const;

function isTagged(leaf: DataNode): boolean {
  return leaf.annotations?.some((a) => a.module === WITH_DEFAULTS_MODULE && a.name === 'default') === true;
}
