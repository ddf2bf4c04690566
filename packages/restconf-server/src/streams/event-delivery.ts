import { type Steps, StepsQueue } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { XPathError } from '@yangkit/yang-xpath';
import type { BackendNotification } from '../backend.js';
import type { EventFilter } from './event-filter.js';
import type { MessageCache, MessageFormat } from './notification-message.js';

/** What an {@link EventDelivery} does with the notifications it passes, and tells. */
export interface EventDeliveryTarget {
  /**
   * Sends the SSE event of a notification the filter selected (or of a control event): `event` is
   * its bytes, shared with the other clients (see `MessageCache.eventSteps`); in the order they came.
   */
  send(n: BackendNotification, event: Uint8Array): void;
  /** A notification could not be encoded: it is not sent. */
  notEncoded(n: BackendNotification, error: unknown): void;
  /** Said once: the filter passed its bound of work on an event, which is not sent. */
  overBound(n: BackendNotification): void;
  /**
   * More notifications wait to be filtered and encoded than the client's queue may hold: it is to be
   * disconnected.
   */
  overflow(): void;
}

/** What an {@link EventDelivery} works with. */
export interface EventDeliveryOptions {
  readonly schema: SchemaTree;
  /** The client's `filter` query parameter, when it is evaluated here. */
  readonly filter: EventFilter | undefined;
  /** The encodings and filter outcomes the clients share. */
  readonly messages: MessageCache;
  readonly format: MessageFormat;
  /** Most notifications that may wait (the client's queue bound, `maxQueuedEvents`). */
  readonly maxWaiting: number;
}

/**
 * One event stream client's notifications on their way to its SSE writer, in the order they came:
 * through its `filter` query parameter (RFC 8040 section 4.8.4) when it is evaluated here, then
 * encoded to the bytes of their SSE event. Both are work in steps (the codec's `StepsQueue`, slices
 * of about 5 ms with turns of the event loop between them), shared with the other clients of the
 * event (see `MessageCache`), so that a costly expression or a big event (the config-change of a
 * big edit) holds neither the event loop nor the other clients; a small event is filtered, encoded
 * and sent in the turn it came in. Control events wait behind the events before them. Past the
 * filter's bound of work an event is not selected (RFC 5277 section 3.6), told once. At most
 * `maxWaiting` events wait: past it the client is disconnected, as one that reads too slowly is.
 */
export class EventDelivery {
  readonly #queue = new StepsQueue();
  readonly #options: EventDeliveryOptions;
  readonly #target: EventDeliveryTarget;
  #waiting = 0;
  #toldOverBound = false;

  constructor(options: EventDeliveryOptions, target: EventDeliveryTarget) {
    this.#options = options;
    this.#target = target;
  }

  /** Takes the next notification of the stream. */
  deliver(n: BackendNotification): void {
    const { filter, messages, format } = this.#options;
    if (this.#queue.size === 0 && (filter === undefined || n.control !== undefined)) {
      // Nothing to wait for: sent at once when another client encoded it (most clients of a feed).
      const event = messages.encodedEvent(n, format);
      if (event !== undefined) {
        this.#target.send(n, event);
        return;
      }
    }
    if (n.control !== undefined) {
      this.#queue.add(this.#encoded(n));
      return;
    }
    if (this.#waiting >= this.#options.maxWaiting) {
      this.clear();
      this.#target.overflow();
      return;
    }
    this.#waiting++;
    this.#queue.add(this.#passed(n));
  }

  /** Resolves once what was delivered before has been sent or dropped (the stream ends after it). */
  sent(): Promise<void> {
    return new Promise((resolve) => this.#queue.afterQueued(resolve));
  }

  /** Drops what waits (the client left). */
  clear(): void {
    this.#queue.clear();
  }

  *#passed(n: BackendNotification): Steps<void> {
    try {
      if (yield* this.#selected(n)) yield* this.#encoded(n);
    } finally {
      this.#waiting--;
    }
  }

  /** Whether the filter (if any) selects `n`; false past its bound of work, told once. */
  *#selected(n: BackendNotification): Steps<boolean> {
    const filter = this.#options.filter;
    if (filter === undefined) return true;
    try {
      return yield* this.#options.messages.matchesSteps(n, filter);
    } catch (error) {
      if (!XPathError.isWorkLimit(error)) throw error;
      if (!this.#toldOverBound) {
        this.#toldOverBound = true;
        this.#target.overBound(n);
      }
      return false;
    }
  }

  *#encoded(n: BackendNotification): Steps<void> {
    const { messages, schema, format } = this.#options;
    let event: Uint8Array;
    try {
      event = yield* messages.eventSteps(schema, n, format);
    } catch (error) {
      this.#target.notEncoded(n, error);
      return;
    }
    this.#target.send(n, event);
  }
}
