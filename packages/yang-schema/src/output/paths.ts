import type { SchemaTree } from '../schema-tree';
import type { SchemaNode } from '../schema-types';

/** The `flags` column of `yang-schema paths` for one node, `-` when none applies. */
export function pathFlags(n: SchemaNode): string {
  const flags: string[] = [];
  if (n.isKey) flags.push('key');
  else if (
    n.mandatory &&
    (n.kind === 'leaf' || n.kind === 'choice' || n.kind === 'anydata' || n.kind === 'anyxml')
  ) {
    flags.push('mandatory');
  }
  if (n.kind === 'container' && n.presence !== undefined) flags.push('presence');
  if (n.kind === 'list') flags.push(n.keys.length > 0 ? `keys=${n.keys.join(' ')}` : 'keyless');
  if (n.kind === 'list' || n.kind === 'leaf-list') {
    if (n.minElements > 0) flags.push(`min-elements=${n.minElements}`);
    if (Number.isFinite(n.maxElements)) flags.push(`max-elements=${n.maxElements}`);
    if (n.orderedBy === 'user') flags.push('ordered-by-user');
  }
  return flags.length > 0 ? flags.join(',') : '-';
}

/**
 * One `path kind type config flags` line (tab-separated) for a schema node. `config` is `-` inside
 * operations and in a `template` (rc:yang-data, sx:structure: neither configuration nor state).
 */
export function pathLine(n: SchemaNode, template = false): string {
  const type = n.type ? n.type.base : '-';
  const config = n.isOperation || template ? '-' : n.config ? 'rw' : 'ro';
  return [n.dataPath, n.kind, type, config, pathFlags(n)].join('\t');
}

/** The nodes of a subtree depth-first in schema order. */
function* subtree(nodes: readonly SchemaNode[]): Generator<SchemaNode> {
  for (const n of nodes) {
    yield n;
    yield* subtree(n.children);
  }
}

/**
 * Lists every compiled schema node in the namespace of the given modules (so including the nodes they
 * augment into other modules), one line each, in schema order; then each `rc:yang-data` (RFC 8040
 * section 8) and `sx:structure` (RFC 8791) template of those modules, a schema tree of its own, under
 * a `yang-data <module>:<name>:` or `structure <module>:<name>:` line.
 */
export function printPaths(tree: SchemaTree, modules: readonly string[]): string {
  const wanted = new Set(modules);
  const lines: string[] = [];
  for (const n of tree) if (wanted.has(n.module)) lines.push(pathLine(n));
  for (const s of tree.yangData.values()) {
    if (!wanted.has(s.module)) continue;
    lines.push(`${s.extension} ${s.module}:${s.name}:`);
    for (const n of subtree(s.children)) lines.push(pathLine(n, true));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
