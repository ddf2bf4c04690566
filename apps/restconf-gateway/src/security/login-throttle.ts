/** Failed logins from one client address before it has to wait, by default. */
export const LOGIN_FAILURES_PER_ADDRESS = 10;
/** Failed logins for one user name before addresses it has not logged in from wait, by default. */
export const LOGIN_FAILURES_PER_USER = 30;
/** Logins one client address may have being checked at once. */
export const LOGINS_IN_PROGRESS_PER_ADDRESS = 2;
/** Failures are forgotten after this long without one (on top of the last wait). */
const WINDOW_MS = 60_000;
/** The first wait once the failures reach the budget; each further failure doubles it. */
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15 * 60_000;
/** Addresses, user names and trusted pairs remembered at most (the oldest are forgotten). */
const MAX_TRACKED = 10_000;

/** Budgets of {@link LoginThrottle}. */
export interface LoginLimits {
  /** Failed logins from one address (an IPv6 address by its /64) before it waits. */
  readonly failuresPerAddress?: number;
  /** Failed logins for one user name before addresses it has not logged in from wait. */
  readonly failuresPerUser?: number;
  /** Logins one address may have being checked at once. */
  readonly inProgressPerAddress?: number;
}

/** How a login that was let through ended. */
export type LoginOutcome = 'success' | 'failure' | 'unchecked';

interface Failures {
  count: number;
  /** When the last one happened (ms). */
  last: number;
}

/** The wait after `count` failures against a budget of `budget`. */
function waitAfter(count: number, budget: number): number {
  if (count < budget) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (count - budget), LONGEST_WAIT_MS);
}

/** Moves `key` to the end of `map` (most recent), forgetting the oldest entry past the bound. */
function touch<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_TRACKED) map.delete(map.keys().next().value as K);
}

/**
 * The key an address is counted by: an IPv4 address (also IPv4-mapped IPv6) as it is, an IPv6
 * address by its /64 prefix, the smallest block one client is normally given.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return '';
  const bare = address.replace(/%.*$/, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (!bare.includes(':')) return bare;
  const [head = '', tail] = bare.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Slows repeated failed logins without locking anyone out. An address that failed
 * `failuresPerAddress` times waits 1 s, then twice as long after each further failure (at most
 * 15 min), until it has not failed for a minute beyond its last wait; an address may have
 * `inProgressPerAddress` logins being checked at once. A user name that failed `failuresPerUser`
 * times (from any addresses, as an attack spread over many does) makes the same waits apply to
 * logins for it from addresses it has not logged in from; addresses it has logged in from are not
 * held back, so its owner keeps getting in. Unknown user names count like known ones, so the
 * answers do not tell which exist. A wait is refused, never queued: it costs the server nothing.
 */
export class LoginThrottle {
  private readonly byAddress = new Map<string, Failures>();
  private readonly byUser = new Map<string, Failures>();
  private readonly inProgress = new Map<string, number>();
  /** `user\0address` pairs that logged in. */
  private readonly trusted = new Map<string, true>();
  private readonly perAddress: number;
  private readonly perUser: number;
  private readonly concurrent: number;

  constructor(
    limits: LoginLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.perAddress = limits.failuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS;
    this.perUser = limits.failuresPerUser ?? LOGIN_FAILURES_PER_USER;
    this.concurrent = limits.inProgressPerAddress ?? LOGINS_IN_PROGRESS_PER_ADDRESS;
  }

  /**
   * Whether a login for `user` from `address` may be checked now: 0 when it may (it then counts
   * as in progress until {@link settle}), else the seconds to wait (for `Retry-After`).
   */
  admit(address: string, user: string): number {
    const key = addressKey(address);
    let waitMs = this.waiting(this.byAddress, key, this.perAddress);
    if (!this.trusted.has(`${user}\0${key}`))
      waitMs = Math.max(waitMs, this.waiting(this.byUser, user, this.perUser));
    if (waitMs > 0) return Math.ceil(waitMs / 1000);
    const open = this.inProgress.get(key) ?? 0;
    if (open >= this.concurrent) return 1;
    this.inProgress.set(key, open + 1);
    return 0;
  }

  /** Ends a login that {@link admit} let through. */
  settle(address: string, user: string, outcome: LoginOutcome): void {
    const key = addressKey(address);
    const open = (this.inProgress.get(key) ?? 1) - 1;
    if (open <= 0) this.inProgress.delete(key);
    else this.inProgress.set(key, open);
    // A success does not clear failures: a client with an account of its own could otherwise
    // reset its budget between guesses at another's.
    if (outcome === 'success') touch(this.trusted, `${user}\0${key}`, true);
    else if (outcome === 'failure') {
      this.fail(this.byAddress, key, this.perAddress);
      this.fail(this.byUser, user, this.perUser);
    }
  }

  /** Milliseconds `key` still has to wait. */
  private waiting(map: Map<string, Failures>, key: string, budget: number): number {
    const f = map.get(key);
    if (f === undefined) return 0;
    const wait = waitAfter(f.count, budget);
    const now = this.now();
    if (now - f.last > WINDOW_MS + wait) {
      map.delete(key);
      return 0;
    }
    return Math.max(0, f.last + wait - now);
  }

  private fail(map: Map<string, Failures>, key: string, budget: number): void {
    const now = this.now();
    const f = map.get(key);
    const fresh = f === undefined || now - f.last > WINDOW_MS + waitAfter(f.count, budget);
    touch(map, key, { count: fresh ? 1 : f.count + 1, last: now });
  }
}
