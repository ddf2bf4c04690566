import { childElement, textOf, type XmlElement } from '@yangkit/xml';
import { encodeXmlChunks, finishInSlices, type Steps } from '@yangkit/yang-json-codec';
import { type Change, withState } from './datastore.js';
import { rpcError } from './errors.js';
import { EventDelivery } from './event-delivery.js';
import type { LoggedEvent } from './notifications.js';
import { readPieces } from './operation-args.js';
import type { ReplyPieces } from './reply.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import {
  checkEncoding,
  datastoreOf,
  filterOf,
  parseModify,
  type Selection,
  SN_NS,
  stopTimeOf,
  type Trigger,
  triggerOf,
  YP_NS,
} from './subscription-policy.js';
import {
  type DynamicState,
  pushChangeUpdateXml,
  pushUpdateXml,
  stateChange,
  subscriptionModified,
  subscriptionsXml,
} from './subscription-state.js';

export { SN_NS, YP_NS } from './subscription-policy.js';

/** One dynamic subscription; the policy members change only through {@link DynamicSubscriptions.modify}. */
interface Dynamic extends DynamicState {
  readonly session: ServerSession;
  filter: Selection | undefined;
  stopTime: number | undefined;
  trigger: Trigger | undefined;
  stopTimer: NodeJS.Timeout | undefined;
  /** periodic: the next push-update. */
  tick: NodeJS.Timeout | undefined;
  /** on-change: the dampened push-change-update waiting to go. */
  dampen: NodeJS.Timeout | undefined;
  /** on-change: the last content sent, to tell whether a commit changed the selection. */
  last: string | undefined;
  /**
   * The content of the last update made (undefined: over the bound) and the version of running it
   * was read from: the next update made while running is unchanged takes it rather than reading and
   * encoding running again. Not kept for the operational datastore, whose state changes unseen.
   */
  made: { readonly version: number; readonly content: string | undefined } | undefined;
  /**
   * Suspended (RFC 8639 `subscription-suspended`) with `ietf-yang-push:update-too-big`: the last
   * update was over the server's bound; the next one that fits resumes the subscription.
   */
  suspended: boolean;
  /** An update waits for the receiver to read what was sent before (see `whenRead`). */
  deferred: boolean;
  /** An update is being made (in slices); one asked for meanwhile waits in `again`. */
  updating: boolean;
  again: (() => Promise<void>) | undefined;
  replaying: boolean;
  readonly queued: LoggedEvent[];
  /** A stream subscription's events on their way through its filter, and the notifications that follow them. */
  delivery: EventDelivery | undefined;
}

/**
 * RFC 8639 dynamic subscriptions and RFC 8641 YANG Push: establish-subscription to the NETCONF
 * stream (filters, replay-start-time, stop-time) or to a datastore (running or operational) with a
 * periodic or an on-change (dampened) update trigger; modify-, delete- and kill-subscription.
 */
export class DynamicSubscriptions {
  private readonly subs = new Map<number, Dynamic>();
  private nextId = 1;
  /** Counts the changes of running (see {@link DynamicSubscriptions.changed}). */
  private runningVersion = 0;

  constructor(private readonly server: NetconfServer) {}

