import type { Duplex } from 'node:stream';
import { attachFramer, sendMessage } from '@yangkit/netconf-client';
import type { XmlElement } from '@yangkit/xml';
import {
  CodecError,
  cloneTree,
  cloneTreeSteps,
  type DataNode,
  decodeXml,
  encodeXmlChunks,
  finishInSlices,
  finishSteps,
  type InstanceTree,
  ITEMS_PER_STEP,
  invertChange,
  NOTIFICATION_NS,
  replaceTreeSteps,
  type Steps,
  snapshotChunks,
  validateChangesSteps,
  validateSteps,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { CLIENT_MAX_WORK } from '@yangkit/yang-xpath';
import { CandidateReservations } from './candidate-reservations.js';
import { CatchUp } from './catch-up.js';
import { configChangeEvent, sessionParams } from './change-events.js';
import { type Change, createDatastore, type Datastore, type DatastoreName, withState } from './datastore.js';
import { NetconfServerError, RpcError, rpcError, rpcErrorOf } from './errors.js';
import { EventSubscriptions } from './event-subscriptions.js';
import { indexInBackground } from './key-indexes.js';
import { LocalSession } from './local-session.js';
import { monitoringState, serverCapabilities } from './monitoring.js';
import { AccessControl } from './nacm/access-control.js';
import { NACM_NS } from './nacm/config.js';
import type { UserAccess } from './nacm/rules.js';
import { EventLog, eventTimeOf, type LoggedEvent } from './notifications.js';
import { dispatchOperation } from './operations.js';
import { StartupStore } from './persistence.js';
import type { ReplyContent } from './reply.js';
import { ServerSession, type SessionHost, type SessionInfo, type TerminationReason } from './session.js';
import { holdRead } from './shared-read.js';
import { DynamicSubscriptions } from './subscriptions.js';

/** Context given to application hooks. */
export interface HookContext {
  /** The session that asked, if any. */
  readonly session: ServerSession | undefined;
  readonly server: NetconfServer;
}

/** Answers an rpc: resolves with the output elements as XML (empty or undefined for `<ok/>`). */
export type RpcHandler = (
  input: XmlElement,
  context: HookContext,
) => Promise<string | undefined> | string | undefined;

/** Answers an action (RFC 7950 7.15): `target` is the instance the action runs on. */
export type ActionHandler = (
  input: XmlElement,
  target: DataNode,
  context: HookContext,
) => Promise<string | undefined> | string | undefined;

/** Provides operational state: XML of top-level elements, merged over running for `<get>`. */
export interface StateProvider {
  /** Qualified top-level names it provides (`module:name`); lets filtered gets skip it. */
  readonly provides?: readonly string[];
  readonly get: (running: InstanceTree, context: HookContext) => Promise<string> | string;
}

/** Checks a configuration about to be committed to running; throw an {@link RpcError} to refuse. */
export type ValidateHook = (running: InstanceTree, changes: readonly Change[], context: HookContext) => void;

/** Told about each change committed to running. */
export type CommitHook = (running: InstanceTree, changes: readonly Change[], context: HookContext) => void;

/** Options of {@link NetconfServer.create}. */
export interface NetconfServerOptions {
  /** The compiled schema (see `loadServerSchema`), holding the server's own modules. */
  readonly schema: SchemaTree;
  /** File that keeps the configuration across restarts (journal + snapshot). */
  readonly startupFile?: string;
  /**
   * `auto` (default): every change committed to running is journaled, and running is loaded from the
   * file on start. `explicit`: the `:startup` capability; only copy-config to startup writes the file.
   */
  readonly startupMode?: 'auto' | 'explicit';
  /** Offer `:candidate` and `:confirmed-commit` (default true). */
  readonly candidate?: boolean;
  /** Offer `:writable-running` (default true). */
  readonly writableRunning?: boolean;
  /** Events kept for replay (default 1000). */
  readonly replayLogSize?: number;
  /** Largest accepted message in bytes (default 64 MiB). */
  readonly maxMessageBytes?: number;
  /** Journal size that triggers a background compaction (default 4 MiB). */
  readonly compactBytes?: number;
  /**
   * `changes` (default): an edit of running validates what it can affect (see the README).
   * `full`: every change of running validates the whole datastore, so `must`/`when` anywhere are
   * re-evaluated; costs O(datastore) per edit.
   */
  readonly validation?: 'changes' | 'full';
  /**
   * Enforce NACM (RFC 8341) with the rules of running's `/ietf-netconf-acm:nacm` (default false:
   * every session may do everything, as fits a server whose users are not authenticated).
   */
  readonly nacm?: boolean;
  /**
   * Seconds a new session may take to send a valid `<hello>` before it is closed (default 60;
   * 0 waits for ever). RFC 6241 section 8.1 leaves this wait to the server.
   */
  readonly helloTimeout?: number;
  /**
   * Seconds after which a session that sends no rpc is closed (default 0: never). A session that
   * holds a subscription or a pending confirmed commit is never closed for idleness.
   */
  readonly idleTimeout?: number;
  /**
   * RFC 8639 dynamic subscriptions the sessions of one user name may hold at once (default 8);
   * past it establish-subscription is refused with resource-denied. Recovery sessions, which the
   * application opens for itself and bounds itself, are not counted.
   */
  readonly maxSubscriptionsPerUser?: number;
  /** RFC 8639 dynamic subscriptions of all users' sessions together (default 64). */
  readonly maxSubscriptions?: number;
  /**
   * UTF-8 bytes of the content of one RFC 8641 update (its datastore's selection as XML; default
   * 1 MiB): the encoding of a bigger one stops there, and the subscription is suspended with
   * `ietf-yang-push:update-too-big` until an update fits again.
   */
  readonly maxUpdateBytes?: number;
  /**
   * Units of work (nodes an axis visits, predicates evaluated; see yang-xpath's `maxWork`) the
   * evaluation of a client's XPath filter may take: a read (`<get>`, `<get-config>`, `<get-data>`)
   * or a YANG Push update whose filter passes it is refused with `resource-denied` (default
   * {@link DEFAULT_MAX_XPATH_WORK}). A filter such as `//a[count(//b) > 0]` costs the square of the
   * datastore, hours over a big one, and running stays held while it runs. An event stream's
   * filter is evaluated on each event within it too: past it the event is not sent to an RFC 5277
   * subscription (section 3.6: not selected), and an RFC 8639 subscription is terminated with
   * `filter-unavailable`; either is logged at warn once per subscription.
   */
  readonly maxXPathWork?: number;
  /** Where the server tells what its operator should know (a subscription's filter over its bound). */
  readonly logger?: ServerLogger;
}

/** Where a {@link NetconfServer} logs; `console` fits. */
export interface ServerLogger {
  warn(message: string): void;
}

/** Options of {@link NetconfServer.connect}. */
export interface ConnectOptions {
  /**
   * A recovery session (RFC 8341 section 3.4): one the server or the application opens for itself,
   * never a client's. NACM does not restrict it.
   */
  readonly recovery?: boolean;
  /**
   * A session the application opens to serve the requests of its own clients (a RESTCONF
   * gateway's): its start and end publish no `netconf-session-start`/`-end` event. RFC 6470
   * reports the server's NETCONF sessions; such a session is the application's plumbing, and
   * publishing it would tell every event subscriber about other clients' requests, at the cost of
   * the square of their number when many are open. It is still in the monitoring state.
   */
  readonly silent?: boolean;
}

/** RFC 6241 section 8.4.5.1 `confirm-timeout` when a confirmed commit gives none: 600 seconds. */
export const DEFAULT_CONFIRM_TIMEOUT = 600;

/**
 * {@link NetconfServerOptions.maxXPathWork} when none is given: yang-xpath's `CLIENT_MAX_WORK`,
 * enough for a linear filter over a datastore of a million nodes, about 1 s of evaluation (in slices)
 * for one whose work grows with the square of the datastore. Raise it for bigger datastores.
 */
export const DEFAULT_MAX_XPATH_WORK = CLIENT_MAX_WORK;

/** {@link NetconfServerOptions.maxUpdateBytes} when none is given: 1 MiB. */
export const DEFAULT_MAX_UPDATE_BYTES = 1024 * 1024;

/** How the exchange of a commit judges the tree running takes (see `NetconfServer.exchangeSteps`). */
interface ExchangeOptions {
  readonly validate: 'changes' | 'all' | 'none';
  /** A check that must hold when running changes, made in the exchange's own step. */
  readonly atExchange?: (() => void) | undefined;
}

interface PendingCommit {
  readonly session: number;
  persist: string | undefined;
  timer: NodeJS.Timeout;
  readonly changes: Change[];
}

/**
 * The NETCONF server engine: schema, datastores, locks, sessions, the notification log and
 * subscriptions, and the application hooks. Sessions attach through {@link NetconfServer.connect}
 * (any duplex stream) or the SSH transport (`startSshServer`).
 */
export class NetconfServer implements SessionHost {
  readonly schema: SchemaTree;
  readonly running: Datastore;
  readonly startup: Datastore;
  readonly maxMessageBytes: number;
  readonly helloTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly startTime = new Date();
  readonly features: {
    readonly candidate: boolean;
    readonly writableRunning: boolean;
    readonly startup: boolean;
  };
  /** ietf-netconf-monitoring statistics. */
  readonly statistics = { inBadHellos: 0, inSessions: 0, droppedSessions: 0 };
  readonly sessions = new Map<number, ServerSession>();
  readonly locks = new Map<DatastoreName, { session: number; time: Date }>();
  readonly rpcHandlers = new Map<string, RpcHandler>();
  readonly actionHandlers = new Map<string, ActionHandler>();
  readonly stateProviders: StateProvider[] = [];
  readonly events: EventLog;
  /** RFC 5277 create-subscription subscriptions, one per session. */
  readonly eventSubscriptions: EventSubscriptions = new EventSubscriptions(this);
  /** RFC 8639/8641 dynamic subscriptions. */
  readonly dynamic: DynamicSubscriptions = new DynamicSubscriptions(this);
  /** NACM enforcement (RFC 8341), when the `nacm` option enables it. */
  readonly nacm: AccessControl | undefined;
  /** The bounds of dynamic subscriptions (see {@link NetconfServerOptions.maxSubscriptionsPerUser}). */
  readonly subscriptionLimits: {
    readonly perUser: number;
    readonly total: number;
    /** See {@link NetconfServerOptions.maxUpdateBytes}. */
    readonly updateBytes: number;
  };
  /** See {@link NetconfServerOptions.maxXPathWork}. */
  readonly maxXPathWork: number;
  /** See {@link NetconfServerOptions.logger}. */
  readonly logger: ServerLogger | undefined;
  /** How each session was connected (recovery, silent); sessions connected with none are absent. */
  private readonly connectOptions = new WeakMap<ServerSession, ConnectOptions>();
  private readonly validateHooks: ValidateHook[] = [];
  private readonly commitHooks: CommitHook[] = [];
  private readonly store: StartupStore | undefined;
  private readonly startupMode: 'auto' | 'explicit';
  private readonly fullValidation: boolean;
  private nextSessionId = 1;
  /**
   * The candidate's datastore, got through {@link NetconfServer.candidate} or
   * {@link NetconfServer.readAtTurn}, which first bring it up to date.
   */
  private readonly candidateStore: Datastore;
  /** The changes of running an unmodified candidate has yet to replay. */
  private readonly candidateCatchUp: CatchUp;
  /**
   * The private scratch tree (see {@link NetconfServer.scratchSteps}), made on first need, with the
   * changes of running it has yet to replay.
   */
  private privateScratch: { readonly store: Datastore; readonly catchUp: CatchUp } | undefined;
  /** Work in slices on the candidate or on running (through a scratch tree), one at a time. */
  private readonly reservations: CandidateReservations;
  private candidateStale = false;
  private committing = false;
  private pending: PendingCommit | undefined;
  private closed = false;

  private constructor(options: NetconfServerOptions) {
    this.schema = options.schema;
    this.running = createDatastore(options.schema);
    this.candidateStore = createDatastore(options.schema);
    this.candidateCatchUp = new CatchUp(this.candidateStore, this.running);
    this.reservations = new CandidateReservations(
      () => !this.candidateCatchUp.pending && this.privateScratch?.catchUp.pending !== true,
    );
    this.startup = createDatastore(options.schema);
    this.maxMessageBytes = options.maxMessageBytes ?? 64 * 1024 * 1024;
    this.helloTimeoutMs = seconds(options.helloTimeout ?? 60, 'helloTimeout') * 1000;
    this.idleTimeoutMs = seconds(options.idleTimeout ?? 0, 'idleTimeout') * 1000;
    this.events = new EventLog(options.replayLogSize ?? 1000);
    this.startupMode = options.startupMode ?? 'auto';
    this.fullValidation = options.validation === 'full';
    this.nacm =
      options.nacm === true
        ? new AccessControl(options.schema, this.running, (s) => this.isRecovery(s))
        : undefined;
    this.maxXPathWork = options.maxXPathWork ?? DEFAULT_MAX_XPATH_WORK;
    this.logger = options.logger;
    this.subscriptionLimits = {
      perUser: options.maxSubscriptionsPerUser ?? 8,
      total: options.maxSubscriptions ?? 64,
      updateBytes: options.maxUpdateBytes ?? DEFAULT_MAX_UPDATE_BYTES,
    };
    this.features = {
      candidate: options.candidate ?? true,
      writableRunning: options.writableRunning ?? true,
      startup: this.startupMode === 'explicit',
    };
    if (options.startupFile !== undefined) {
      this.store = new StartupStore(
        options.startupFile,
        options.schema,
        options.compactBytes === undefined ? {} : { compactBytes: options.compactBytes },
      );
    }
  }

  /**
   * Creates a server; with `startupFile` it loads the saved configuration into running (and startup),
   * whose lists' key indexes are then built in the background (see {@link NetconfServer.indexWhole}).
   */
  static async create(options: NetconfServerOptions): Promise<NetconfServer> {
    const server = new NetconfServer(options);
    if (server.store) {
      const tree = server.store.load();
      if (server.startupMode === 'explicit') server.startup.reset(tree);
      server.running.reset(cloneTree(tree));
      server.candidate.reset(cloneTree(tree));
      server.indexWhole(server.running, server.candidateStore, server.startup);
    }
    return server;
  }

  /**
   * Builds the key indexes of the big lists of datastores given a whole new tree in slices in the
   * background (see `indexInBackground`), so that the first request to look up an entry by key there
   * does not build its list's index in one run.
   */
  private indexWhole(...stores: Datastore[]): void {
    indexInBackground(
      stores.map((store) => store.tree),
      () => this.closed,
    );
  }

  /** The capabilities sent in the server `<hello>`. */
  capabilities(): readonly string[] {
    return serverCapabilities(this);
  }

  /** Attaches a session to a duplex stream (in-process, a socket, an SSH channel). */
  connect(
    stream: Duplex,
    info: SessionInfo = { username: 'local' },
    options: ConnectOptions = {},
  ): ServerSession {
    if (this.closed) throw new NetconfServerError('CLOSED', 'the server is closed');
    const session = new ServerSession(this, this.nextSessionId++, info, {
      write: (bytes) => (!stream.destroyed && stream.writable ? stream.write(bytes) : undefined),
      drained: () =>
        new Promise<void>((resolve) => {
          if (!stream.writableNeedDrain || stream.destroyed) resolve();
          else {
            const done = (): void => {
              stream.off('drain', done);
              stream.off('close', done);
              resolve();
            };
            stream.on('drain', done);
            stream.on('close', done);
          }
        }),
      backedUp: () => !stream.destroyed && stream.writableNeedDrain,
      end: () => {
        if (!stream.destroyed) stream.end();
      },
      attach: (framer) => attachFramer(stream, framer),
      sendMessage: (xml) => sendMessage(stream, xml),
    });
    this.sessions.set(session.id, session);
    this.connectOptions.set(session, options);
    stream.on('data', (chunk: Buffer) => session.feed(chunk));
    const gone = (): void => session.terminate('dropped');
    stream.on('end', gone);
    stream.on('close', gone);
    stream.on('error', gone);
    session.start();
    return session;
  }

  /** Whether a session is a recovery session (see {@link ConnectOptions.recovery}). */
  isRecovery(session: ServerSession): boolean {
    return this.connectOptions.get(session)?.recovery === true;
  }

  /**
   * A session of `username` for a caller in the same process that works with trees rather than NETCONF
   * messages (see {@link LocalSession}): it shares the datastores, locks, NACM and confirmed commits
   * with the NETCONF sessions, and is not listed among them.
   */
  localSession(username: string, options: ConnectOptions = {}): LocalSession {
    if (this.closed) throw new NetconfServerError('CLOSED', 'the server is closed');
    const session = new ServerSession(
      this,
      this.nextSessionId++,
      { username },
      // It never sends: replies are the tree API's return values, and it holds no subscription.
      { write: () => true, end: () => undefined },
    );
    this.connectOptions.set(session, options);
    return new LocalSession(this, session);
  }

  /** Registers the handler of an rpc, by `module:name`. */
  handleRpc(name: string, handler: RpcHandler): this {
    this.rpcHandlers.set(name, handler);
    return this;
  }

  /** Registers the handler of an action, by its schema path (`/example-actions:interfaces/interface/reset`). */
  handleAction(path: string, handler: ActionHandler): this {
    const node = this.schema.find(path);
    if (node?.kind !== 'action')
      throw new NetconfServerError('INVALID_OPTION', `${path} names no action of the schema`);
    this.actionHandlers.set(node.schemaPath, handler);
    return this;
  }

  /** Registers a provider of operational state. */
  provideState(provider: StateProvider): this {
    this.stateProviders.push(provider);
    return this;
  }

  /** Registers a check run before each change of running is committed. */
  onValidate(hook: ValidateHook): this {
    this.validateHooks.push(hook);
    return this;
  }

  /** Registers a listener told about each change committed to running. */
  onCommit(hook: CommitHook): this {
    this.commitHooks.push(hook);
    return this;
  }

  // ---------------------------------------------------------------- session host

  sessionStarted(session: ServerSession): void {
    this.statistics.inSessions++;
    if (this.connectOptions.get(session)?.silent === true) return;
    this.publishEvent(
      `<netconf-session-start xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications">${sessionParams(session)}</netconf-session-start>`,
    );
  }

  sessionEnded(
    session: ServerSession,
    reason: TerminationReason,
    established: boolean,
    killedBy?: number,
  ): void {
    this.sessions.delete(session.id);
    if (reason === 'bad-hello') this.statistics.inBadHellos++;
    if (!established) return;
    if (reason === 'dropped') this.statistics.droppedSessions++;
    this.eventSubscriptions.sessionEnded(session);
    this.dynamic.sessionEnded(session);
    for (const [name, lock] of [...this.locks]) {
      if (lock.session !== session.id) continue;
      this.locks.delete(name);
      // RFC 6241 8.3.5.2: a candidate lock released by the session's end discards its changes.
      if (name === 'candidate') void this.discardChangesDue();
    }
    // RFC 6241 8.4.1: a confirmed commit without persist is rolled back when its session ends.
    if (this.pending && this.pending.session === session.id && this.pending.persist === undefined) {
      this.rollbackPending('cancel', session);
    }
    if (this.connectOptions.get(session)?.silent === true) return;
    const killed = killedBy === undefined ? '' : `<killed-by>${killedBy}</killed-by>`;
    const termination =
      reason === 'killed'
        ? 'killed'
        : reason === 'closed'
          ? 'closed'
          : reason === 'timeout'
            ? 'timeout'
            : reason === 'dropped'
              ? 'dropped'
              : 'other';
    this.publishEvent(
      `<netconf-session-end xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications">${sessionParams(session)}${killed}<termination-reason>${termination}</termination-reason></netconf-session-end>`,
    );
  }

  sessionInUse(session: ServerSession): boolean {
    return (
      this.eventSubscriptions.has(session) ||
      this.dynamic.holds(session) ||
      this.pending?.session === session.id
    );
  }

  dispatch(session: ServerSession, operation: XmlElement, rpc: XmlElement): Promise<ReplyContent> {
    return dispatchOperation(this, session, operation, rpc);
  }

  // ---------------------------------------------------------------- datastores

  /**
   * The candidate datastore (RFC 6241 section 8.3). While it is unmodified it follows running: the
   * changes committed to running are replayed on it in the background. Whoever asks for it here gets
   * it at once, which forces: the rest of the edit that holds it (see
   * {@link NetconfServer.reserveCandidate}) and of the replay run first, in this turn, however long
   * they take. For work in a reservation (where it forces nothing) and synchronous APIs; a read
   * goes through {@link NetconfServer.readAtTurn}, which waits for them instead.
   */
  get candidate(): Datastore {
    this.reservations.finish();
    this.candidateCatchUp.finish();
    return this.candidateStore;
  }

  /**
   * Runs `use` with the datastore `name` as a read asked for now sees it, in one synchronous run (a
   * reader takes its hold there, see `holdRead`), and resolves with what it returns. Running and
   * startup at once: a change of either is made in one step. The candidate at its turn: once the
   * work asked for before has ended (see {@link NetconfServer.reserveCandidate}) and the candidate
   * has replayed the changes of running, without making either run at once, so that a reader of the
   * candidate never holds a big edit's rest in one turn.
   */
  async readAtTurn<T>(name: DatastoreName, use: (datastore: Datastore) => T): Promise<T> {
    if (name !== 'candidate') return use(this.datastore(name));
    this.checkOffered(name);
    return this.reservations.atTurn(() => use(this.candidateStore));
  }

  /**
   * Runs `work` (an edit of the candidate and its commit, or a change of running, made of steps such
   * as `LocalSession.editConfigSteps`) in slices of a few milliseconds with the candidate and the
   * private scratch tree (see {@link NetconfServer.scratchSteps}) held for it:
   * work asked for before runs first, work asked for after waits, and so does a read of the candidate
   * (see {@link NetconfServer.readAtTurn}). What gets the candidate synchronously (its getter) or
   * changes running synchronously meanwhile has the rest of `work` run at once first, so nobody sees
   * it half done. Resolves when it ends; rejects with what it throws.
   */
  reserveCandidate(work: () => Steps<void>): Promise<void> {
    return this.reservations.run(work);
  }

  /**
   * The scratch tree of a change of running made in steps (see {@link NetconfServer.transactSteps}):
   * a datastore equal to running with no change logged. The candidate while it is unmodified (it
   * follows running then; RFC 6241 section 8.3); otherwise (uncommitted changes, replaced by
   * copy-config, or no candidate at all) the private scratch tree, which follows running the same way.
   * That one is made on first need by copying running in steps, within the work that needs it (so
   * running, which changes only after that work ends, stays as it is during the copy), and kept: one
   * more copy of the configuration, which later changes of running are replayed on in the background.
   */
  *scratchSteps(): Steps<Datastore> {
    if (this.features.candidate && !this.candidateModified) return this.candidate;
    // Work half made on the private tree ends first (nothing when asked from inside it).
    this.reservations.finish();
    if (this.privateScratch === undefined) {
      const store = createDatastore(this.schema, yield* cloneTreeSteps(this.running.tree));
      this.privateScratch = { store, catchUp: new CatchUp(store, this.running) };
    }
    this.privateScratch.catchUp.finish();
    return this.privateScratch.store;
  }

  /** The datastore of a name, checking it is offered (the candidate as its forcing getter gives it). */
  datastore(name: DatastoreName): Datastore {
    this.checkOffered(name);
    return this[name];
  }

  /** Refuses a datastore the server does not offer; gets nothing, so forces nothing. */
  checkOffered(name: DatastoreName): void {
    if (name === 'candidate' && !this.features.candidate)
      throw rpcError('invalid-value', 'the candidate datastore is not supported (no :candidate)', {
        errorType: 'protocol',
      });
    if (name === 'startup' && !this.features.startup)
      throw rpcError('invalid-value', 'the startup datastore is not supported (no :startup)', {
        errorType: 'protocol',
      });
  }

  /** Refuses a write when another session holds the lock (RFC 6241 7.5). */
  checkLock(name: DatastoreName, session: ServerSession | undefined): void {
    const lock = this.locks.get(name);
    if (lock && lock.session !== session?.id) {
      throw rpcError('in-use', `the ${name} datastore is locked by session ${lock.session}`, {
        errorType: 'protocol',
        errorInfo: { 'session-id': String(lock.session) },
      });
    }
  }

  /**
   * Runs `edit` on running as one transaction: validation of what changed, application hooks, the
   * journal (fsynced before returning), commit hooks and the config-change event. On any error every
   * change is undone and the error rethrown. With `access`, every change must be one NACM permits.
   * `validate`: what the changes can affect (default), `all` of running, `none` (not even the
   * application's hooks), or `hooks` alone (the caller validated the changes on the same tree).
   */
  transact(
    session: ServerSession | undefined,
    edit: (ds: Datastore) => void,
    options: { validate?: 'changes' | 'all' | 'none' | 'hooks'; access?: UserAccess | undefined } = {},
  ): Change[] {
    // An edit of the candidate in progress commits first: running changes only after it.
    this.reservations.finish();
    const ds = this.running;
    const mark = ds.mark();
    try {
      edit(ds);
      if (options.access) this.nacm!.checkWrite(options.access, ds.since(mark));
      const changes = ds.since(mark);
      if (changes.length > 0 && options.validate !== 'none') {
        if (options.validate === 'all' || (this.fullValidation && options.validate !== 'hooks'))
          this.validateAll(ds.tree);
        else if (options.validate !== 'hooks') this.validateChanges(ds.tree, changes);
        for (const hook of this.validateHooks) hook(ds.tree, changes, { session, server: this });
      }
    } catch (error) {
      ds.undoTo(mark);
      throw error;
    }
    const changes = ds.take();
    if (changes.length === 0) return changes;
    this.nacm?.changed(changes);
    if (this.store && this.startupMode === 'auto') {
      this.store.append(changes);
      if (this.store.needsCompaction) this.compactInBackground(this.store);
    }
    // One by one: a big commit has more changes than a call takes arguments.
    if (this.pending) for (const c of changes) this.pending.changes.push(c);
    this.syncFollowers(changes);
    for (const hook of this.commitHooks) hook(ds.tree, changes, { session, server: this });
    this.configChanged(session, 'running', changes);
    this.dynamic.changed(changes);
    return changes;
  }

  /**
   * Writes running's snapshot over the journal (see `StartupStore.compactSteps`) from the next turn
   * on, in slices of a few milliseconds: running is held for its encoder (`holdRead`), so that the
   * snapshot is running as it was when the journal was rotated, whatever commits meanwhile (they
   * have it encoded first, in slices too). A failed compaction leaves the journal in place, and the
   * next commit tries again; a closed server stops it.
   */
  private compactInBackground(store: StartupStore): void {
    setImmediate(() => {
      if (this.closed || !store.needsCompaction) return;
      const read = holdRead(this.running, this.running.tree);
      const writing = store.compactSteps(snapshotChunks(encodeXmlChunks(read.tree), read));
      const server = this;
      function* untilClosed(): Steps<void> {
        while (!server.closed) {
          if (writing.next().done === true) return;
          yield;
        }
        writing.return(undefined);
      }
      finishInSlices(untilClosed())
        .catch(() => undefined)
        .finally(() => read.release());
    });
  }

  /** Validates a whole datastore tree (RFC 7950 section 8); throws every error as one {@link RpcError}. */
  validateAll(tree: InstanceTree): void {
    finishSteps(this.validateAllSteps(tree));
  }

  /** {@link NetconfServer.validateAll} in steps (the codec's `validateSteps`). */
  *validateAllSteps(tree: InstanceTree): Steps<void> {
    this.refuse(yield* validateSteps(tree, { config: true, complete: true }));
  }

  /** Validates what `changes` (applied to `tree`) can affect; throws every error as one {@link RpcError}. */
  validateChanges(tree: InstanceTree, changes: readonly Change[]): void {
    finishSteps(this.validateChangesSteps(tree, changes));
  }

  /** {@link NetconfServer.validateChanges} in steps (the codec's `validateChangesSteps`). */
  *validateChangesSteps(tree: InstanceTree, changes: readonly Change[]): Steps<void> {
    this.refuse(yield* validateChangesSteps(tree, changes, { config: true }));
  }

  private refuse(errors: readonly CodecError[]): void {
    const error = rpcErrorOf(this.schema, errors.slice(0, MAX_VALIDATION_ERRORS));
    if (error !== undefined) throw error;
  }

  /**
   * Keeps the private scratch tree and an unmodified candidate equal to running (RFC 6241 8.3): each
   * replays `changes` in the background, after those it has yet to replay (a candidate still catching
   * up is unmodified).
   */
  private syncFollowers(changes: readonly Change[]): void {
    this.privateScratch?.catchUp.add(changes);
    if (!this.features.candidate || this.committing) return;
    if (!this.candidateCatchUp.pending && this.candidateModified) {
      this.candidateStale = true;
      return;
    }
    this.candidateCatchUp.add(changes);
  }

  /**
   * RFC 6241 8.3.4.2 `<discard-changes>` by `session`: refused when the server has no candidate or
   * another session locks it; then the candidate becomes running again.
   */
  discardChangesOf(session: ServerSession): void {
    finishSteps(this.discardChangesOfSteps(session));
  }

  /** {@link NetconfServer.discardChangesOf} in steps (see {@link NetconfServer.reserveCandidate}). */
  *discardChangesOfSteps(session: ServerSession): Steps<void> {
    this.checkOffered('candidate');
    this.checkLock('candidate', session);
    yield* this.discardChangesSteps();
  }

  /**
   * The candidate's changes discarded as a lock of it ends (RFC 6241 8.3.5.2): as soon as the work in
   * progress has ended, before any work asked for later (see `CandidateReservations.runDue`), rather
   * than by making that work end at once. Resolves once they are.
   */
  discardChangesDue(): Promise<void> {
    return this.reservations.runDue(() => this.discardChangesSteps());
  }

  /** RFC 6241 8.3.4.2 discard-changes: the candidate becomes running again. */
  discardChanges(): void {
    finishSteps(this.discardChangesSteps());
  }

  /**
   * {@link NetconfServer.discardChanges} in steps: the candidate's changes undone a few dozen at a time;
   * a candidate that no longer follows running (replaced by copy-config) takes a copy of running made
   * a few dozen nodes at a time, in one step once it is made.
   */
  *discardChangesSteps(): Steps<void> {
    if (this.candidateStale) {
      const copy = yield* cloneTreeSteps(this.running.tree);
      this.candidate.reset(copy);
      this.candidateStale = false;
      this.indexWhole(this.candidateStore);
    } else yield* this.candidate.undoToSteps(0);
  }

  /** Whether the candidate holds uncommitted changes. */
  get candidateModified(): boolean {
    return this.candidate.mark() > 0 || this.candidateStale;
  }

  /** Replaces the candidate's content (copy-config to candidate); commit then copies it whole. */
  replaceCandidate(tree: InstanceTree): void {
    finishSteps(this.replaceCandidateSteps(tree));
  }

  /**
   * {@link NetconfServer.replaceCandidate} in steps (see {@link NetconfServer.reserveCandidate}): `tree`
   * is copied a few dozen nodes at a time, and the candidate takes the copy in one step. `tree` must
   * not change until it ends.
   */
  *replaceCandidateSteps(tree: InstanceTree): Steps<void> {
    const copy = yield* cloneTreeSteps(tree);
    this.candidate.reset(copy);
    this.candidateStale = true;
    this.indexWhole(this.candidateStore);
  }

  /**
   * RFC 6241 8.3.4.1 commit. A candidate made of changes to running's content becomes running as it
   * is: running takes its tree with its changes (validated, journaled, reported like any edit of
   * running), and the candidate takes running's former tree, which then replays those changes in the
   * background (see {@link NetconfServer.candidate}); nothing is copied while the commit holds the
   * event loop. A candidate replaced as a whole (copy-config) is copied onto running and validated as
   * a whole.
   */
  commitCandidate(session: ServerSession | undefined): void {
    finishSteps(this.commitCandidateSteps(session));
  }

  /**
   * {@link NetconfServer.commitCandidate} in steps: the candidate's changes are validated on its tree,
   * which is the tree running takes, a few at a time before the exchange (see
   * {@link NetconfServer.reserveCandidate}); the exchange and what follows it are one step. A
   * candidate replaced by copy-config is copied onto the scratch tree and validated whole in steps,
   * and running takes that tree by the same exchange. A lock of running taken by another session
   * meanwhile refuses the commit at the exchange (RFC 6241 7.5).
   */
  *commitCandidateSteps(session: ServerSession | undefined): Steps<void> {
    const candidate = this.candidate;
    const atExchange = this.lockCheck(session);
    if (!this.candidateStale) {
      yield* this.exchangeSteps(session, candidate, { validate: 'changes', atExchange });
      return;
    }
    this.committing = true;
    try {
      const tree = candidate.tree;
      yield* this.transactSteps(session, (ds) => replaceTreeSteps(ds, tree), { validate: 'all', atExchange });
      this.candidateStale = false;
    } finally {
      this.committing = false;
    }
    candidate.take();
  }

  /**
   * A change of running made in steps on a scratch tree (see {@link NetconfServer.scratchSteps}), as
   * one transaction of running, with the result {@link NetconfServer.transact} gives: `change` is
   * applied to the scratch tree, then with `access` every change must be one NACM permits (RFC 8341
   * section 3.4.5), then the changes are validated (see {@link NetconfServer.exchangeSteps}), each a
   * few nodes at a time; running then takes the scratch tree by the exchange a commit uses. No reader
   * of running sees the change half made, and a big change need not hold the event loop: whoever runs
   * it in slices holds the scratch tree (see {@link NetconfServer.reserveCandidate}). With `testOnly`
   * (RFC 6241 7.2 test-option `test-only`), the changes are validated and undone. On any error the
   * scratch tree is made equal to running again, and running is unchanged.
   */
  *transactSteps(
    session: ServerSession | undefined,
    change: (scratch: Datastore) => Steps<void>,
    options: ExchangeOptions & { readonly access?: UserAccess | undefined; readonly testOnly?: boolean },
  ): Steps<void> {
    const scratch = yield* this.scratchSteps();
    try {
      yield* change(scratch);
      if (options.access !== undefined) yield* this.nacm!.checkWriteSteps(options.access, scratch.since());
      if (options.testOnly === true) {
        yield* this.validateChangesSteps(scratch.tree, scratch.since());
        yield* scratch.undoToSteps(0);
        return;
      }
      yield* this.exchangeSteps(session, scratch, options);
    } catch (error) {
      yield* scratch.undoToSteps(0);
      throw error;
    }
  }

  /**
   * The exchange of a commit: running takes the tree of `scratch` (the candidate, or a scratch tree
   * edited like one) with its changes as one transaction (journal, commit hooks, config-change event
   * of running), and `scratch` takes running's former tree, which replays them in the background.
   * `validate`: the changes (`changes`, or all of running with the server's `full` validation) or the
   * whole tree (`all`) are validated first on the tree running takes, in steps, then the
   * application's hooks run; `none`: neither (RFC 6241 7.2 test-option `set`). `atExchange` runs in
   * the exchange's own step, before it: a check that must hold when running changes (a lock). Nothing
   * happens when `scratch` holds no change. On failure `scratch` gets its tree and changes back.
   */
  private *exchangeSteps(
    session: ServerSession | undefined,
    scratch: Datastore,
    options: ExchangeOptions,
  ): Steps<void> {
    if (scratch.mark() === 0) return;
    if (options.validate === 'all' || (options.validate === 'changes' && this.fullValidation))
      yield* this.validateAllSteps(scratch.tree);
    else if (options.validate === 'changes') yield* this.validateChangesSteps(scratch.tree, scratch.since());
    options.atExchange?.();
    this.transact(session, (ds) => ds.adopt(scratch), {
      validate: options.validate === 'none' ? 'none' : 'hooks',
    });
  }

  /**
   * Makes running equal to `tree` (copy-config), validating the whole result; only the nodes that differ
   * are changed, journaled and (with `access`) checked by NACM (RFC 8341 section 3.4.5).
   */
  replaceRunning(session: ServerSession | undefined, tree: InstanceTree, access?: UserAccess): void {
    finishSteps(this.replaceRunningSteps(session, tree, access));
  }

  /**
   * {@link NetconfServer.replaceRunning} in steps (see {@link NetconfServer.transactSteps}): `tree` is
   * copied onto the scratch tree and the result validated whole a few nodes at a time; a lock of
   * running taken by another session meanwhile refuses it at the exchange. `tree` must not change
   * until it ends.
   */
  *replaceRunningSteps(
    session: ServerSession | undefined,
    tree: InstanceTree,
    access?: UserAccess,
  ): Steps<void> {
    yield* this.transactSteps(session, (ds) => replaceTreeSteps(ds, tree), {
      validate: 'all',
      access,
      atExchange: this.lockCheck(session),
    });
  }

  /**
   * The check of running's lock a change of `session` makes again at its exchange (RFC 6241 7.5: a
   * lock taken by another session while the change was made); none for the application's own
   * changes (no session), which locks do not hold back.
   */
  private lockCheck(session: ServerSession | undefined): (() => void) | undefined {
    return session === undefined ? undefined : () => this.checkLock('running', session);
  }

  /** Writes `tree` to startup (copy-config to startup in explicit mode). */
  replaceStartup(tree: InstanceTree): void {
    finishSteps(this.replaceStartupSteps(tree));
  }

  /**
   * {@link NetconfServer.replaceStartup} in steps (see {@link NetconfServer.reserveCandidate}, which
   * keeps two of them from interleaving): `tree` is copied a few dozen nodes at a time, the copy
   * written to the startup file a chunk at a time, and startup takes the copy in one step once the
   * file is durable (a failed write leaves startup as it was). `tree` must not change until it ends.
   */
  *replaceStartupSteps(tree: InstanceTree): Steps<void> {
    const copy = yield* cloneTreeSteps(tree);
    if (this.store !== undefined) yield* this.store.replaceAllSteps(copy);
    this.startup.reset(copy);
    this.indexWhole(this.startup);
  }

  /**
   * RFC 6241 8.3.4.1 commit: applies a confirmed-commit (RFC 6241 8.4) or confirms / extends a pending
   * one, or commits the candidate; refused while another session locks running.
   */
  confirmedCommit(
    session: ServerSession,
    params: { confirmed: boolean; timeout: number; persist?: string; persistId?: string },
  ): void {
    finishSteps(this.confirmedCommitSteps(session, params));
  }

  /** {@link NetconfServer.confirmedCommit} in steps (see {@link NetconfServer.commitCandidateSteps}). */
  *confirmedCommitSteps(
    session: ServerSession,
    params: { confirmed: boolean; timeout: number; persist?: string; persistId?: string },
  ): Steps<void> {
    this.checkOffered('candidate');
    this.checkLock('running', session);
    const pending = this.pending;
    if (pending) {
      if (pending.persist !== undefined) {
        // RFC 6241 section 8.4.5.1 names the pending commit by persist-id. A follow-up confirmed
        // commit that gives the pending token as its own persist shows the same knowledge of the
        // token, so it joins too: RESTCONF edits grouped under one confirmed commit each carry it.
        const named = params.persistId ?? (params.confirmed ? params.persist : undefined);
        if (named !== pending.persist) {
          throw rpcError(
            'invalid-value',
            named === undefined
              ? 'a confirmed commit with persist is pending; give its persist token as persist-id to extend or confirm it'
              : 'persist-id does not match the pending confirmed commit',
            {
              errorType: 'protocol',
              errorPath: '/nc:rpc/nc:commit/nc:persist-id',
              errorPathNamespaces: new Map([['nc', 'urn:ietf:params:xml:ns:netconf:base:1.0']]),
            },
          );
        }
      } else if (pending.session !== session.id) {
        throw rpcError('in-use', `a confirmed commit of session ${pending.session} is pending`, {
          errorType: 'protocol',
          errorInfo: { 'session-id': String(pending.session) },
        });
      }
    } else if (params.persistId !== undefined) {
      throw rpcError('invalid-value', 'no confirmed commit is pending for this persist-id', {
        errorType: 'protocol',
        errorPath: '/nc:rpc/nc:commit/nc:persist-id',
        errorPathNamespaces: new Map([['nc', 'urn:ietf:params:xml:ns:netconf:base:1.0']]),
      });
    }
    if (!pending && !params.confirmed) {
      yield* this.commitCandidateSteps(session);
      return;
    }
    if (!pending) {
      // Start: record every change to running from now on, to undo them on timeout or cancel.
      const record: PendingCommit = {
        session: session.id,
        persist: params.persist,
        timer: this.pendingTimer(params.timeout),
        changes: [],
      };
      this.pending = record;
      try {
        yield* this.commitCandidateSteps(session);
      } catch (error) {
        clearTimeout(record.timer);
        this.pending = undefined;
        throw error;
      }
      this.confirmEvent(session, 'start', params.timeout);
      return;
    }
    yield* this.commitCandidateSteps(session);
    clearTimeout(pending.timer);
    if (params.confirmed) {
      pending.timer = this.pendingTimer(params.timeout);
      if (params.persist !== undefined) pending.persist = params.persist;
      this.confirmEvent(session, 'extend', params.timeout);
    } else {
      this.pending = undefined;
      this.confirmEvent(session, 'complete');
    }
  }

  /** RFC 6241 8.4.4.1 cancel-commit. */
  cancelCommit(session: ServerSession, persistId: string | undefined): void {
    finishSteps(this.cancelCommitSteps(session, persistId));
  }

  /**
   * {@link NetconfServer.cancelCommit} in steps: the changes made since the confirmed commit began are
   * undone on the scratch tree a few at a time, and running takes it by the exchange of a commit (see
   * {@link NetconfServer.transactSteps}).
   */
  *cancelCommitSteps(session: ServerSession, persistId: string | undefined): Steps<void> {
    const pending = this.pending;
    if (!pending)
      throw rpcError('operation-failed', 'no confirmed commit is pending', { errorType: 'protocol' });
    if (
      pending.persist !== undefined
        ? persistId !== pending.persist
        : pending.session !== session.id || persistId !== undefined
    ) {
      throw rpcError(
        'invalid-value',
        "the pending confirmed commit is not this session's, or the persist-id does not match",
        { errorType: 'protocol' },
      );
    }
    yield* this.rollbackSteps('cancel', session);
  }

  /** Whether a confirmed commit is pending. */
  get confirmedCommitPending(): boolean {
    return this.pending !== undefined;
  }

  private pendingTimer(seconds: number): NodeJS.Timeout {
    const t = setTimeout(() => this.rollbackPending('timeout', undefined), seconds * 1000);
    t.unref();
    return t;
  }

  /**
   * Rolls the pending confirmed commit back on its timeout or when its session ends (RFC 6241 8.4.1),
   * in slices: as soon as the work in progress has ended, before any work asked for later (see
   * `CandidateReservations.runDue`). Whatever needs the candidate or changes running meanwhile has it
   * done first. A confirming commit in progress when it falls due ends first, and confirms.
   */
  private rollbackPending(event: 'cancel' | 'timeout', session: ServerSession | undefined): void {
    void this.reservations.runDue(() => this.rollbackSteps(event, session));
  }

  /**
   * The rollback of the pending confirmed commit, if one is still pending: the inverse of every change
   * of running since it began, newest first, replayed on the scratch tree in steps (no validation, as
   * the configuration before the commit was valid), running taking the result by the exchange; then
   * the `netconf-confirmed-commit` event (RFC 6470).
   */
  private *rollbackSteps(event: 'cancel' | 'timeout', session: ServerSession | undefined): Steps<void> {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    const changes = pending.changes;
    const ended = (): void => {
      if (this.pending === pending) this.pending = undefined;
    };
    try {
      yield* this.transactSteps(
        session,
        function* (ds) {
          let replayed = 0;
          for (let i = changes.length - 1; i >= 0; i--) {
            for (const c of invertChange(changes[i]!)) {
              ds.replay(c);
              if (++replayed % ITEMS_PER_STEP === 0) yield;
            }
          }
        },
        // Not pending any more once running changes: the rollback's own changes are not recorded.
        { validate: 'none', atExchange: ended },
      );
    } finally {
      // Ended, even when the rollback failed: nothing would end it later.
      ended();
    }
    this.confirmEvent(session, event);
  }

  private confirmEvent(
    session: ServerSession | undefined,
    event: 'start' | 'cancel' | 'timeout' | 'extend' | 'complete',
    timeout?: number,
  ): void {
    const who = event === 'timeout' || !session ? '' : sessionParams(session);
    this.publishEvent(
      `<netconf-confirmed-commit xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications">${who}<confirm-event>${event}</confirm-event>${timeout !== undefined ? `<timeout>${timeout}</timeout>` : ''}</netconf-confirmed-commit>`,
    );
  }

  private configChanged(
    session: ServerSession | undefined,
    datastore: string,
    changes: readonly Change[],
  ): void {
    // Once the server closes, every session is ending: nobody is left to tell.
    if (this.closed || !this.schema.moduleByName('ietf-netconf-notifications')?.implemented) return;
    const time = Date.now();
    const eventTime = eventTimeOf(time);
    this.log({
      time,
      eventTime,
      tree: configChangeEvent(this.schema, session, datastore, changes, eventTime),
    });
  }

  // ---------------------------------------------------------------- reads

  /** Running merged with operational state from the providers (the `<get>` view). */
  async operationalView(
    session: ServerSession | undefined,
    wanted?: (qualifiedName: string) => boolean,
  ): Promise<InstanceTree> {
    const state = await this.operationalState(session, wanted);
    return withState(this.running.tree, state);
  }

  /**
   * The operational state of the providers (the `wanted` ones), each as a tree to lay over running with
   * {@link withState}. Running is taken once they have all answered: a commit while a provider works
   * may give running another tree (see {@link NetconfServer.commitCandidate}).
   */
  async operationalState(
    session: ServerSession | undefined,
    wanted?: (qualifiedName: string) => boolean,
  ): Promise<InstanceTree[]> {
    const state: InstanceTree[] = [];
    const context: HookContext = { session, server: this };
    const providers: StateProvider[] = [
      { provides: MONITORING_TOPS, get: () => monitoringState(this) },
      ...this.stateProviders,
    ];
    // RFC 8341 section 3.5.2: the denied-* counters, zero while NACM is not enforced.
    if (this.schema.moduleByName('ietf-netconf-acm')?.implemented)
      providers.push({
        provides: ['ietf-netconf-acm:nacm'],
        get: () =>
          this.nacm?.stateXml() ??
          `<nacm xmlns="${NACM_NS}"><denied-operations>0</denied-operations><denied-data-writes>0</denied-data-writes><denied-notifications>0</denied-notifications></nacm>`,
      });
    for (const p of providers) {
      if (wanted && p.provides && !p.provides.some(wanted)) continue;
      const xml = await p.get(this.running.tree, context);
      if (xml !== '') state.push(this.decode(xml, 'data'));
    }
    return state;
  }

  // ---------------------------------------------------------------- notifications

  /**
   * Publishes an event on the NETCONF stream: `xml` is the notification's element (for example
   * `<event xmlns="https://example.com/ns/example-mod">...</event>`); checked against the schema,
   * logged for replay and sent to every subscribed session.
   */
  publish(xml: string, time = Date.now()): void {
    const eventTime = eventTimeOf(time);
    const tree = this.decode(
      `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${eventTime}</eventTime>${xml}</notification>`,
      'notification',
    );
    this.log({ time, eventTime, tree });
  }

  /** Logs an event for replay and sends it to every subscription. */
  private log(event: LoggedEvent): void {
    this.events.append(event);
    this.dynamic.event(event);
    this.eventSubscriptions.event(event);
  }

  /** Decodes XML the application or the server itself wrote (state, events), as an RpcError when wrong. */
  private decode(xml: string, kind: 'data' | 'notification'): InstanceTree {
    try {
      return decodeXml(this.schema, xml, { kind });
    } catch (error) {
      if (CodecError.isInstance(error)) throw rpcErrorOf(this.schema, [error])!;
      throw error;
    }
  }

  private publishEvent(xml: string): void {
    // Once the server closes, every session is ending: nobody is left to tell.
    if (this.closed || !this.schema.moduleByName('ietf-netconf-notifications')?.implemented) return;
    this.publish(xml);
  }

  /** Ends a session from another one (kill-session) or from the application. */
  killSession(id: number, by: ServerSession | undefined): void {
    const victim = this.sessions.get(id);
    if (!victim) throw rpcError('invalid-value', `no session ${id}`, { errorType: 'protocol' });
    victim.terminate('killed', by?.id);
  }

  /** Ends every session, stops the timers and closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    for (const s of [...this.sessions.values()]) s.terminate('other');
    if (this.pending) clearTimeout(this.pending.timer);
    this.reservations.finish();
    this.candidateCatchUp.finish();
    this.privateScratch?.catchUp.finish();
    this.eventSubscriptions.close();
    this.store?.close();
  }
}

/** Most validation errors reported in one reply. */
const MAX_VALIDATION_ERRORS = 64;

function seconds(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new NetconfServerError('INVALID_OPTION', `${name} is a number of seconds, 0 or more`);
  return value;
}

const MONITORING_TOPS = [
  'ietf-subscribed-notifications:streams',
  'ietf-subscribed-notifications:subscriptions',
  'ietf-netconf-monitoring:netconf-state',
  'ietf-yang-library:modules-state',
  'ietf-yang-library:yang-library',
  'nc-notifications:netconf',
];
