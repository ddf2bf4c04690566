import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import type { Steps, TreeEdit } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { Datastore } from './datastore.js';
import { applyEditsSteps, type EditOperation, type ErrorOption, replaceAllEdits } from './edit-config.js';
import { rpcError } from './errors.js';
import type { UserAccess } from './nacm/rules.js';
import { editRunningSteps } from './running-edit.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

/** RFC 6241 7.2 test-option values. */
export type TestOption = 'test-then-set' | 'set' | 'test-only';

/** The parameters of an edit of a conventional datastore (RFC 6241 7.2), besides the edits. */
export interface ConfigEditOptions {
  readonly defaultOperation: EditOperation;
  readonly errorOption: ErrorOption;
  readonly testOption: TestOption;
  /**
   * With default-operation `replace`: the top-level nodes of the new content; the datastore's other
   * top-level nodes are removed.
   */
  readonly tops?: ReadonlySet<SchemaNode>;
}

/**
 * The edit of `<edit-config>` (RFC 6241 7.2) once its content is the codec's edits, in steps: the lock
 * and NACM checks (RFC 8341 section 3.4.5), then on running one transaction (validation, journal,
 * events; see `editRunningSteps`), on the candidate the edits alone; a denied change undoes the whole
 * edit. The edit, its NACM check and (on running) its validation go a few nodes at a time; whoever
 * runs it in slices keeps others from the candidate until it ends (see
 * `NetconfServer.reserveCandidate`), and the synchronous calls run it at once. Both the NETCONF
 * operation and the in-process tree API run it.
 */
export function* editConfigTreeSteps(
  server: NetconfServer,
  session: ServerSession,
  target: 'running' | 'candidate' | 'startup',
  edits: readonly TreeEdit[],
  options: ConfigEditOptions,
): Steps<void> {
  if (target === 'startup' || (target === 'running' && !server.features.writableRunning)) {
    throw rpcError('operation-not-supported', `the ${target} datastore cannot be edited directly`, {
      errorType: 'protocol',
      errorPath: '/nc:rpc/nc:edit-config/nc:target',
      errorPathNamespaces: new Map([['nc', NETCONF_BASE_NS]]),
    });
  }
  yield* editDatastoreSteps(server, session, target, edits, options);
}

/**
 * An edit of running or the candidate with edit-config's parameters (RFC 6241 7.2), as
 * `<edit-config>` and `<edit-data>` (RFC 8526 3.1.2) make it: the lock and NACM checks, then the edit
 * of running ({@link editRunningSteps}) or of the candidate, in steps.
 */
export function* editDatastoreSteps(
  server: NetconfServer,
  session: ServerSession,
  target: 'running' | 'candidate',
  edits: readonly TreeEdit[],
  options: ConfigEditOptions,
): Steps<void> {
  const ds = server.datastore(target);
  server.checkLock(target, session);
  const access = server.nacm?.of(session);
  const { errorOption, testOption } = options;
  server.nacm?.checkEditTargets(access, edits);
  // RFC 6241 7.2 default-operation replace: the config replaces the whole target.
  const edit = (d: Datastore): Steps<void> => {
    const all =
      options.defaultOperation === 'replace'
        ? [...replaceAllEdits(d, options.tops ?? new Set()), ...edits]
        : edits;
    return applyEditsSteps(server.schema, d, all, errorOption);
  };
  if (target === 'running') {
    yield* editRunningSteps(server, session, edit, { errorOption, testOption, access });
    return;
  }
  const mark = ds.mark();
  try {
    yield* edit(ds);
  } catch (error) {
    if (errorOption === 'rollback-on-error') yield* ds.undoToSteps(mark);
    else yield* permittedSteps(server, access, ds, mark);
    throw error;
  }
  yield* permittedSteps(server, access, ds, mark);
  if (testOption === 'test-only') {
    try {
      yield* server.validateChangesSteps(ds.tree, ds.since(mark));
    } catch (error) {
      yield* ds.undoToSteps(mark);
      throw error;
    }
    yield* ds.undoToSteps(mark);
  }
}

/**
 * RFC 8341 section 3.4.5: the changes of `ds` since `mark` checked against the user's write access; a
 * denied change undoes the whole edit, whatever the error-option.
 */
function* permittedSteps(
  server: NetconfServer,
  access: UserAccess | undefined,
  ds: Datastore,
  mark: number,
): Steps<void> {
  const nacm = server.nacm;
  if (nacm === undefined) return;
  try {
    yield* nacm.checkWriteSteps(access, ds.since(mark));
  } catch (error) {
    yield* ds.undoToSteps(mark);
    throw error;
  }
}
