import { RestconfError } from '../errors.js';
import type { Subscription } from './subscription.js';
import type { SubscriptionSettings } from './subscription-options.js';

/** Counters of the subscriptions of one handler, for `/server-status` and `/metrics`. */
export interface SubscriptionStats {
  /** Subscriptions established and not ended. */
  readonly open: number;
  /** UTF-8 bytes of notifications held for receivers that have not sent their GET yet. */
  readonly queuedBytes: number;
}

/**
 * The subscriptions established through one handler, by id, and the places each user holds. A
 * place is taken before the backend is asked, so establishments in flight count too and
 * concurrent requests cannot pass a limit together.
 */
export class SubscriptionRegistry {
  readonly limits: SubscriptionSettings;
  readonly #byId = new Map<number, Subscription>();
  /** Places held by user (undefined: the unauthenticated clients, who share one user's limit). */
  readonly #held = new Map<string | undefined, number>();
  #total = 0;

  constructor(limits: SubscriptionSettings) {
    this.limits = limits;
  }

  get(id: number): Subscription | undefined {
    return this.#byId.get(id);
  }

  has(id: number): boolean {
    return this.#byId.has(id);
  }

  add(sub: Subscription): void {
    this.#byId.set(sub.id, sub);
  }

  delete(id: number): void {
    this.#byId.delete(id);
  }

  /**
   * Takes a place for one subscription of `owner`, or refuses as RFC 8639 section 2.4.6 has it:
   * `resource-denied` with the `insufficient-resources` identity (409, RFC 8650 section 3.3).
   * The returned function gives the place back (once; later calls do nothing).
   */
  reserve(owner: string | undefined): () => void {
    const held = this.#held.get(owner) ?? 0;
    if (held >= this.limits.maxPerUser)
      throw insufficientResources(`this user holds ${held} subscriptions, the most one user may hold`);
    if (this.#total >= this.limits.maxTotal)
      throw insufficientResources(`the server holds ${this.#total} subscriptions, the most it may hold`);
    this.#held.set(owner, held + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#held.get(owner) ?? 1) - 1;
      if (left === 0) this.#held.delete(owner);
      else this.#held.set(owner, left);
    };
  }

  stats(): SubscriptionStats {
    let queuedBytes = 0;
    for (const sub of this.#byId.values()) queuedBytes += sub.queuedBytes;
    return { open: this.#byId.size, queuedBytes };
  }
}

function insufficientResources(message: string): RestconfError {
  return new RestconfError('RESOURCE_DENIED', message, {
    errorType: 'application',
    errorTag: 'resource-denied',
    errorAppTag: 'ietf-subscribed-notifications:insufficient-resources',
  });
}
