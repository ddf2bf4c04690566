import {
  type DataNode,
  entryKey,
  finishSteps,
  type InstanceTree,
  type NodeFilter,
  type PathStep,
  type Steps,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { Change, Datastore } from '../datastore.js';
import { rpcError } from '../errors.js';
import type { LoggedEvent } from '../notifications.js';
import type { ServerSession } from '../session.js';
import { Access, NACM_MODULE, NACM_NS, type NacmConfig, readNacmConfig } from './config.js';
import { readableEvent } from './events.js';
import { readableAlong, readableTreeSteps, readFilter } from './read.js';
import { UserAccess } from './rules.js';
import { deniedWriteSteps, pathText, statesAlong } from './write.js';

/** The RFC 8341 counters (`/nacm/denied-*`), since the server started. */
export interface NacmCounters {
  deniedOperations: number;
  deniedDataWrites: number;
  deniedNotifications: number;
}

/** Users whose compiled rules are kept per configuration; more are compiled again on demand. */
const MAX_USERS = 1024;

/**
 * NACM enforcement (RFC 8341) for one server: reads `/ietf-netconf-acm:nacm` from running, compiles
 * each user's rules once per configuration change, and answers the checks of section 3.4 for a
 * session. Recovery sessions (opened by the server or the application for itself), and requests
 * without a session, bypass it (section 3.4 step 2).
 */
export class AccessControl {
  readonly counters: NacmCounters = { deniedOperations: 0, deniedDataWrites: 0, deniedNotifications: 0 };
  private readonly users = new Map<string, UserAccess>();
  private config: NacmConfig | undefined;
  private configRoot: InstanceTree | undefined;

  /** `isRecovery` tells the sessions NACM never restricts (section 3.4 step 2). */
  constructor(
    private readonly schema: SchemaTree,
    private readonly running: Datastore,
    private readonly isRecovery: (session: ServerSession) => boolean,
  ) {}

  /** Told about the changes committed to running: an edit of `/nacm` takes effect at once. */
  changed(changes: readonly Change[]): void {
    if (this.config === undefined) return;
    for (const c of changes) {
      if (c.path[0]?.schema.module === NACM_MODULE) {
        this.config = undefined;
        return;
      }
    }
  }

  /** The configuration in force (running's `/nacm`). */
  currentConfig(): NacmConfig {
    const root = this.running.tree;
    if (this.config === undefined || this.configRoot !== root) {
      this.config = readNacmConfig(root);
      this.configRoot = root;
      this.users.clear();
    }
    return this.config;
  }

  /** The access of a session's user, or undefined when NACM does not restrict the session. */
  of(session: ServerSession | undefined): UserAccess | undefined {
    if (session === undefined || this.isRecovery(session)) return undefined;
    return this.ofUser(session.info.username);
  }

  /**
   * RFC 8341 section 3.4.5 ahead of an edit by `user` (of a session that is not a recovery
   * session) at `target` (from the root; empty: the whole datastore): true when no write at or
   * below it can be permitted, so that the edit is refused before its content is read or decoded.
   * A true answer counts as a denied write.
   */
  writeDeniedWithin(user: string, target: readonly PathStep[]): boolean {
    const access = this.ofUser(user);
    if (access === undefined || !access.writeDeniedWithin(statesAlong(access, target))) return false;
    this.counters.deniedDataWrites++;
    return true;
  }

  /**
   * RFC 8341 section 3.4.5 ahead of a change of a whole datastore (copy-config, delete-config) whose
   * source and target hold instances of the top-level nodes `tops`: refuses it (access-denied,
   * application) when no write at or below any of them can be permitted to `access`, before the two
   * trees are compared (work in proportion to the datastore). Such a user is refused even a copy that
   * would change nothing, so the answer does not tell whether source and target differ. Nothing is
   * refused when `tops` is empty: no change can be made.
   */
  checkWriteWithin(access: UserAccess | undefined, tops: Iterable<SchemaNode>, datastore: string): void {
    if (access === undefined) return;
    let any = false;
    for (const top of tops) {
      if (!access.writeDeniedWithinTop(top)) return;
      any = true;
    }
    if (!any) return;
    this.counters.deniedDataWrites++;
    throw rpcError('access-denied', `write access to the ${datastore} datastore is denied`);
  }

  /** The access of `user`, or undefined when NACM is off. */
  private ofUser(user: string): UserAccess | undefined {
    const config = this.currentConfig();
    if (!config.enableNacm) return undefined;
    let access = this.users.get(user);
    if (access === undefined) {
      if (this.users.size >= MAX_USERS) this.users.clear();
      access = new UserAccess(this.schema, config, user);
      this.users.set(user, access);
    }
    return access;
  }

  /** RFC 8341 section 3.4.4: refuses an rpc the session may not run (access-denied, protocol). */
  checkRpc(session: ServerSession, module: string, name: string, schema: SchemaNode | undefined): void {
    const access = this.of(session);
    if (access === undefined || access.rpcPermitted(module, name, schema)) return;
    this.counters.deniedOperations++;
    throw rpcError('access-denied', `access to the operation ${module}:${name} is denied`, {
      errorType: 'protocol',
    });
  }

  /** RFC 8341 section 3.4.5 for an action: `exec` on the action node below `target`. */
  checkAction(session: ServerSession, target: DataNode, action: SchemaNode): void {
    const access = this.of(session);
    if (access === undefined) return;
    const chain: DataNode[] = [];
    for (let n: DataNode | undefined = target; n !== undefined; n = n.parent) chain.unshift(n);
    let states = access.rootStates();
    for (const n of chain) states = access.childStates(states, n.schema, entryKey(n) ?? '');
    states = access.childStates(states, action, '');
    if (access.permitted(action, states, Access.exec)) return;
    this.counters.deniedOperations++;
    throw rpcError('access-denied', `access to the action ${action.name} is denied`, {
      errorType: 'protocol',
    });
  }

  /**
   * RFC 8341 section 3.4.5 for a write: refuses (access-denied, application) when a change is not
   * permitted to `access` (taken from {@link of} before the edit, so that an edit of `/nacm` is
   * judged by the rules in force before it); the caller undoes the edit.
   */
  checkWrite(access: UserAccess | undefined, changes: readonly Change[]): void {
    finishSteps(this.checkWriteSteps(access, changes));
  }

  /** {@link checkWrite} in steps of a few dozen changes. */
  *checkWriteSteps(access: UserAccess | undefined, changes: readonly Change[]): Steps<void> {
    if (access === undefined || changes.length === 0) return;
    const denied = yield* deniedWriteSteps(access, changes);
    if (denied === undefined) return;
    this.counters.deniedDataWrites++;
    throw rpcError('access-denied', `${denied.access} access to ${denied.path} is denied`);
  }

  /**
   * RFC 8341 section 3.4.5: the outcome of a create (data-exists), a delete or a move (data-missing),
   * and of an insertion point (missing-instance) tells whether a node exists; a user who may not read
   * that node gets access-denied for it before any change, whether it exists or not, so that no
   * answer reveals data the user may not read.
   */
  checkEditTargets(access: UserAccess | undefined, edits: readonly TreeEdit[]): void {
    if (access === undefined) return;
    for (const edit of edits) {
      const revealing =
        edit.operation === 'create' || edit.operation === 'delete' || edit.operation === 'move';
      const hidden =
        revealing && !readableAlong(access, edit.target)
          ? edit.target
          : edit.insert?.point !== undefined && !readableAlong(access, edit.insert.point)
            ? edit.insert.point
            : undefined;
      if (hidden === undefined) continue;
      this.counters.deniedDataWrites++;
      throw rpcError('access-denied', `${edit.operation} access to ${pathText(hidden)} is denied`);
    }
  }

  /** RFC 8341 section 3.4.5 for a read: what of `tree` the session may read (`tree` itself if all). */
  readable(session: ServerSession | undefined, tree: InstanceTree, share = true): InstanceTree {
    return finishSteps(this.readableSteps(session, tree, share));
  }

  /** {@link readable} in steps (see the codec's `Steps`), so that a big tree is copied in slices. */
  *readableSteps(session: ServerSession | undefined, tree: InstanceTree, share = true): Steps<InstanceTree> {
    const access = this.of(session);
    return access === undefined ? tree : yield* readableTreeSteps(access, tree, share);
  }

  /**
   * RFC 8341 section 3.4.5 for a read written through the codec's view: the filter that leaves out
   * what the session may not read of a data tree, or undefined when the session may read all.
   */
  readFilter(session: ServerSession | undefined): NodeFilter | undefined {
    const access = this.of(session);
    return access === undefined ? undefined : (readFilter(access) as NodeFilter);
  }

  /** RFC 8341 section 3.4.5 for a read: whether the session may read the node at `steps` (and so see it). */
  readablePath(session: ServerSession | undefined, steps: readonly PathStep[]): boolean {
    const access = this.of(session);
    return access === undefined || readableAlong(access, steps);
  }

  /** RFC 8341 section 3.4.6: whether an event goes to the session; counts the ones held back. */
  notificationPermitted(session: ServerSession, event: LoggedEvent): boolean {
    const access = this.of(session);
    if (access === undefined) return true;
    for (const schema of event.tree.children.keys()) {
      if (schema.kind !== 'notification' || access.notificationPermitted(schema)) continue;
      this.counters.deniedNotifications++;
      return false;
    }
    return true;
  }

  /**
   * The event as it goes to the session, or undefined when it does not: one the session may not
   * receive ({@link notificationPermitted}), or a netconf-config-change that names only targets
   * the user may not read (see {@link readableEvent}).
   */
  eventFor(session: ServerSession, event: LoggedEvent): LoggedEvent | undefined {
    if (!this.notificationPermitted(session, event)) return undefined;
    const access = this.of(session);
    if (access === undefined) return event;
    const tree = readableEvent(access, this.schema, event.tree);
    return tree === event.tree ? event : tree === undefined ? undefined : { ...event, tree };
  }

  /** The counters as the state of `/nacm` (RFC 8341 section 3.5.2). */
  stateXml(): string {
    const c = this.counters;
    return `<nacm xmlns="${NACM_NS}"><denied-operations>${c.deniedOperations}</denied-operations><denied-data-writes>${c.deniedDataWrites}</denied-data-writes><denied-notifications>${c.deniedNotifications}</denied-notifications></nacm>`;
  }
}