  /** RFC 8639 2.4.2 establish-subscription; resolves with the reply content (`<id>`). */
  async establish(session: ServerSession, op: XmlElement): Promise<string> {
    this.checkLimits(session);
    checkEncoding(op);
    const stop = stopTimeOf(op);
    const datastore = datastoreOf(op);
    const schema = this.server.schema;
    const base = { session, stopTime: stop, stopTimer: undefined, tick: undefined, dampen: undefined };
    const counters = {
      sent: 0,
      excluded: 0,
      last: undefined,
      made: undefined,
      suspended: false,
      deferred: false,
      updating: false,
      again: undefined,
      queued: [],
    };
    let sub: Dynamic;
    if (datastore !== undefined) {
      const trigger = triggerOf(op);
      if (!trigger)
        throw rpcError('missing-element', 'a datastore subscription needs periodic or on-change', {
          errorType: 'protocol',
          errorInfo: { 'bad-element': 'update-trigger' },
        });
      const filter = filterOf(schema, this.server.running.tree, op, 'datastore') ?? undefined;
      sub = {
        ...base,
        ...counters,
        id: 0,
        target: 'datastore',
        datastore,
        filter,
        trigger,
        replaying: false,
        delivery: undefined,
      };
      // Evaluate the selection once now, so a filter that cannot be evaluated is refused here
      // rather than failing later on a timer.
      const content = await this.content(sub);
      sub.id = this.nextId++;
      this.subs.set(sub.id, sub);
      if ('onChange' in trigger) {
        sub.last = content;
        // RFC 8641 3.10: sync-on-start (default true) sends the full content first.
        if (trigger.onChange.syncOnStart) session.afterReply(() => this.sendUpdate(sub, content));
        else if (content === undefined) session.afterReply(() => this.suspend(sub));
      }
    } else {
      const streamEl = childElement(op, 'stream', SN_NS);
      const stream = streamEl ? textOf(streamEl).trim() : 'NETCONF';
      if (stream !== 'NETCONF')
        throw rpcError('invalid-value', `no stream "${stream}"`, {
          errorAppTag: 'ietf-subscribed-notifications:stream-unavailable',
        });
      const filter = filterOf(schema, this.server.running.tree, op, 'stream') ?? undefined;
      const replayEl = childElement(op, 'replay-start-time', SN_NS);
      const start = replayEl ? Date.parse(textOf(replayEl).trim()) : undefined;
      if (start !== undefined && Number.isNaN(start))
        throw rpcError('invalid-value', 'replay-start-time is not a date-and-time', {
          errorType: 'protocol',
          errorInfo: { 'bad-element': 'replay-start-time' },
        });
      const id = this.nextId++;
      const replaying = start !== undefined;
      sub = {
        ...base,
        ...counters,
        id,
        target: 'stream',
        datastore: 'running',
        filter,
        trigger: undefined,
        replaying,
        delivery: undefined,
      };
      sub.delivery = this.eventDelivery(sub);
      this.subs.set(id, sub);
      if (start !== undefined) session.afterReply(() => this.replay(sub, start));
    }
    this.schedule(sub);
    return `<id xmlns="${SN_NS}">${sub.id}</id>`;
  }

  /**
   * Refuses a subscription past the server's bounds (RFC 8639 section 2.4.2 leaves them to the
   * publisher): per user name and in all. Recovery sessions are the application's, which bounds
   * them itself; they are neither counted nor refused.
   */
  private checkLimits(session: ServerSession): void {
    if (this.server.isRecovery(session)) return;
    const { perUser, total } = this.server.subscriptionLimits;
    const user = session.info.username;
    let all = 0;
    let own = 0;
    for (const sub of this.subs.values()) {
      if (this.server.isRecovery(sub.session)) continue;
      all++;
      if (sub.session.info.username === user) own++;
    }
    if (own < perUser && all < total) return;
    throw rpcError(
      'resource-denied',
      own >= perUser
        ? `the user ${user} holds ${own} subscriptions, the most one user may`
        : `the server holds ${all} subscriptions, the most it keeps`,
      { errorAppTag: 'ietf-subscribed-notifications:insufficient-resources' },
    );
  }

