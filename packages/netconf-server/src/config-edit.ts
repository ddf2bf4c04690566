import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { finishSteps, type Steps, type TreeEdit } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { Datastore } from './datastore.js';
import { applyEditsSteps, type EditOperation, type ErrorOption, replaceAllEdits } from './edit-config.js';
import { RpcError, rpcError } from './errors.js';
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
 * The edit of `<edit-config>` (RFC 6241 7.2) once its content is the codec's edits: the lock and NACM
 * checks (RFC 8341 section 3.4.5), then on running one transaction (validation, journal, events), on the
 * candidate the edits alone; a denied change undoes the whole edit. Both the NETCONF operation and the
 * in-process tree API run it.
 */
export function editConfigTree(
  server: NetconfServer,
  session: ServerSession,
  target: 'running' | 'candidate' | 'startup',
  edits: readonly TreeEdit[],
  options: ConfigEditOptions,
): void {
  finishSteps(editConfigTreeSteps(server, session, target, edits, options));
}

/**
 * {@link editConfigTree} in steps: an edit of the candidate and its NACM check go a few nodes at a
 * time; an edit of running is one step (its transaction is one turn, which no reader sees half
 * done). Whoever runs it in slices keeps others from the candidate until it ends (see
 * `NetconfServer.reserveCandidate`).
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
    if (testOption === 'test-only') {
      const mark = ds.mark();
      try {
        finishSteps(edit(ds));
        server.nacm?.checkWrite(access, ds.since(mark));
        server.validateChanges(ds.tree, ds.since(mark));
      } finally {
        ds.undoTo(mark);
      }
      return;
    }
    // stop-on-error and continue-on-error keep what was applied before the error (RFC 6241 7.2).
    let editError: RpcError | undefined;
    try {
      server.transact(
        session,
        (d) => {
          try {
            finishSteps(edit(d));
          } catch (error) {
            if (errorOption === 'rollback-on-error' || !(error instanceof RpcError)) throw error;
            editError = error;
          }
        },
        { validate: testOption === 'set' ? 'none' : 'changes', access },
      );
    } catch (error) {
      // The partial result did not validate either: nothing was applied; report the edit's errors first.
      if (editError && error instanceof RpcError)
        throw new RpcError(editError.fields, [...editError.errors.slice(1), ...error.errors]);
      throw error;
    }
    if (editError) throw editError;
    return;
  }
  const mark = ds.mark();
  // RFC 8341 section 3.4.5: a denied change undoes the whole edit, whatever the error-option.
  const nacm = server.nacm;
  function* permitted(): Steps<void> {
    if (nacm === undefined) return;
    try {
      yield* nacm.checkWriteSteps(access, ds.since(mark));
    } catch (error) {
      yield* ds.undoToSteps(mark);
      throw error;
    }
  }
  try {
    yield* edit(ds);
  } catch (error) {
    if (errorOption === 'rollback-on-error') yield* ds.undoToSteps(mark);
    else yield* permitted();
    throw error;
  }
  yield* permitted();
  if (testOption === 'test-only') {
    try {
      server.validateChanges(ds.tree, ds.since(mark));
    } finally {
      ds.undoTo(mark);
    }
  }
}
