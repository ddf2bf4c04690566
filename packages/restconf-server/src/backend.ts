import type { InstanceTree, PathStep, SharedRead, TreeEdit } from '@yangkit/yang-json-codec';

export type { SharedRead };

import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';

/** A datastore of RFC 8342 section 5, by its `ietf-datastores` identity name. */
export type DatastoreName = 'running' | 'candidate' | 'startup' | 'intended' | 'operational';

/** What every request to a backend carries. */
export interface BackendRequest {
  /**
   * The user the HTTP request was authenticated as (undefined without authentication): the
   * backend works as this user, so its access control (RFC 8341) judges the request's user.
   */
  readonly user?: string | undefined;
}

/** A read of data (RFC 8040 section 4.3, RFC 8527 section 3.1). */
export interface ReadRequest extends BackendRequest {
  /**
   * One NMDA datastore (RFC 8342); absent: the `{+restconf}/data` view, the configuration of
   * running with the state data of the server (the NETCONF `<get>`).
   */
  readonly datastore?: DatastoreName;
  /** The data node to read, from the datastore root; absent or empty: the whole datastore. */
  readonly target?: readonly PathStep[];
  /**
   * Configuration only, state only (RFC 8040 section 4.8.1: list keys stay to name the entries),
   * or both (the default).
   */
  readonly content?: 'config' | 'nonconfig' | 'all';
  /** Annotate the nodes with their `ietf-origin:origin` (RFC 8342 section 5.3.4; operational only). */
  readonly withOrigin?: boolean;
}

/** Whether a configuration node exists (RFC 8040 section 4.6.1: a plain PATCH never creates its target). */
export interface ExistsRequest extends BackendRequest {
  /** The datastore (default running). */
  readonly datastore?: DatastoreName;
  /** The data node, from the datastore root (not empty). */
  readonly target: readonly PathStep[];
}

/** A question to the backend's access control ahead of an edit. */
export interface WriteAccessRequest extends BackendRequest {
  /** The datastore (default running). */
  readonly datastore?: DatastoreName;
  /** The edit's target from the datastore root (a POST's parent); empty: the whole datastore. */
  readonly target: readonly PathStep[];
}

/**
 * Seconds a confirmed commit waits for its confirmation when the edit gives no `confirm-timeout`:
 * the interface's default, sent to the NETCONF server explicitly (its own default is 600, RFC 6241
 * section 8.4.5.1).
 */
export const DEFAULT_CONFIRM_TIMEOUT = 300;

/** The parameters of a confirmed commit (RFC 6241 section 8.4; RFC 8040 spec query parameters). */
export interface ConfirmedCommit {
  /** Seconds before the commit is rolled back unless confirmed (default {@link DEFAULT_CONFIRM_TIMEOUT}). */
  readonly confirmTimeout?: number;
  /** The token that later confirms or cancels the commit from another session (`persist-id`). */
  readonly persist?: string;
}

/** Edits of configuration, all carried out or none (RFC 8040 sections 4.4 to 4.7, RFC 8072 section 2.5). */
export interface EditRequest extends BackendRequest {
  /**
   * absent: the `{+restconf}/data` edit of running, by way of the candidate and a commit when
   * the backend has one; a datastore: that NMDA datastore alone (RFC 8527), nothing committed.
   */
  readonly datastore?: DatastoreName;
  /** The codec's edits, in the order they apply; an {@link EditError} names one by its index. */
  readonly edits: readonly TreeEdit[];
  /**
   * `replace`: what the edits do not name is removed, so the edits (each one replacing a top-level
   * node) give the whole new content of the datastore (RFC 6241 section 7.2 `default-operation`).
   * Default `merge`.
   */
  readonly defaultOperation?: 'merge' | 'replace';
  /** Make the commit of a `{+restconf}/data` edit a confirmed commit. */
  readonly confirmed?: ConfirmedCommit;
  /**
   * The `persist` token of the pending confirmed commit the commit of a `{+restconf}/data` edit
   * joins (RFC 6241 section 8.4.5.1): with `confirmed` a follow-up confirmed commit, which extends
   * it (the timer restarts); without it the confirming commit, which ends it. Without this token
   * an edit is refused while a confirmed commit with `persist` is pending.
   */
  readonly persistId?: string;
  /**
   * Runs once the edit holds its turn, before anything changes (the preconditions of a
   * conditional request, RFC 8040 section 3.5.4); what it throws fails the edit.
   */
  readonly check?: () => void;
}

