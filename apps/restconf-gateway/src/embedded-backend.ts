import {
  type LocalSession,
  type NetconfServer,
  NetconfServerError,
  type NmdaDatastoreName,
  type RpcError,
  type Steps,
} from '@yangkit/netconf-server';
import {
  type Backend,
  BackendRpcError,
  DEFAULT_CONFIRM_TIMEOUT,
  EditError,
  type EditRequest,
} from '@yangkit/restconf-server';

/** Options of {@link createEmbeddedBackend}. */
export interface EmbeddedBackendOptions {
  /** The server in this process whose datastores the backend reads and edits. */
  readonly netconf: NetconfServer;
  /**
   * The session the requests of `user` work in (undefined: the backend's own requests, or requests
   * without authentication); asked once per user, so NACM (RFC 8341) judges each request by its user.
   */
  readonly sessionOf: (user: string | undefined) => LocalSession;
  /**
   * The backend of what the server's tree API does not cover: rpcs and actions (their handlers take
   * and give XML), event streams and subscriptions, and the capabilities (a NETCONF backend over
   * in-process sessions of the same server).
   */
  readonly operations: Backend;
}

/** Users whose sessions are kept; beyond, the oldest is forgotten (a new one is made on demand). */
const MAX_SESSIONS = 1024;

/** A failure of the server's tree API as the errors of its NETCONF reply; other failures as they are. */
function reported(error: unknown): unknown {
  if (!NetconfServerError.isInstance(error) || error.code !== 'RPC_ERROR') return error;
  return new BackendRpcError((error as RpcError).errors, { cause: error });
}

/** A failure of one step of an edit, naming the edit at `index` (undefined: the raw error). */
function failure(index: number | undefined, error: unknown): unknown {
  return index === undefined ? reported(error) : new EditError(index, reported(error));
}

/** Runs the steps of an edit; a failure names the edit at `index`. */
function* steps(index: number | undefined, run: Steps<void>): Steps<void> {
  try {
    yield* run;
  } catch (error) {
    throw failure(index, error);
  }
}

/**
 * The {@link Backend} of a NETCONF server in the same process (DESIGN.md "Backends", embedded):
 * reads and edits go to the datastores directly through the server's tree API
 * (`NetconfServer.localSession`), with no XML written or read: a read copies the selected subtree
 * (a shared read does not: the response is written from the datastore's own nodes, and detaches
 * before the datastore changes). An edit runs in slices with the candidate (or the server's scratch
 * tree) held for it: a `{+restconf}/data` edit through the candidate and a commit (confirmed when
 * asked), or on a server without a candidate as `<edit-config>` of running; an NMDA edit as
 * `<edit-data>` of its datastore. An edit of running is made on a scratch tree that running then
 * takes whole (see `NetconfServer.transactSteps`). The server's own code does the
 * checks of its NETCONF operations: locks, NACM, validation, journal, config-change events.
 * Changes of running by other clients (NETCONF sessions, a confirmed commit's rollback) are
 * reported through `onChange` from the server's commit hook.
 */
