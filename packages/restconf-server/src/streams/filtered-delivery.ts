import { type Steps, StepsQueue } from '@yangkit/yang-json-codec';
import { XPathError } from '@yangkit/yang-xpath';
import type { BackendNotification } from '../backend.js';
import type { EventFilter } from './event-filter.js';
import type { MessageCache } from './notification-message.js';

/** What a {@link FilteredDelivery} does with the notifications it passes, and tells. */
export interface FilteredDeliveryTarget {
  /** Sends a notification the filter selected (or a control event), in the order they came. */
  send(n: BackendNotification): void;
  /** Said once: the filter passed its bound of work on an event, which is not sent. */
  overBound(n: BackendNotification): void;
  /** More notifications wait for the filter than the client's queue may hold: it is to be disconnected. */
  overflow(): void;
}

/**
 * One event stream client's notifications on their way through its `filter` query parameter (RFC
 * 8040 section 4.8.4), in the order they came: each event is tested in steps (the codec's
 * `StepsQueue`, slices of about 5 ms with turns of the event loop between them), so that a costly
 * expression on a big event holds neither the event loop nor the other clients; a small one is
 * tested in the turn it came in. Control events wait behind the events before them. Past the
 * filter's bound of work an event is not selected (RFC 5277 section 3.6), told once. At most
 * `maxWaiting` events wait (the client's queue bound, `maxQueuedEvents`): past it the client is
 * disconnected, as one that reads too slowly is.
 */
export class FilteredDelivery {
  readonly #queue = new StepsQueue();
  readonly #filter: EventFilter;
  readonly #messages: MessageCache;
  readonly #maxWaiting: number;
  readonly #target: FilteredDeliveryTarget;
  #waiting = 0;
  #toldOverBound = false;

  constructor(
    filter: EventFilter,
    messages: MessageCache,
    maxWaiting: number,
    target: FilteredDeliveryTarget,
  ) {
    this.#filter = filter;
    this.#messages = messages;
    this.#maxWaiting = maxWaiting;
    this.#target = target;
  }

  /** Takes the next notification of the stream. */
  deliver(n: BackendNotification): void {
    if (n.control !== undefined) {
      this.#queue.afterQueued(() => this.#target.send(n));
      return;
    }
    if (this.#waiting >= this.#maxWaiting) {
      this.clear();
      this.#target.overflow();
      return;
    }
    this.#waiting++;
    this.#queue.add(this.#tested(n));
  }

  /** Resolves once what was delivered before has been sent or dropped (the stream ends after it). */
  sent(): Promise<void> {
    return new Promise((resolve) => this.#queue.afterQueued(resolve));
  }

  /** Drops what waits (the client left). */
  clear(): void {
    this.#queue.clear();
  }

  *#tested(n: BackendNotification): Steps<void> {
    let selected: boolean;
    try {
      selected = yield* this.#messages.matchesSteps(n, this.#filter);
    } catch (error) {
      if (!XPathError.isWorkLimit(error)) throw error;
      if (!this.#toldOverBound) {
        this.#toldOverBound = true;
        this.#target.overBound(n);
      }
      return;
    } finally {
      this.#waiting--;
    }
    if (selected) this.#target.send(n);
  }
}
