import type { NetconfSession } from './client.js';
import { NetconfError } from './errors.js';
import type { SessionOptions } from './session.js';
import { SshConnection, type SshOptions } from './transport-ssh.js';

/** Exponential backoff between reconnect attempts. */
export interface BackoffOptions {
  /** Delay after the first failure, in ms (default 100). */
  initialDelay?: number;
  /** Upper bound of the delay, in ms (default 10 000). */
  maxDelay?: number;
  /** Growth factor per consecutive failure (default 2). */
  factor?: number;
}

/** Options of {@link createPool}: where to connect, plus the pool's bounds. */
export interface PoolOptions extends SshOptions, SessionOptions {
  /** SSH connections kept to the host at most (default 2). */
  maxConnections?: number;
  /** NETCONF sessions (channels) per SSH connection at most (default 8; OpenSSH's MaxSessions is 10). */
  maxSessionsPerConnection?: number;
  /** How long `acquire()` may wait for a free slot or a reconnect, in ms (default 10 000). */
  acquireTimeout?: number;
  backoff?: BackoffOptions;
}

/** Counters of a pool, for monitoring. */
export interface PoolStats {
  connections: number;
  /** Sessions handed out and not yet released. */
  active: number;
  /** Released sessions kept for reuse. */
  idle: number;
  /** `acquire()` calls waiting for a slot. */
  waiting: number;
}

/** A bounded pool of NETCONF sessions over warm SSH connections to one host. */
export interface NetconfPool {
  /**
   * A session: an idle one kept for reuse, else a new `netconf` channel on a warm connection,
   * else a new connection; waits when the pool is full.
   */
  acquire(): Promise<NetconfSession>;
  /**
   * Gives a session back. By default it is closed (`<close-session>`), so locks and other
   * session state end with the request; `reuse: true` keeps it for the next `acquire()`.
   */
  release(session: NetconfSession, options?: { reuse?: boolean }): Promise<void>;
  /** Runs `fn` with a session and releases it afterwards, whatever happens. */
  withSession<T>(fn: (session: NetconfSession) => Promise<T>, options?: { reuse?: boolean }): Promise<T>;
  /** Closes every session and connection; later `acquire()` calls fail with `POOL_CLOSED`. */
  close(): Promise<void>;
  stats(): PoolStats;
}

/** The delay before reconnect attempt `failures + 1` (0 when there was no failure). */
export function backoffDelay(failures: number, options: BackoffOptions = {}): number {
  if (failures <= 0) return 0;
  const initial = options.initialDelay ?? 100;
  const max = options.maxDelay ?? 10_000;
  return Math.min(max, initial * (options.factor ?? 2) ** (failures - 1));
}

const PERMANENT: ReadonlySet<string> = new Set([
  'AUTH_FAILED',
  'HOST_KEY_MISMATCH',
  'HOST_KEY_UNKNOWN',
  'INVALID_ARGUMENT',
]);

interface Slot {
  connection: SshConnection;
  /** Sessions open or opening on this connection. */
  used: number;
}

