import { StepsQueue } from '@yangkit/yang-json-codec';
import { XPathError } from '@yangkit/yang-xpath';
import { type EventFilter, type LoggedEvent, writeEventSteps } from './notifications.js';
import type { NetconfServer } from './server.js';

/** What becomes of a subscriber's events (see {@link EventDelivery}). */
export interface EventReceiver {
  /** An event's `<notification>`, or undefined when the filter did not select it. */
  written(text: string | undefined): void;
  /**
   * The filter's evaluation passed the server's `maxXPathWork` on an event: the event is not sent,
   * and what else follows is the subscription's to decide (RFC 8639 ends it).
   */
  overBound(): void;
  /**
   * Events came while as many waited as the replay log keeps, and were dropped: said once the events
   * queued before them are written, then the subscription's events go on (RFC 8639 tells its
   * receiver with `subscription-suspended`, then `subscription-resumed`).
   */
  dropped?(): void;
}

/**
 * One subscriber's events on their way through its filter, in the order they were published: each
 * is selected and encoded in steps (see `writeEventSteps`), run in slices of about 5 ms with turns
 * of the event loop between them (the codec's `StepsQueue`), so that a big event (the
 * `netconf-config-change` of a big edit) under a costly filter holds neither the event loop nor the
 * other subscribers; a small one is written in the turn that published it. A filter is bounded by
 * the server's `maxXPathWork`, as a read's is. The subscriber's other notifications (replay and
 * subscription state) go through {@link EventDelivery.afterQueued}, so that none overtakes an event.
 *
 * At most as many events wait as the replay log keeps (`replayLogSize`): they are the log's own
 * trees, so the wait costs no memory the log does not; past it events are dropped until those
 * waiting are written, which the receiver is then told ({@link EventReceiver.dropped}).
 */
export class EventDelivery {
  readonly #queue = new StepsQueue();
  readonly #server: NetconfServer;
  /** The subscription, as the warnings name it. */
  readonly #name: string;
  readonly #receiver: EventReceiver;
  /** Events queued and not yet written. */
  #waiting = 0;
  #warnedOverBound = false;
  #warnedDropped = false;
  /** Events are being dropped until the queue drains (then the receiver is told). */
  #dropping = false;

  constructor(server: NetconfServer, name: string, receiver: EventReceiver) {
    this.#server = server;
    this.#name = name;
    this.#receiver = receiver;
  }

  /** Queues `event` (as the subscriber may see it) to be written through `filter`. */
  event(event: LoggedEvent, filter: EventFilter | undefined): void {
    if (this.#dropping) return;
    if (this.#waiting >= this.#server.events.limit) {
      this.#dropping = true;
      if (!this.#warnedDropped) {
        this.#warnedDropped = true;
        this.#server.logger?.warn(
          `${this.#name}: ${this.#waiting} events wait for its filter, as many as the replay log keeps; events are dropped until they are written`,
        );
      }
      this.#queue.afterQueued(() => {
        this.#dropping = false;
        this.#receiver.dropped?.();
      });
      return;
    }
    this.#waiting++;
    this.#queue.add(this.#write(event, filter));
  }

  /** Runs `task` (sending a notification of the subscription) once the events queued before are written. */
  afterQueued(task: () => void): void {
    this.#queue.afterQueued(task);
  }

  /** Drops the events waiting (the subscription ended). */
  clear(): void {
    this.#queue.clear();
  }

  *#write(event: LoggedEvent, filter: EventFilter | undefined): Generator<void, void, void> {
    const maxWork = this.#server.maxXPathWork;
    let text: string | undefined;
    try {
      text = yield* writeEventSteps(event, filter, maxWork);
    } catch (error) {
      if (!XPathError.isWorkLimit(error)) throw error;
      if (!this.#warnedOverBound) {
        this.#warnedOverBound = true;
        this.#server.logger?.warn(
          `${this.#name}: its XPath filter needs more than the limit of ${maxWork} units of work (maxXPathWork) on an event of ${event.eventTime}, which is not sent`,
        );
      }
      this.#receiver.overBound();
      return;
    } finally {
      this.#waiting--;
    }
    this.#receiver.written(text);
  }
}
