import { ChangeLog, emptyTree, type InstanceTree, overlayTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';

/** One primitive change of a datastore (the codec's `TreeChange`), for hooks, the journal and events. */
export type { TreeChange as Change } from '@yangkit/yang-json-codec';
/**
 * A datastore: a codec instance tree (`@yangkit/yang-json-codec`) with the log of its changes. Every
 * mutation goes through the log's methods and the codec's `applyEdit`, so rollback (undo to a mark),
 * commit (replay on running), a confirmed commit's undo (the inverse of its changes) and the journal cost
 * as much as the change, never a copy of the datastore.
 */
export { ChangeLog as Datastore } from '@yangkit/yang-json-codec';

/** The configuration datastore names of RFC 6241 (and NMDA `intended`, read-only here). */
export type DatastoreName = 'running' | 'candidate' | 'startup';

/** An empty configuration tree of `schema`. */
export function emptyConfig(schema: SchemaTree): InstanceTree {
  return emptyTree(schema, 'config');
}

/** A datastore holding `tree` (default: empty). */
export function createDatastore(schema: SchemaTree, tree: InstanceTree = emptyConfig(schema)): ChangeLog {
  return new ChangeLog(tree);
}

/** `running` with the operational state of `NetconfServer.operationalState` laid over it. */
export function withState(running: InstanceTree, state: readonly InstanceTree[]): InstanceTree {
  let view = running;
  for (const tree of state) view = overlayTree(view, tree);
  return view;
}
