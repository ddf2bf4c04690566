import {
  applyContent,
  applyView,
  type ChildHolder,
  findChildren,
  finishSteps,
  holdsNoState,
  type InstanceTree,
  type PathStep,
  type Steps,
  selectPath,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import { editConfigTreeSteps } from './config-edit.js';
import { type Datastore, type DatastoreName, withState } from './datastore.js';
import { rpcError } from './errors.js';
import { editDataSteps, operationalOrigin } from './nmda.js';
import { DEFAULT_CONFIRM_TIMEOUT, type NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import { holdRead, type SharedRead } from './shared-read.js';

export type { SharedRead } from './shared-read.js';

/** A datastore of RFC 8342 section 5 by its `ietf-datastores` identity name. */
export type NmdaDatastoreName = DatastoreName | 'intended' | 'operational';

/** What {@link LocalSession.read} reads. */
export interface LocalReadOptions {
  /**
   * One NMDA datastore (RFC 8526 `<get-data>`); absent: running with the state of the providers (the
   * `<get>` view), or running alone when only configuration can answer (`<get-config>`).
   */
  readonly datastore?: NmdaDatastoreName;
  /** The data node to read, from the root; absent or empty: everything. */
  readonly target?: readonly PathStep[];
  /** Configuration only, state only (list keys stay), or both (the default); RFC 8526 `config-filter`. */
  readonly content?: 'config' | 'nonconfig' | 'all';
  /** RFC 8342 section 5.3.4 `or:origin` annotations (the operational datastore only). */
  readonly withOrigin?: boolean;
}

/** The parameters of a commit (RFC 6241 sections 8.3.4.1 and 8.4.5.1). */
export interface LocalCommitOptions {
  /** A confirmed commit, rolled back unless confirmed within `timeout` seconds (default 600). */
  readonly confirmed?: boolean;
  readonly timeout?: number;
  /** The token that confirms or cancels the commit from another session. */
  readonly persist?: string;
  /** Confirms the pending confirmed commit of this token. */
  readonly persistId?: string;
}

/**
 * A session of one user for a caller in the same process (a RESTCONF server embedding this one):
 * the NETCONF operations on the datastores with the codec's trees and edits in and out, so no XML is
 * written or read. Each runs the same code as its NETCONF operation: locks, NACM (RFC 8341) for the
 * session's user, validation, transactions with the journal, commit hooks and config-change events.
 * Every call finishes its change synchronously, so a sequence of calls made without awaiting in
 * between (edit the candidate, commit, discard on failure) is one turn no other session interleaves
 * with. Failures are {@link RpcError}s, as a NETCONF reply would report them. Get one from
 * `NetconfServer.localSession`.
 */
export class LocalSession {
  readonly #server: NetconfServer;
  /** The session the server's checks see: its id and user, never connected to a transport. */
  readonly #session: ServerSession;

  /** @internal */
  constructor(server: NetconfServer, session: ServerSession) {
    this.#server = server;
    this.#session = session;
  }

  /** The session-id (as in config-change events and hook contexts). */
  get id(): number {
    return this.#session.id;
  }

  /**
   * The data at `target`: a new tree, sharing no node with the datastore, that the caller may change;
   * the target's instances inside their ancestors (list entries with their keys), none when it does
   * not exist or the user may not read it. Default values as stored (RFC 6243 `explicit`).
   */
  async read(options: LocalReadOptions = {}): Promise<InstanceTree> {
    return (await this.#read(options, false)).tree;
  }

  /**
   * The data at `target`, as {@link LocalSession.read}, without copying it: the target's instances are
   * the datastore's own (inside copies of their ancestors), so reading a large subtree costs the path,
   * not the subtree. What NACM hides is left out as it is written: the read's `filter`, for the view's
   * `filter` (RFC 8341 section 3.4.5), so nothing is copied or walked ahead. `content` chooses what is read
   * (running alone for `config`) but is not applied to the tree: the caller writes it through the
   * codec's view with the same `content` (the encoders' `view` option); so is `withOrigin`, whose rule
   * comes with the read (its `origin`, the view's `origin`). The datastore holds the
   * reader until `release`: before any change in place it calls the reader's detach (see
   * {@link SharedRead.onDetach}), so the answer stays one snapshot.
   */
  async readShared(options: LocalReadOptions = {}): Promise<SharedRead> {
    return this.#read(options, true);
  }

  async #read(options: LocalReadOptions, share: boolean): Promise<SharedRead> {
    const target = options.target ?? [];
    const content = options.content ?? 'all';
    if (options.withOrigin === true && options.datastore !== 'operational') {
      throw rpcError('invalid-value', 'with-origin applies to the operational datastore only', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'with-origin' },
      });
    }
    const last = target[target.length - 1];
    // Running alone answers when no state is wanted or none can be there (`<get-config>`).
    const configOnly =
      options.datastore === undefined &&
      (content === 'config' || (last !== undefined && holdsNoState(last.schema)));
    const datastore = configOnly ? 'running' : (options.datastore ?? 'operational');
    const state = await this.#stateFor(datastore, target);
    // One synchronous run to the hold: the tree read is the held datastore's own (a commit may give
    // running another tree, see NetconfServer.commitCandidate).
    return this.#atTurn(datastore, state, (log, tree) => {
      const selection = selectPath(tree, target, share);
      const nacm = this.#server.nacm;
      if (!share) {
        // RFC 8341 section 3.4.5: unreadable nodes are left out, silently.
        const view = nacm?.readable(this.#session, selection) ?? selection;
        if (content !== 'all') applyContent(view, content);
        if (options.withOrigin === true) applyView(view, { origin: operationalOrigin });
        return { tree: view, onDetach: () => {}, release: () => {} };
      }
      // Unreadable nodes are left out as the tree is written (the view's filter), not copied out first.
      const filter = nacm?.readFilter(this.#session);
      return holdRead(log, selection, {
        ...(options.withOrigin === true ? { origin: operationalOrigin } : {}),
        ...(filter === undefined ? {} : { filter }),
      });
    });
  }

  /** Whether the configuration node at `target` exists in the datastore (default running) and the user may read it. */
  async exists(target: readonly PathStep[], datastore: NmdaDatastoreName = 'running'): Promise<boolean> {
    if (target.length === 0 || !target.every((s) => s.schema.config)) return false;
    const state = await this.#stateFor(datastore, target);
    const found = await this.#atTurn(datastore, state, (_log, tree) => {
      let holders: readonly ChildHolder[] = [tree];
      for (const step of target) {
        holders = holders.flatMap((h) => findChildren(h, step));
        if (holders.length === 0) return false;
      }
      return true;
    });
    return found && (this.#server.nacm?.readablePath(this.#session, target) ?? true);
  }

  /**
   * RFC 8341 section 3.4.5 ahead of an edit at `target` (empty: the whole datastore): true when the
   * user may write nothing at or below it, so that the edit can be refused before its content is
   * read (counted as a denied write). Always false without NACM and for a recovery session.
   */
  writeDenied(target: readonly PathStep[]): boolean {
    const nacm = this.#server.nacm;
    if (nacm === undefined || this.#server.isRecovery(this.#session)) return false;
    return nacm.writeDeniedWithin(this.#session.info.username, target);
  }

  /**
   * `<edit-config>` of running or the candidate with the codec's edits (RFC 6241 section 7.2), all or
   * none (`rollback-on-error`). With `replace`, the datastore's top-level nodes the edits do not name
   * are removed. The datastore takes the edits' nodes as its own rather than copying them: do not use
   * them afterwards.
   */
  editConfig(
    target: 'running' | 'candidate',
    edits: readonly TreeEdit[],
    defaultOperation: 'merge' | 'replace' = 'merge',
  ): void {
    finishSteps(this.editConfigSteps(target, edits, defaultOperation));
  }

  /**
   * {@link LocalSession.editConfig} in steps: the edit goes a few nodes at a time (of running, on a
   * scratch tree that running then takes; see `NetconfServer.transactSteps`). Run it within
   * {@link LocalSession.reserveCandidate}, which keeps others from the candidate and the scratch tree
   * meanwhile.
   */
  editConfigSteps(
    target: 'running' | 'candidate',
    edits: readonly TreeEdit[],
    defaultOperation: 'merge' | 'replace' = 'merge',
  ): Steps<void> {
    return editConfigTreeSteps(this.#server, this.#session, target, edits, {
      defaultOperation,
      errorOption: 'rollback-on-error',
      testOption: 'test-then-set',
      tops: new Set(edits.map((e) => e.target[0]!.schema)),
    });
  }

  /**
   * Runs `work`, steps of this session's calls (say {@link LocalSession.editConfigSteps} of the
   * candidate, then {@link LocalSession.commitSteps}), in slices of a few milliseconds with the candidate
   * held for it, so that a big edit does not hold the event loop (see `NetconfServer.reserveCandidate`):
   * what others do meanwhile sees the candidate and running either before `work` or after it.
   */
  reserveCandidate(work: () => Steps<void>): Promise<void> {
    return this.#server.reserveCandidate(work);
  }

  /**
   * `<edit-data>` of an NMDA datastore with the codec's edits (RFC 8526 section 3.2.1), all or none;
   * the edits' nodes are taken as {@link LocalSession.editConfig} takes them.
   */
  editData(datastore: NmdaDatastoreName, edits: readonly TreeEdit[]): void {
    finishSteps(this.editDataSteps(datastore, edits));
  }

  /**
   * {@link LocalSession.editData} in steps: the edit, its NACM check and, on running, its validation
   * go a few nodes at a time (an edit of running is made on a scratch tree, the candidate while that
   * is unmodified, and running takes the result in one step). Run it within
   * {@link LocalSession.reserveCandidate}.
   */
  editDataSteps(datastore: NmdaDatastoreName, edits: readonly TreeEdit[]): Steps<void> {
    return editDataSteps(this.#server, this.#session, datastore, edits);
  }

  /** `<commit>` of the candidate (RFC 6241 section 8.3.4.1), confirmed when asked (section 8.4). */
  commit(options: LocalCommitOptions = {}): void {
    finishSteps(this.commitSteps(options));
  }

  /**
   * {@link LocalSession.commit} in steps: the candidate's changes are validated a few at a time, and the
   * commit itself is one step. Run it within {@link LocalSession.reserveCandidate}.
   */
  commitSteps(options: LocalCommitOptions = {}): Steps<void> {
    return this.#server.confirmedCommitSteps(this.#session, {
      confirmed: options.confirmed === true,
      timeout: options.timeout ?? DEFAULT_CONFIRM_TIMEOUT,
      ...(options.persist === undefined ? {} : { persist: options.persist }),
      ...(options.persistId === undefined ? {} : { persistId: options.persistId }),
    });
  }

  /** `<discard-changes>` (RFC 6241 section 8.3.4.2): the candidate becomes running again. */
  discardChanges(): void {
    this.#server.discardChangesOf(this.#session);
  }

  /** {@link LocalSession.discardChanges} in steps. Run it within {@link LocalSession.reserveCandidate}. */
  discardChangesSteps(): Steps<void> {
    return this.#server.discardChangesOfSteps(this.#session);
  }

  /** Operational: the state of the providers `target` can need; other datastores have none. */
  async #stateFor(
    datastore: NmdaDatastoreName,
    target: readonly PathStep[],
  ): Promise<InstanceTree[] | undefined> {
    if (datastore !== 'operational') return undefined;
    const top = target[0]?.schema;
    const wanted = top === undefined ? undefined : `${top.module}:${top.name}`;
    return this.#server.operationalState(
      this.#session,
      wanted === undefined ? undefined : (q) => q === wanted,
    );
  }

  /**
   * Runs `use` at the turn of a read of `datastore` (see `NetconfServer.readAtTurn`) with the datastore
   * whose nodes the read shares (running for intended and operational) and the tree read: its own,
   * with `state` laid over it for operational.
   */
  #atTurn<T>(
    datastore: NmdaDatastoreName,
    state: readonly InstanceTree[] | undefined,
    use: (log: Datastore, tree: InstanceTree) => T,
  ): Promise<T> {
    const name = datastore === 'operational' || datastore === 'intended' ? 'running' : datastore;
    return this.#server.readAtTurn(name, (log) =>
      use(log, state === undefined ? log.tree : withState(log.tree, state)),
    );
  }
}