/** An edit the backend refused in one of its edits (RFC 8072 section 2.6: the edit-status of that edit). */
export class EditError extends Error {
  override readonly name = 'EditError';
  /** The index in `EditRequest.edits` of the edit that failed. */
  readonly index: number;

  constructor(index: number, cause: unknown) {
    super(`edit ${index} failed`, { cause });
    this.index = index;
  }
}

/** One error as a NETCONF server reports it (RFC 6241 section 4.3 `<rpc-error>`, names from the RFC). */
export interface RpcErrorFields {
  readonly errorType: string;
  readonly errorTag: string;
  /** `error` (the default) or `warning`. */
  readonly errorSeverity?: string | undefined;
  readonly errorAppTag?: string | undefined;
  /** An XML instance-identifier written with the modules' own prefixes. */
  readonly errorPath?: string | undefined;
  readonly errorMessage?: string | undefined;
  /** The simple children of `<error-info>` (bad-element, session-id, ...) by local name. */
  readonly errorInfo?: Readonly<Record<string, string>> | undefined;
}

/**
 * A failure a backend reports in NETCONF's terms without a NETCONF reply (a server in the same
 * process): each error becomes one RESTCONF error, as an `<rpc-error>` of a reply would.
 */
export class BackendRpcError extends Error {
  override readonly name = 'BackendRpcError';
  readonly errors: readonly RpcErrorFields[];

  constructor(errors: readonly RpcErrorFields[], options?: { cause?: unknown }) {
    super(
      errors[0] === undefined ? 'rpc-error' : `${errors[0].errorTag}: ${errors[0].errorMessage ?? ''}`,
      options,
    );
    this.errors = errors;
  }
}

/** An operation invoked (RFC 8040 sections 3.6 and 4.4.2, RFC 7950 sections 7.14 and 7.15). */
export interface InvokeRequest extends BackendRequest {
  /** The rpc or action. */
  readonly operation: SchemaNode;
  /** An action's data node (with the keys of each list entry), from the root. */
  readonly path?: readonly PathStep[];
  /** The decoded input (`rpc-input` or `action-input`); absent or empty: none. */
  readonly input?: InstanceTree;
}

/** An XPath 1.0 event filter for the backend to evaluate (RFC 5277 section 3.6). */
export interface XPathFilter {
  readonly xpath: string;
  /** Prefix to namespace of every prefix the expression uses. */
  readonly namespaces: Readonly<Record<string, string>>;
}

/** A subscription to an event stream (RFC 5277 section 2.1.1 `create-subscription`). */
export interface StreamSubscribeRequest extends BackendRequest {
  readonly stream: string;
  /** Evaluated by the backend; only when its capabilities say `xpath`. */
  readonly filter?: XPathFilter;
  /** Replay from this time (RFC 3339), then live events. */
  readonly startTime?: string;
  /** The subscription ends at this time, with `notificationComplete`. */
  readonly stopTime?: string;
}

/** A dynamic subscription (RFC 8639 section 2.4.2 `establish-subscription`, RFC 8641). */
export interface EstablishRequest extends BackendRequest {
  /** The `establish-subscription` operation. */
  readonly establish: SchemaNode;
  /** Its decoded input. */
  readonly input: InstanceTree | undefined;
}

/** One notification (RFC 5277 section 4), decoded. */
export interface BackendNotification {
  /** The `eventTime` (RFC 3339) as the backend sent it. */
  readonly eventTime: string;
  /** The notification (kind `notification`); without children when its event is outside the schema. */
  readonly tree: InstanceTree;
  /** An RFC 5277 control event: the end of a replay, or of a subscription with a stop time. */
  readonly control?: 'replayComplete' | 'notificationComplete';
}

