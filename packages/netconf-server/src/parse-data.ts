import { readXml, type XmlElement } from '@yangkit/xml';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { allChildren, cloneNode, type DataNode, isMulti } from './data-tree.js';
import { Datastore } from './datastore.js';
import { applyEdit } from './edit-config.js';

/**
 * Builds a tree from NETCONF XML content (top-level elements, state data and notifications allowed),
 * checking names and values against the schema. Used for state providers, events and the startup file.
 */
export function parseData(
  tree: SchemaTree,
  content: string | readonly XmlElement[],
  options: { allowState?: boolean } = {},
): DataNode {
  const els = typeof content === 'string' ? readXml(content) : content;
  const ds = new Datastore();
  applyEdit(tree, ds, els, {
    defaultOperation: 'merge',
    errorOption: 'stop-on-error',
    allowState: options.allowState ?? true,
  });
  ds.takeChanges();
  return ds.root;
}

/**
 * A read view of `base` with `extra` merged in, sharing every untouched subtree with `base`: only the
 * nodes on the way to a merged node are copied (shallowly), so a `<get>` does not copy the datastore.
 */
export function overlay(base: DataNode, extra: DataNode): DataNode {
  const copy: DataNode = { ...base, kids: new Map(base.kids) };
  for (const child of allChildren(extra)) {
    const schema = child.schema as SchemaNode;
    const slot = copy.kids!.get(schema);
    if (isMulti(schema)) {
      const map = new Map(slot instanceof Map ? slot : undefined);
      const existing = map.get(child.key);
      map.set(child.key, existing?.kids ? overlay(existing, child) : child);
      copy.kids!.set(schema, map);
    } else if (slot !== undefined && !(slot instanceof Map) && slot.kids && child.kids) {
      copy.kids!.set(schema, overlay(slot, child));
    } else copy.kids!.set(schema, child);
  }
  return copy;
}

/** A deep copy of a whole datastore tree. */
export function cloneTree(root: DataNode): DataNode {
  return cloneNode(root);
}