export function createEmbeddedBackend(options: EmbeddedBackendOptions): Backend {
  const { netconf, operations } = options;
  const listeners: ((datastore: string) => void)[] = [];
  const changed = (datastore: string): void => {
    for (const l of listeners) l(datastore);
  };
  const sessions = new Map<string | undefined, LocalSession>();
  const own = new Set<number>();
  let closed = false;

  function sessionOf(user: string | undefined): LocalSession {
    let session = sessions.get(user);
    if (session === undefined) {
      if (sessions.size >= MAX_SESSIONS) {
        const [oldest, s] = sessions.entries().next().value!;
        sessions.delete(oldest);
        own.delete(s.id);
      }
      session = options.sessionOf(user);
      sessions.set(user, session);
      own.add(session.id);
    }
    return session;
  }

  netconf.onCommit((_running, _changes, context) => {
    // This backend's own edits report their change themselves, while they hold their turn.
    if (!closed && (context.session === undefined || !own.has(context.session.id))) changed('running');
  });

  /**
   * A `{+restconf}/data` edit through the candidate: each edit alone (so a failure names it), then
   * the commit, in slices with the candidate held for this request (a big edit does not hold the
   * event loop; other requests' edits wait for their turn).
   */
  function* editCandidate(session: LocalSession, request: EditRequest): Steps<void> {
    // Here, at its turn: the edits before this one are committed.
    request.check?.();
    try {
      // default-operation replace removes what the edits do not name: one step with all of them.
      if (request.defaultOperation === 'replace') {
        yield* steps(
          request.edits.length === 0 ? undefined : 0,
          session.editConfigSteps('candidate', request.edits, 'replace'),
        );
      } else {
        for (const [i, edit] of request.edits.entries()) {
          yield* steps(i, session.editConfigSteps('candidate', [edit]));
        }
      }
      const { confirmed, persistId } = request;
      yield* steps(
        undefined,
        session.commitSteps({
          ...(confirmed === undefined
            ? {}
            : {
                confirmed: true,
                timeout: confirmed.confirmTimeout ?? DEFAULT_CONFIRM_TIMEOUT,
                ...(confirmed.persist === undefined ? {} : { persist: confirmed.persist }),
              }),
          ...(persistId === undefined ? {} : { persistId }),
        }),
      );
      // In the same step as the commit: the next request's check sees its entity-tag.
      changed('running');
    } catch (error) {
      try {
        yield* session.discardChangesSteps();
      } catch {
        // Another session locks the candidate: what this edit left there is that session's to discard.
      }
      throw error;
    }
  }

  /**
   * A `{+restconf}/data` edit on a server without a candidate: one `<edit-config>` of running with
   * every edit (the failure names the first), made in slices on the server's scratch tree (see
   * `LocalSession.editConfigSteps`).
   */
  function* editRunning(session: LocalSession, request: EditRequest): Steps<void> {
    // Here, at its turn: the edits before this one are made.
    request.check?.();
    const { edits } = request;
    yield* steps(
      edits.length === 0 ? undefined : 0,
      session.editConfigSteps('running', edits, request.defaultOperation),
    );
    // In the same step as the edit's end: the next request's check sees its entity-tag.
    changed('running');
  }

  /**
   * An NMDA edit of one datastore (RFC 8527 `{+restconf}/ds/...`), all or none, in slices with the
   * candidate held for this request: of the candidate, or of running made on the candidate while it
   * is unmodified (see `LocalSession.editDataSteps`).
   */
  function* editDatastore(
    session: LocalSession,
    request: EditRequest,
    datastore: NmdaDatastoreName,
  ): Steps<void> {
    // Here, at its turn: the edits before this one are made.
    request.check?.();
    // One edit-data with every edit: the failure names the first, as one edit-config would.
    const { edits } = request;
    yield* steps(edits.length === 0 ? undefined : 0, session.editDataSteps(datastore, edits));
    // In the same step as the edit's end: the next request's check sees its entity-tag.
    changed(datastore);
  }

  return {
    schema: operations.schema,
    start: () => operations.start(),
    get capabilities() {
      return operations.capabilities;
    },
    async read(request) {
      try {
        return await sessionOf(request.user).read(request);
      } catch (error) {
        throw reported(error);
      }
    },
    async readShared(request) {
      try {
        return await sessionOf(request.user).readShared(request);
      } catch (error) {
        throw reported(error);
      }
    },
    async exists(request) {
      try {
        return await sessionOf(request.user).exists(request.target, request.datastore);
      } catch (error) {
        throw reported(error);
      }
    },
    deniesWrite: (request) => sessionOf(request.user).writeDenied(request.target),
    async edit(request) {
      const session = sessionOf(request.user);
      const { datastore } = request;
      if (datastore !== undefined) {
        await session.reserveCandidate(() => editDatastore(session, request, datastore));
        return;
      }
      await session.reserveCandidate(() =>
        operations.capabilities.candidate ? editCandidate(session, request) : editRunning(session, request),
      );
    },
    invoke: (request) => operations.invoke(request),
    subscribe: (request) => operations.subscribe(request),
    onChange(listener) {
      listeners.push(listener);
    },
    stats: () => operations.stats(),
    async close() {
      closed = true;
      await operations.close();
    },
  };
}