/** The notifications of one subscription, in the order the backend sent them. */
export interface BackendSubscription extends AsyncIterable<BackendNotification> {
  /** The output of `establish-subscription` (the subscription's `id`); undefined for a stream subscription. */
  readonly output: InstanceTree | undefined;
  /**
   * Invokes an operation where the subscription lives (RFC 8639 section 2.4.4: modify- and
   * delete-subscription come from the session that established it).
   */
  invoke(request: InvokeRequest): Promise<InstanceTree>;
  /**
   * Takes no notification from the backend until `resume` or the next `invoke`: the backend holds
   * them back and, where it can, computes none (with NETCONF: the session stops reading, so the
   * server's writes wait).
   */
  pause(): void;
  /** Takes notifications again after `pause`; what was held back comes first. */
  resume(): void;
  /** Ends the subscription; the iteration ends. */
  close(): void;
}

/** One event stream of the backend (RFC 5277 section 3.2.1, RFC 8040 section 9.2.1). */
export interface EventStreamInfo {
  readonly name: string;
  readonly description?: string;
  readonly replaySupport: boolean;
  readonly replayLogCreationTime?: string;
}

/** What a backend supports. */
export interface BackendCapabilities {
  /** A candidate datastore (RFC 6241 section 8.3). */
  readonly candidate: boolean;
  /** Confirmed commits of `{+restconf}/data` edits (RFC 6241 section 8.4). */
  readonly confirmedCommit: boolean;
  /** A startup datastore (RFC 6241 section 8.7). */
  readonly startup: boolean;
  /** XPath event filters evaluated by the backend (RFC 6241 section 8.9). */
  readonly xpath: boolean;
  /** NMDA (RFC 8342): each datastore read and edited on its own (RFC 8526). */
  readonly nmda: boolean;
  /** The event streams (empty without notifications, RFC 5277). */
  readonly streams: readonly EventStreamInfo[];
}

/** Counters for `/server-status` and metrics. */
export interface BackendStats {
  /** Sessions open now (in use, idle, and the backend's own). */
  readonly sessions: number;
  readonly idle: number;
  readonly active: number;
}

/**
 * The handler's only way to the data: trees in, trees out, never XML text (DESIGN.md "Backends").
 * Every tree is of the backend's {@link Backend.schema}.
 */
export interface Backend {
  /** The schema every tree in and out is of. */
  readonly schema: SchemaTree;
  /** Learns what the backend supports and starts watching changes; called once by the handler. */
  start(): Promise<void>;
  /** What the backend supports (after `start`). */
  readonly capabilities: BackendCapabilities;
  /**
   * The data of the datastore: the whole of it, or the target's instances inside their
   * ancestors (none when the target does not exist). Default values are as the datastore keeps
   * them (RFC 6243 `explicit`); the with-defaults mode is the caller's.
   */
  read(request: ReadRequest): Promise<InstanceTree>;
  /**
   * A {@link Backend.read} without the copy of the selection, for a caller that only writes the tree
   * out (a backend whose datastore is in the same process); absent: the handler reads a copy. The
   * tree may hold what `content` leaves out: the caller writes it through a view with that `content`.
   */
  readShared?(request: ReadRequest): Promise<SharedRead>;
  /** True when the configuration node exists. */
  exists(request: ExistsRequest): Promise<boolean>;
  /**
   * True when access control (RFC 8341 section 3.4.5) lets the request's user write nothing at or
   * below the target, so that the edit is refused before its body is read or decoded. A backend
   * that cannot tell ahead (an external NETCONF server) leaves it out; its edits are judged as
   * they are made.
   */
  deniesWrite?(request: WriteAccessRequest): boolean;
  /**
   * Carries out the edits, all or none; rejects with the backend's error, an {@link EditError}
   * when one edit failed.
   */
  edit(request: EditRequest): Promise<void>;
  /** Invokes an rpc or action; resolves with its output (without children when it has none). */
  invoke(request: InvokeRequest): Promise<InstanceTree>;
  /** Subscribes to an event stream or establishes a dynamic subscription. */
  subscribe(request: StreamSubscribeRequest | EstablishRequest): Promise<BackendSubscription>;
  /**
   * Registers a listener of changes of a datastore: by this backend's edits (called before the
   * edit resolves, while it still holds its turn) and by other clients.
   */
  onChange(listener: (datastore: string) => void): void;
  stats(): BackendStats;
  /** Ends every session and subscription. */
  close(): Promise<void>;
}
