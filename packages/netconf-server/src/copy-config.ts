import { diffSteps, type InstanceTree, type Steps } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import { type DatastoreName, emptyConfig } from './datastore.js';
import { rpcError } from './errors.js';
import type { UserAccess } from './nacm/rules.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

/**
 * `<copy-config>` (RFC 6241 7.3) of `source` (a datastore, or the tree of an inline `<config>`) to
 * `target`, in steps: run it within `NetconfServer.reserveCandidate`, which holds the candidate and the
 * scratch tree for it, so the source and the target stay as they are until it ends. Every part in
 * proportion to the datastores (the comparison NACM judges, validation, the copy, the startup file) goes
 * a few dozen nodes at a time; a user who may write nothing where either tree has nodes is refused
 * before any of it.
 */
export function* copyConfigSteps(
  server: NetconfServer,
  session: ServerSession,
  target: DatastoreName,
  source: DatastoreName | Steps<InstanceTree>,
): Steps<void> {
  server.checkLock(target, session);
  const access = server.nacm?.of(session);
  const tree = typeof source === 'string' ? server.datastore(source).tree : yield* source;
  if (target === 'running' && !server.features.writableRunning)
    throw rpcError('operation-not-supported', 'running cannot be written directly', {
      errorType: 'protocol',
    });
  refuseWriteNowhere(server, access, target, tree);
  if (target === 'running') {
    // RFC 8341 section 3.4.5: the nodes that differ, not the whole copy, need write access.
    yield* server.replaceRunningSteps(session, tree, access);
    return;
  }
  if (target === 'startup') yield* server.validateAllSteps(tree);
  yield* replaceWholeSteps(server, target, tree, access);
}

/**
 * `<delete-config>` (RFC 6241 7.4) of startup in steps, as {@link copyConfigSteps} of an empty
 * configuration (without its validation): run it within `NetconfServer.reserveCandidate`.
 */
export function* deleteStartupSteps(server: NetconfServer, session: ServerSession): Steps<void> {
  server.checkLock('startup', session);
  const access = server.nacm?.of(session);
  const empty = emptyConfig(server.schema);
  refuseWriteNowhere(server, access, 'startup', empty);
  yield* replaceWholeSteps(server, 'startup', empty, access);
}

/**
 * RFC 8341 section 3.4.5 before `target` is compared with `tree`: refuses a user who may write nothing
 * at or below any top-level node of either (see `AccessControl.checkWriteWithin`).
 */
function refuseWriteNowhere(
  server: NetconfServer,
  access: UserAccess | undefined,
  target: DatastoreName,
  tree: InstanceTree,
): void {
  if (access === undefined) return;
  const tops = new Set<SchemaNode>(server.datastore(target).tree.children.keys());
  for (const top of tree.children.keys()) tops.add(top);
  server.nacm!.checkWriteWithin(access, tops, target);
}

/**
 * The candidate or startup made equal to `tree`: with `access`, the nodes that differ (RFC 8341 section
 * 3.4.5) are found and judged a few dozen at a time, then the datastore takes a copy of `tree` made the
 * same way (startup once its file is written).
 */
function* replaceWholeSteps(
  server: NetconfServer,
  target: 'candidate' | 'startup',
  tree: InstanceTree,
  access: UserAccess | undefined,
): Steps<void> {
  if (access !== undefined)
    yield* server.nacm!.checkWriteSteps(access, yield* diffSteps(server.datastore(target).tree, tree));
  yield* target === 'startup' ? server.replaceStartupSteps(tree) : server.replaceCandidateSteps(tree);
}
