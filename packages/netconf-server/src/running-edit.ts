import { finishSteps, type Steps } from '@yangkit/yang-json-codec';
import type { TestOption } from './config-edit.js';
import type { Datastore } from './datastore.js';
import type { ErrorOption } from './edit-config.js';
import { RpcError } from './errors.js';
import type { UserAccess } from './nacm/rules.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

/** How an edit of running is applied and judged (RFC 6241 7.2), besides its edits. */
export interface RunningEditOptions {
  readonly errorOption: ErrorOption;
  readonly testOption: TestOption;
  /** The NACM access of the session's user, taken before the edit (RFC 8341 section 3.4.5). */
  readonly access: UserAccess | undefined;
}

/**
 * An edit of running (`edit` applies it to the datastore it is given, in steps), as one transaction
 * of running: NACM, validation, the journal, commit hooks and the config-change event of running.
 * When the server has a candidate that is unmodified at the edit's turn, the candidate, equal to
 * running then, is the scratch space: the edit is applied to it, checked by NACM and validated in
 * steps, and running takes its tree by the exchange a commit uses (see
 * `NetconfServer.adoptCandidateSteps`), so no reader of running ever sees the edit half made and a
 * big edit need not hold the event loop. Whoever runs it in slices holds the candidate meanwhile
 * (`NetconfServer.reserveCandidate`): whatever touches the candidate has the rest done at once, so
 * its use as scratch space is seen by nobody. Otherwise (a candidate holding someone's uncommitted
 * changes, replaced by copy-config, or none) there is no private tree to edit short of copying
 * running, and the edit is applied to running in one step.
 */
export function* editRunningSteps(
  server: NetconfServer,
  session: ServerSession,
  edit: (ds: Datastore) => Steps<void>,
  options: RunningEditOptions,
): Steps<void> {
  if (!server.features.candidate || server.candidateModified) {
    editRunningAtOnce(server, session, edit, options);
    return;
  }
  const scratch = server.candidate;
  const { errorOption, testOption, access } = options;
  // stop-on-error and continue-on-error keep what was applied before the error (RFC 6241 7.2).
  let editError: RpcError | undefined;
  try {
    try {
      yield* edit(scratch);
    } catch (error) {
      if (errorOption === 'rollback-on-error' || testOption === 'test-only' || !(error instanceof RpcError))
        throw error;
      editError = error;
    }
    if (server.nacm !== undefined) yield* server.nacm.checkWriteSteps(access, scratch.since());
    if (testOption === 'test-only') {
      yield* server.validateChangesSteps(scratch.tree, scratch.since());
      yield* scratch.undoToSteps(0);
      return;
    }
    yield* server.adoptCandidateSteps(session, {
      validate: testOption !== 'set',
      // RFC 6241 7.5: a lock of running taken by another session while the edit was made.
      atExchange: () => server.checkLock('running', session),
    });
  } catch (error) {
    // Running is unchanged: the candidate is made equal to it again.
    yield* scratch.undoToSteps(0);
    throw combined(editError, error);
  }
  if (editError) throw editError;
}

/** The edit of {@link editRunningSteps} applied to running itself, in one transaction. */
function editRunningAtOnce(
  server: NetconfServer,
  session: ServerSession,
  edit: (ds: Datastore) => Steps<void>,
  { errorOption, testOption, access }: RunningEditOptions,
): void {
  const ds = server.running;
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
    throw combined(editError, error);
  }
  if (editError) throw editError;
}

/**
 * The error of an edit whose partial result (stop-on-error, continue-on-error) was refused too:
 * nothing was applied; the edit's errors come first.
 */
function combined(editError: RpcError | undefined, error: unknown): unknown {
  if (editError === undefined || !(error instanceof RpcError)) return error;
  return new RpcError(editError.fields, [...editError.errors.slice(1), ...error.errors]);
}
