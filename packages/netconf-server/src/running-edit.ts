import type { Steps } from '@yangkit/yang-json-codec';
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
 * The edit is applied to a scratch tree equal to running (the candidate while it is unmodified, else
 * the server's private one), checked by NACM and validated in steps, and running takes its tree by
 * the exchange a commit uses (see `NetconfServer.transactSteps`), so no reader of running ever sees
 * the edit half made and a big edit need not hold the event loop. Whoever runs it in slices holds the
 * scratch tree meanwhile (`NetconfServer.reserveCandidate`): a read of the candidate waits for it,
 * and what gets the candidate or changes running synchronously has the rest done at once, so its use
 * as scratch space is seen by nobody.
 */
export function* editRunningSteps(
  server: NetconfServer,
  session: ServerSession,
  edit: (ds: Datastore) => Steps<void>,
  { errorOption, testOption, access }: RunningEditOptions,
): Steps<void> {
  const testOnly = testOption === 'test-only';
  // stop-on-error and continue-on-error keep what was applied before the error (RFC 6241 7.2).
  let editError: RpcError | undefined;
  const keep =
    errorOption === 'rollback-on-error' || testOnly
      ? undefined
      : (error: RpcError) => {
          editError = error;
        };
  const kept = (scratch: Datastore): Steps<void> => keepingError(() => edit(scratch), keep);
  try {
    yield* server.transactSteps(session, kept, {
      validate: testOption === 'set' ? 'none' : 'changes',
      access,
      testOnly,
      // RFC 6241 7.5: a lock of running taken by another session while the edit was made.
      atExchange: () => server.checkLock('running', session),
    });
  } catch (error) {
    throw combined(editError, error);
  }
  if (editError) throw editError;
}

/** The steps `edit` gives, an {@link RpcError} they throw given to `keep` (when set) rather than thrown. */
function* keepingError(edit: () => Steps<void>, keep: ((error: RpcError) => void) | undefined): Steps<void> {
  try {
    yield* edit();
  } catch (error) {
    if (keep === undefined || !(error instanceof RpcError)) throw error;
    keep(error);
  }
}

/**
 * The error of an edit whose partial result (stop-on-error, continue-on-error) was refused too:
 * nothing was applied; the edit's errors come first.
 */
function combined(editError: RpcError | undefined, error: unknown): unknown {
  if (editError === undefined || !(error instanceof RpcError)) return error;
  return new RpcError(editError.fields, [...editError.errors.slice(1), ...error.errors]);
}
