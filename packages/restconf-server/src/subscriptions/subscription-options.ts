import { RestconfError } from '../errors.js';

/** Limits of the RFC 8639/8650 subscriptions established through `createRestconfHandler`. */
export interface SubscriptionOptions {
  /** Subscriptions one user may hold at once; establish-subscription past it is refused (default 8). */
  readonly maxPerUser?: number;
  /** Subscriptions all users together may hold at once (default 64). */
  readonly maxTotal?: number;
  /** Seconds an established subscription waits for the GET on its uri before it ends (default 60). */
  readonly receiveWithinSeconds?: number;
  /**
   * Users who see every subscription in the `subscriptions` state, e.g. the NACM recovery user;
   * any other user sees only those it established (default none).
   */
  readonly admins?: readonly string[];
}

/** {@link SubscriptionOptions} with every default filled in. */
export interface SubscriptionSettings {
  readonly maxPerUser: number;
  readonly maxTotal: number;
  readonly receiveWithinMs: number;
  readonly admins: ReadonlySet<string>;
}

/** The defaults of {@link SubscriptionOptions}. */
export const SUBSCRIPTION_DEFAULTS = { maxPerUser: 8, maxTotal: 64, receiveWithinSeconds: 60 } as const;

/** Checks and completes the subscription options; a value that is not a positive integer is `INVALID_OPTION`. */
export function subscriptionSettings(options: SubscriptionOptions = {}): SubscriptionSettings {
  const positive = (name: keyof typeof SUBSCRIPTION_DEFAULTS): number => {
    const value = options[name] ?? SUBSCRIPTION_DEFAULTS[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RestconfError('INVALID_OPTION', `subscriptions.${name} ${value} is not a positive integer`, {
        errorTag: 'invalid-value',
      });
    }
    return value;
  };
  return {
    maxPerUser: positive('maxPerUser'),
    maxTotal: positive('maxTotal'),
    receiveWithinMs: positive('receiveWithinSeconds') * 1000,
    admins: new Set(options.admins ?? []),
  };
}