/** Creates a session pool for one NETCONF server over SSH (see {@link NetconfPool}). */
export function createPool(options: PoolOptions): NetconfPool {
  const maxConnections = options.maxConnections ?? 2;
  const perConnection = options.maxSessionsPerConnection ?? 8;
  const acquireTimeout = options.acquireTimeout ?? 10_000;
  const connectOptions: SshOptions = { keepaliveInterval: 15_000, ...options };
  const slots: Slot[] = [];
  const idle: NetconfSession[] = [];
  const owner = new Map<NetconfSession, Slot>();
  const waiters: Array<() => void> = [];
  let connecting: Promise<Slot> | undefined;
  let failures = 0;
  let nextAttempt = 0;
  let closed = false;

  // Capacity changed: every waiter re-checks (a new connection has room for several of them).
  const wake = () => {
    for (const wakeUp of waiters.splice(0)) wakeUp();
  };

  function trackSession(session: NetconfSession, slot: Slot): NetconfSession {
    owner.set(session, slot);
    session.once('close', () => {
      owner.delete(session);
      const at = idle.indexOf(session);
      if (at !== -1) idle.splice(at, 1);
      slot.used--;
      wake();
    });
    return session;
  }

  // One connection attempt at a time: concurrent acquires share it instead of each dialing.
  function connect(): Promise<Slot> {
    connecting ??= dial().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function dial(): Promise<Slot> {
    try {
      const wait = nextAttempt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const connection = await SshConnection.connect(connectOptions);
      if (closed) {
        connection.destroy();
        throw new NetconfError('POOL_CLOSED', 'the pool was closed while connecting');
      }
      failures = 0;
      const slot: Slot = { connection, used: 0 };
      slots.push(slot);
      queueMicrotask(wake);
      connection.once('close', () => {
        const at = slots.indexOf(slot);
        if (at !== -1) slots.splice(at, 1);
        // The server went away: the next connection attempt backs off from now.
        if (!closed) {
          failures++;
          nextAttempt = Date.now() + backoffDelay(failures, options.backoff);
        }
        wake();
      });
      return slot;
    } catch (error) {
      failures++;
      nextAttempt = Date.now() + backoffDelay(failures, options.backoff);
      throw error;
    }
  }

  async function openOn(slot: Slot): Promise<NetconfSession> {
    slot.used++;
    try {
      return trackSession(await slot.connection.openSession(options), slot);
    } catch (error) {
      slot.used--;
      wake();
      throw error;
    }
  }

  async function tryAcquire(): Promise<NetconfSession | undefined> {
    while (idle.length > 0) {
      const session = idle.pop()!;
      if (session.endReason === undefined) return session;
    }
    for (;;) {
      const slot = slots.find((s) => !s.connection.closed && s.used < perConnection);
      if (slot) return openOn(slot);
      if (connecting === undefined && slots.length >= maxConnections) return undefined;
      // Wait for the connection being dialed (or dial one), then look for room again.
      await connect();
    }
  }

  const pool: NetconfPool = {
    async acquire() {
      const deadline = Date.now() + acquireTimeout;
      let lastError: unknown;
      for (;;) {
        if (closed) throw new NetconfError('POOL_CLOSED', 'the pool is closed');
        try {
          const session = await tryAcquire();
          if (session) return session;
        } catch (error) {
          lastError = error;
          if (NetconfError.isInstance(error) && PERMANENT.has(error.code)) throw error;
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          if (lastError) throw lastError;
          throw new NetconfError('ACQUIRE_TIMEOUT', `no pooled session within ${acquireTimeout} ms`);
        }
        // Wait for a released slot, a lost connection or the next reconnect attempt.
        await new Promise<void>((resolve) => {
          const retryIn = lastError ? Math.max(0, nextAttempt - Date.now()) : remaining;
          const timer = setTimeout(done, Math.min(remaining, retryIn));
          function done() {
            clearTimeout(timer);
            const at = waiters.indexOf(done);
            if (at !== -1) waiters.splice(at, 1);
            resolve();
          }
          waiters.push(done);
        });
      }
    },

    async release(session, releaseOptions = {}) {
      if (!owner.has(session) || idle.includes(session)) return;
      if (releaseOptions.reuse && !closed && session.endReason === undefined && session.inFlight === 0) {
        idle.push(session);
        wake();
        return;
      }
      await session.close();
    },

    async withSession(fn, releaseOptions) {
      const session = await pool.acquire();
      try {
        return await fn(session);
      } finally {
        await pool.release(session, releaseOptions);
      }
    },

    async close() {
      closed = true;
      for (const wakeUp of waiters.splice(0)) wakeUp();
      await Promise.all(slots.map((s) => s.connection.close()));
    },

    stats() {
      return {
        connections: slots.length,
        active: owner.size - idle.length,
        idle: idle.length,
        waiting: waiters.length,
      };
    },
  };
  return pool;
}