  /**
   * RFC 8639 2.4.3 and RFC 8641 4.4.2 modify-subscription, only by the session that established
   * the subscription: a new filter, stop-time, period / anchor-time or dampening-period. Everything
   * is checked (a datastore filter evaluated) before anything changes, so a refused request leaves
   * the subscription as it was. After the reply, `subscription-modified` goes out with the whole
   * new policy, before any update under it.
   */
  async modify(session: ServerSession, id: number, op: XmlElement): Promise<string> {
    const sub = this.own(id, session);
    const change = parseModify(this.server.schema, this.server.running.tree, op);
    if (change.target !== undefined && change.target !== sub.target) {
      throw rpcError('invalid-value', `subscription ${id} is not a ${change.target} subscription`, {
        errorAppTag: 'ietf-subscribed-notifications:filter-unsupported',
      });
    }
    if (change.datastore !== undefined && change.datastore !== sub.datastore) {
      throw rpcError(
        'invalid-value',
        `subscription ${id} is to ${sub.datastore}; its datastore cannot change`,
        {
          errorAppTag: 'ietf-yang-push:datastore-not-subscribable',
        },
      );
    }
    if (change.stopTime !== undefined && change.stopTime <= Date.now() && !sub.replaying) {
      throw rpcError('invalid-value', 'stop-time must be in the future', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'stop-time' },
      });
    }
    const next: Dynamic = {
      ...sub,
      made: undefined,
      filter: change.filter === null ? sub.filter : change.filter,
      stopTime: change.stopTime ?? sub.stopTime,
      trigger: keepSync(sub.trigger, change.trigger),
    };
    const content = sub.target === 'datastore' ? await this.content(next) : undefined;
    session.afterReply(() => {
      if (this.subs.get(id) !== sub) return;
      this.unschedule(sub);
      sub.filter = next.filter;
      sub.made = next.made;
      sub.stopTime = next.stopTime;
      sub.trigger = next.trigger;
      // After the events published before, which the filter they were published under selects.
      this.afterEvents(sub, () => session.notify(subscriptionModified(sub)));
      this.schedule(sub);
      // An on-change receiver's copy follows the old selection: it is sent the new one, in full
      // (push-update) unless sync-on-start is false, else as a change.
      if (sub.target === 'datastore' && sub.trigger !== undefined && 'onChange' in sub.trigger) {
        if (sub.trigger.onChange.syncOnStart && (content !== sub.last || content === undefined)) {
          sub.last = content;
          this.sendUpdate(sub, content);
        } else this.whenRead(sub, () => this.pushChange(sub));
      }
    });
    return '<ok/>';
  }

  /**
   * RFC 8639 2.4.4 delete-subscription (own) and 2.4.5 kill-subscription (any); a killed
   * subscription's receiver is told with subscription-terminated.
   */
  remove(id: number, by?: ServerSession, kill = false): void {
    const sub = kill ? this.subs.get(id) : by ? this.own(id, by) : this.subs.get(id);
    if (!sub) throw noSuchSubscription(id);
    this.unschedule(sub);
    sub.delivery?.clear();
    this.subs.delete(id);
    if (kill)
      sub.session.notify(stateChange('subscription-terminated', id, '<reason>no-such-subscription</reason>'));
  }

  /** Ends the subscriptions of a closed session. */
  sessionEnded(session: ServerSession): void {
    for (const sub of [...this.subs.values()]) if (sub.session === session) this.remove(sub.id);
  }

  /** Whether a session holds a dynamic subscription. */
  holds(session: ServerSession): boolean {
    for (const sub of this.subs.values()) if (sub.session === session) return true;
    return false;
  }

  /** A logged event for the stream subscriptions. */
  event(event: LoggedEvent): void {
    for (const sub of this.subs.values()) {
      if (sub.target !== 'stream') continue;
      if (sub.replaying) sub.queued.push(event);
      else this.deliver(sub, event);
    }
  }

  /**
   * Running changed: on-change subscriptions whose selection the changes can reach compare their selection
   * and push after dampening.
   */
  changed(changes: readonly Change[]): void {
    this.runningVersion++;
    for (const sub of this.subs.values()) {
      if (sub.trigger === undefined || !('onChange' in sub.trigger) || sub.dampen !== undefined) continue;
      if (!mayReach(sub.filter, changes)) continue;
      sub.dampen = setTimeout(() => {
        sub.dampen = undefined;
        this.whenRead(sub, () => this.pushChange(sub));
      }, sub.trigger.onChange.dampening * 10);
      sub.dampen.unref();
    }
  }

  /** The ietf-subscribed-notifications `subscriptions` state (empty when there is none). */
  stateXml(): string {
    return subscriptionsXml(this.subs.values());
  }

  private own(id: number, session: ServerSession): Dynamic {
    const sub = this.subs.get(id);
    // Another session's subscription is answered as absent (RFC 8639 2.4.3, 2.4.4).
    if (!sub || sub.session !== session) throw noSuchSubscription(id);
    return sub;
  }

  /** Starts the timers of the subscription's current policy: stop-time and the periodic push. */
  private schedule(sub: Dynamic): void {
    if (sub.stopTime !== undefined) {
      sub.stopTimer = setTimeout(() => this.complete(sub), Math.max(0, sub.stopTime - Date.now()));
      sub.stopTimer.unref();
    }
    if (sub.trigger !== undefined && 'periodic' in sub.trigger) this.nextTick(sub, sub.trigger.periodic);
  }

  private unschedule(sub: Dynamic): void {
    clearTimeout(sub.stopTimer);
    clearTimeout(sub.tick);
    clearTimeout(sub.dampen);
    sub.stopTimer = sub.tick = sub.dampen = undefined;
  }

  /**
   * RFC 8641 `anchor-time`: updates fall on the anchor plus a multiple of the period; without one,
   * a period after the last.
   */
  private nextTick(sub: Dynamic, periodic: { period: number; anchorTime: number | undefined }): void {
    const ms = periodic.period * 10;
    const delay =
      periodic.anchorTime === undefined ? ms : (((periodic.anchorTime - Date.now()) % ms) + ms) % ms || ms;
    sub.tick = setTimeout(() => {
      if (this.subs.get(sub.id) !== sub) return;
      this.nextTick(sub, periodic);
      this.whenRead(sub, () => this.pushUpdate(sub));
    }, delay);
    sub.tick.unref();
  }

  private complete(sub: Dynamic): void {
    if (this.subs.get(sub.id) !== sub) return;
    this.unschedule(sub);
    // After the events of its time still on their way through the filter.
    this.afterEvents(sub, () => {
      if (this.subs.get(sub.id) !== sub) return;
      sub.session.notify(stateChange('subscription-completed', sub.id));
      this.remove(sub.id);
    });
  }

  private replay(sub: Dynamic, start: number): void {
    if (this.subs.get(sub.id) !== sub) return;
    for (const e of this.server.events.between(start, sub.stopTime ?? Number.POSITIVE_INFINITY))
      this.deliver(sub, e);
    this.afterEvents(sub, () => sub.session.notify(stateChange('replay-completed', sub.id)));
    sub.replaying = false;
    for (const e of sub.queued.splice(0)) this.deliver(sub, e);
  }

  /**
   * Runs timer-driven work: a failure ends the subscription with subscription-terminated
   * (RFC 8639 2.7.3) instead of escaping as an unhandled rejection.
   */
  private guarded(sub: Dynamic, work: Promise<void>): void {
    work.catch(() => this.terminate(sub, 'filter-unavailable'));
  }

  /**
   * Runs a YANG Push update once the receiver reads. While the session's transport is backed up
   * (the client reads nothing, or too slowly) no content is computed and nothing more is queued:
   * the update waits, and one update computed when the transport drains stands for every period
   * or change that passed meanwhile (RFC 8641 updates carry the whole selection: push-update, and
   * push-change-update as this server writes it), so the receiver gets the current content.
   */
  private whenRead(sub: Dynamic, update: () => Promise<void>): void {
    if (!sub.session.backedUp) {
      this.oneAtATime(sub, update);
      return;
    }
    if (sub.deferred) return;
    sub.deferred = true;
    void sub.session.drained().then(() => {
      sub.deferred = false;
      if (this.subs.get(sub.id) === sub) this.oneAtATime(sub, update);
    });
  }

  /**
   * Makes one update of a subscription at a time: its slices may outlast a period, and updates made
   * side by side would each hold running and the event loop's slices. One asked for meanwhile runs
   * after it (the last one stands for all: each carries the whole selection of its moment).
   */
  private oneAtATime(sub: Dynamic, update: () => Promise<void>): void {
    if (sub.updating) {
      sub.again = update;
      return;
    }
    sub.updating = true;
    this.guarded(
      sub,
      update().finally(() => {
        sub.updating = false;
        const again = sub.again;
        sub.again = undefined;
        if (again !== undefined && this.subs.get(sub.id) === sub) this.whenRead(sub, again);
      }),
    );
  }

  private deliver(sub: Dynamic, event: LoggedEvent): void {
    // RFC 8341 section 3.4.6: an event the receiver may not read is dropped (and counted as excluded).
    const visible = this.server.nacm ? this.server.nacm.eventFor(sub.session, event) : event;
    if (visible === undefined) {
      sub.excluded++;
      return;
    }
    // Stream filters are event filters (subtree or XPath); the filter in force when the event came.
    sub.delivery?.event(visible, sub.filter);
  }

  /**
   * A stream subscription's events on their way through its filter (see {@link EventDelivery}): sent
   * and counted as they are written; a filter the server can no longer evaluate on an event, past
   * `maxXPathWork`, ends the subscription with `filter-unavailable` (RFC 8639 section 2.7.3), as a
   * YANG Push update's does.
   */
  private eventDelivery(sub: Dynamic): EventDelivery {
    return new EventDelivery(this.server, `subscription ${sub.id} of session ${sub.session.id}`, {
      written: (text) => {
        // RFC 8639 `excluded-event-records`: records a filter kept from the receiver.
        if (text === undefined) sub.excluded++;
        else {
          sub.sent++;
          sub.session.notify(text);
        }
      },
      overBound: () => this.terminate(sub, 'filter-unavailable'),
      // RFC 8639 section 2.7: the receiver is told that events were dropped, as a suspension.
      dropped: () => {
        if (this.subs.get(sub.id) !== sub) return;
        sub.session.notify(
          stateChange('subscription-suspended', sub.id, '<reason>insufficient-resources</reason>'),
        );
        sub.session.notify(stateChange('subscription-resumed', sub.id));
      },
    });
  }

  /** Runs `task`, a notification of the subscription, after its events on their way (at once for a datastore one). */
  private afterEvents(sub: Dynamic, task: () => void): void {
    if (sub.delivery === undefined) task();
    else sub.delivery.afterQueued(task);
  }

  /** Ends the subscription and tells its receiver with `subscription-terminated` (RFC 8639 2.7.3). */
  private terminate(sub: Dynamic, reason: string): void {
    if (this.subs.get(sub.id) !== sub) return;
    this.remove(sub.id);
    sub.session.notify(stateChange('subscription-terminated', sub.id, `<reason>${reason}</reason>`));
  }

  /**
   * The content of an update: what the receiver may read of the subscription's selection (RFC 8341
   * section 3.4.5), read as a NETCONF read is (see `readPieces`: from the datastore's own nodes,
   * held so that it stays one snapshot, the selection made in slices) and encoded in slices; or
   * undefined when it is over the server's bound, where the encoding stops. While running is
   * unchanged (NACM's rules with it) the last content made is given again, with no work: a periodic
   * subscription to a quiet datastore, suspended over the bound or not, costs nothing a period.
   */
  private async content(sub: Dynamic): Promise<string | undefined> {
    const server = this.server;
    const operational = sub.datastore === 'operational';
    if (!operational && sub.made?.version === this.runningVersion) return sub.made.content;
    const state = operational ? await server.operationalState(sub.session) : undefined;
    const limit = server.subscriptionLimits.updateBytes;
    const size = { bytes: 0 };
    let version = this.runningVersion;
    const pieces = await server.readAtTurn('running', (datastore) => {
      version = this.runningVersion;
      const tree = state === undefined ? datastore.tree : withState(datastore.tree, state);
      return readPieces(server, sub.session, datastore, tree, sub.filter, {}, (selection, view) =>
        boundedChunks(encodeXmlChunks(selection, { view }), limit, size),
      );
    });
    const text = await finishInSlices(joined(pieces, () => !sub.session.open));
    const content = size.bytes > limit ? undefined : text;
    if (!operational) sub.made = { version, content };
    return content;
  }

  /**
   * An update's content went over the bound: the receiver is told once, with
   * `subscription-suspended` (RFC 8639 section 2.7; `update-too-big` is, in RFC 8641, a reason of
   * suspension, not of termination), and no update goes out until one fits.
   */
  private suspend(sub: Dynamic): void {
    if (sub.suspended || this.subs.get(sub.id) !== sub) return;
    sub.suspended = true;
    sub.last = undefined;
    sub.session.notify(
      stateChange('subscription-suspended', sub.id, `<reason xmlns:yp="${YP_NS}">yp:update-too-big</reason>`),
    );
  }

  /** Sends an update's content; one over the bound suspends instead, one that fits resumes first. */
  private sendUpdate(sub: Dynamic, content: string | undefined): void {
    if (this.subs.get(sub.id) !== sub) return;
    if (content === undefined) {
      this.suspend(sub);
      return;
    }
    if (sub.suspended) {
      // RFC 8639 subscription-resumed, then the whole content: the receiver missed what changed.
      sub.suspended = false;
      sub.session.notify(stateChange('subscription-resumed', sub.id));
    }
    sub.sent++;
    sub.session.notify(pushUpdateXml(sub.id, content));
  }

  private async pushUpdate(sub: Dynamic): Promise<void> {
    this.sendUpdate(sub, await this.content(sub));
  }

  /**
   * RFC 8641 3.7: a push-change-update whose yang-patch replaces the subscribed content (or deletes
   * it when the selection became empty).
   */
  private async pushChange(sub: Dynamic): Promise<void> {
    if (this.subs.get(sub.id) !== sub) return;
    const now = await this.content(sub);
    if (this.subs.get(sub.id) !== sub) return;
    // A suspended subscription resumes with the whole content (see sendUpdate).
    if (now === undefined || sub.suspended) {
      sub.last = now;
      this.sendUpdate(sub, now);
      return;
    }
    if (now === sub.last) return;
    sub.last = now;
    sub.sent++;
    sub.session.notify(pushChangeUpdateXml(sub.id, now));
  }
}

