import {
  CompactChildMap,
  cloneNode,
  type DataNode,
  type InstanceTree,
  instanceIdSteps,
  leafValue,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { readableAlong } from './read.js';
import type { UserAccess } from './rules.js';

const NOTIFICATIONS_MODULE = 'ietf-netconf-notifications';

/**
 * An event as a user may see it (RFC 8341 section 3.4.6, with section 3.4.5's read rule applied to
 * its content): a netconf-config-change (RFC 6470) keeps only the `edit` entries whose `target`
 * the user may read, and is dropped (undefined) when it named targets and none is left; any other
 * event is returned as it is. A target that names no schema node counts as unreadable.
 */
export function readableEvent(
  access: UserAccess,
  schema: SchemaTree,
  tree: InstanceTree,
): InstanceTree | undefined {
  for (const [notification, [change]] of tree.children) {
    if (notification.module !== NOTIFICATIONS_MODULE || notification.name !== 'netconf-config-change')
      continue;
    const children = change?.children;
    if (children === undefined) continue;
    for (const [editSchema, edits] of children) {
      if (editSchema.name !== 'edit') continue;
      const kept = edits.filter((edit) => {
        const target = leafValue(edit, 'target');
        const steps = target === undefined ? undefined : instanceIdSteps(schema, target);
        return steps !== undefined && readableAlong(access, steps);
      });
      if (kept.length === edits.length) return tree;
      if (kept.length === 0) return undefined;
      const copy: DataNode = { ...change!, children: undefined };
      copy.children = new CompactChildMap(
        [...children].map(([s, nodes]) => [
          s,
          (s === editSchema ? kept : nodes).map((n) => cloneNode(n, copy)),
        ]),
      );
      return { ...tree, children: new CompactChildMap(tree.children).set(notification, [copy]) };
    }
  }
  return tree;
}
