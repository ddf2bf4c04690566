import type { SchemaNode } from '@yangkit/yang-schema';
import { type ChildPairs, groupAt, instanceOf, MappedPairs, mapGroups, sizeOf } from './child-map';
import type { DataNode, InstanceTree } from './instance';
import type { Steps } from './steps';
import { applyView, type Place } from './view';

/**
 * Applies the RESTCONF `content` query parameter (RFC 8040 section 4.8.1) or the NMDA `config-filter`
 * (RFC 8526 section 3.1.1) to a tree, in place, and returns it: `config` keeps configuration nodes only;
 * `nonconfig` keeps state nodes, with the configuration ancestors (and list keys) that lead to them.
 * An encoder applies the same rule while writing, without changing the tree, with its `view` option.
 */
export function applyContent(tree: InstanceTree, content: 'config' | 'nonconfig' | 'all'): InstanceTree {
  return content === 'all' ? tree : applyView(tree, { content });
}

/**
 * The child groups `content` keeps of one holder's (`pairs`, held at `place`): with `config`,
 * configuration nodes; else state nodes, list keys, and the configuration instances that
 * `stateBelow` says lead to state. The holder's own pairs when all are kept. In steps: `stateBelow`
 * looks ahead below each configuration instance, a big list's entries each, and steps as it goes;
 * a group whose schema holds no state below it is left out without a look.
 */
export function* contentGroups(
  pairs: ChildPairs,
  config: boolean,
  place: Place,
  stateBelow: (node: DataNode, place: Place) => Steps<boolean>,
): Steps<ChildPairs> {
  if (config) return mapGroups(pairs, (schema, group) => (schema.config ? group : undefined));
  const mapped = new MappedPairs(pairs);
  for (let i = 0; i < pairs.length; i += 2) {
    const schema = pairs[i] as SchemaNode;
    const group = groupAt(pairs, i + 1);
    if (!schema.config || schema.isKey) {
      mapped.put(i, group);
      continue;
    }
    if (holdsNoState(schema)) {
      mapped.put(i, undefined);
      continue;
    }
    // A configuration container or list entry stays when state lies below it.
    const below = place.child(schema);
    const entries: DataNode[] = [];
    for (let k = 0; k < sizeOf(group); k++) {
      const n = instanceOf(group, k);
      if (yield* stateBelow(n, below)) entries.push(n);
    }
    mapped.put(i, entries.length === sizeOf(group) ? group : entries);
  }
  return mapped.pairs();
}

const configOnly = new WeakMap<SchemaNode, boolean>();

/**
 * True when no state data can sit at or below `node` (RFC 7950 section 7.21.1 `config true` all
 * the way down), so the configuration alone answers a read of it.
 */
export function holdsNoState(node: SchemaNode): boolean {
  let known = configOnly.get(node);
  if (known === undefined) {
    known = node.config && node.dataChildren().every(holdsNoState);
    configOnly.set(node, known);
  }
  return known;
}