/**
 * The chunks of `chunks` until their UTF-8 bytes, counted in `size`, pass `limit`: the chunk that
 * passes it is the last made, so the encoding of a big selection costs the limit, not the data
 * (when the datastore changes meanwhile too, as the rest is then encoded at once).
 */
function* boundedChunks(chunks: Iterable<string>, limit: number, size: { bytes: number }): Generator<string> {
  for (const chunk of chunks) {
    size.bytes += Buffer.byteLength(chunk);
    yield chunk;
    if (size.bytes > limit) return;
  }
}

/**
 * The text of a reply's pieces, a piece a step (each encoded as it is asked for); releases them.
 * Rejects when `abandoned` (the session ended) turns true between two pieces.
 */
function* joined(reply: ReplyPieces, abandoned: () => boolean): Steps<string> {
  let text = '';
  try {
    for (const piece of reply.pieces) {
      if (abandoned()) throw new Error('the update was abandoned');
      text += piece;
      yield;
    }
  } finally {
    reply.release();
  }
  return text;
}

/**
 * Whether a change can alter what a filter selects: a subtree filter selects below its top-level elements
 * only, so changes elsewhere in running leave its selection as it was (O(changes), no read of running).
 */
function mayReach(filter: Selection | undefined, changes: readonly Change[]): boolean {
  if (filter === undefined || !('subtree' in filter)) return true;
  return changes.some((c) => {
    const top = c.path[0]!.schema;
    return filter.subtree.some(
      (el) => el.name === top.name && (el.namespace === undefined || el.namespace === top.namespace),
    );
  });
}

/** modify-subscription carries no sync-on-start (RFC 8641 `update-policy-modifiable`): it is kept. */
function keepSync(old: Trigger | undefined, next: Trigger | undefined): Trigger | undefined {
  if (next === undefined) return old;
  if (old !== undefined && 'onChange' in old && 'onChange' in next)
    return { onChange: { dampening: next.onChange.dampening, syncOnStart: old.onChange.syncOnStart } };
  return next;
}

function noSuchSubscription(id: number): ReturnType<typeof rpcError> {
  return rpcError('invalid-value', `no subscription ${id} of this session`, {
    errorAppTag: 'ietf-subscribed-notifications:no-such-subscription',
  });
}
