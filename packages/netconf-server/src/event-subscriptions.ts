import { rpcError } from './errors.js';
import { EventDelivery } from './event-delivery.js';
import {
  compileEventFilter,
  type EventFilter,
  type LoggedEvent,
  writeControlEvent,
} from './notifications.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

interface Subscription {
  readonly session: ServerSession;
  readonly filter: EventFilter | undefined;
  readonly stopTime: number | undefined;
  timer: NodeJS.Timeout | undefined;
  replaying: boolean;
  readonly queued: LoggedEvent[];
  /** The events on their way through the filter, and the notifications that follow them. */
  readonly delivery: EventDelivery;
}

/**
 * RFC 5277 subscriptions to the NETCONF stream: one per session, optional filter, replay of the
 * logged events from `startTime` ending with replayComplete, and notificationComplete at `stopTime`.
 */
export class EventSubscriptions {
  private readonly subs = new Map<number, Subscription>();

  constructor(private readonly server: NetconfServer) {}

  /** RFC 5277 2.1.1 create-subscription: replay from `startTime` (after the reply), then live events. */
  subscribe(
    session: ServerSession,
    filter: EventFilter | undefined,
    startTime: number | undefined,
    stopTime: number | undefined,
  ): void {
    if (this.subs.has(session.id))
      throw rpcError('in-use', 'this session already has a subscription', { errorType: 'protocol' });
    const sub: Subscription = {
      session,
      // Compiled once here, not for every event.
      filter: filter === undefined ? undefined : compileEventFilter(filter),
      stopTime,
      timer: undefined,
      replaying: startTime !== undefined,
      queued: [],
      // RFC 5277 section 3.6: an event the filter cannot be evaluated on (past the bound) is not selected.
      delivery: new EventDelivery(this.server, `the create-subscription of session ${session.id}`, {
        written: (text) => {
          if (text !== undefined) session.notify(text);
        },
        overBound: () => undefined,
        // RFC 5277 has no notification that tells of lost events: the session is ended rather than
        // left to miss them unknowing, and its client can replay them (startTime) on a new one.
        dropped: () => {
          this.server.logger?.warn(
            `session ${session.id} is ended: events of its create-subscription were dropped while as many waited for its filter as the replay log keeps`,
          );
          session.terminate('other');
        },
      }),
    };
    this.subs.set(session.id, sub);
    if (stopTime !== undefined) {
      sub.timer = setTimeout(() => this.end(session.id), Math.max(0, stopTime - Date.now()));
      sub.timer.unref();
    }
    if (startTime === undefined) return;
    setImmediate(() => {
      if (this.subs.get(session.id) !== sub) return;
      for (const e of this.server.events.between(startTime, stopTime ?? Number.POSITIVE_INFINITY))
        this.deliver(sub, e);
      sub.delivery.afterQueued(() => session.notify(writeControlEvent('replayComplete')));
      sub.replaying = false;
      for (const e of sub.queued.splice(0)) this.deliver(sub, e);
      if (stopTime !== undefined && stopTime <= Date.now()) this.end(session.id);
    });
  }

  /** A new event of the stream. */
  event(event: LoggedEvent): void {
    for (const sub of this.subs.values()) {
      if (!sub.session.notifiable) continue;
      if (sub.stopTime !== undefined && event.time > sub.stopTime) continue;
      if (sub.replaying) sub.queued.push(event);
      else this.deliver(sub, event);
    }
  }

  /** Whether a session has a subscription. */
  has(session: ServerSession): boolean {
    return this.subs.has(session.id);
  }

  /** Drops the subscription of a closed session. */
  sessionEnded(session: ServerSession): void {
    const sub = this.subs.get(session.id);
    if (sub?.timer) clearTimeout(sub.timer);
    sub?.delivery.clear();
    this.subs.delete(session.id);
  }

  /** Stops every timer and drops the events on their way. */
  close(): void {
    for (const sub of this.subs.values()) {
      if (sub.timer) clearTimeout(sub.timer);
      sub.delivery.clear();
    }
    this.subs.clear();
  }

  private deliver(sub: Subscription, event: LoggedEvent): void {
    // RFC 8341 section 3.4.6: an event the user may not read is dropped silently.
    const visible = this.server.nacm ? this.server.nacm.eventFor(sub.session, event) : event;
    if (visible === undefined) return;
    sub.delivery.event(visible, sub.filter);
  }

  private end(id: number): void {
    const sub = this.subs.get(id);
    if (!sub) return;
    if (sub.timer) clearTimeout(sub.timer);
    this.subs.delete(id);
    // After the events of its time still on their way through the filter.
    sub.delivery.afterQueued(() => sub.session.notify(writeControlEvent('notificationComplete')));
  }
}
