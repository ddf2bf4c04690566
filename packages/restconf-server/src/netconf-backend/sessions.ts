import { NetconfError, type NetconfSession } from '@yangkit/netconf-client';
import { type BackendStats, EditError } from '../backend.js';
import { RestconfError } from '../errors.js';

/**
 * Opens a new NETCONF session (an SSH channel, an in-process duplex, ...) for `user`, the
 * request's authenticated user; undefined for the backend's own sessions and for requests without
 * authentication.
 */
export type SessionFactory = (user?: string) => Promise<NetconfSession>;

/** What one request may do with its session afterwards. */
export interface SessionUse {
  /**
   * False when the request took state that must die with it (a lock, uncommitted candidate
   * changes after a failure): the session is closed instead of reused.
   */
  reusable: boolean;
}

/** A session kept for reuse by requests of its user. */
interface Idle {
  readonly user: string | undefined;
  readonly session: NetconfSession;
}

/**
 * The NETCONF sessions of one backend: a session per request from the factory, opened for the
 * request's user; idle sessions are reused by later requests of the same user when a request
 * left no state behind, the oldest closed beyond `maxIdle`. The ids of every session it opened
 * tell this backend's changes from other clients' (the change watch).
 */
export class Sessions {
  readonly #open: SessionFactory;
  readonly #maxIdle: number;
  /** Oldest first. */
  readonly #idle: Idle[] = [];
  readonly #own = new Set<number>();
  #active = 0;
  #closed = false;

  constructor(open: SessionFactory, maxIdle: number) {
    this.#open = open;
    this.#maxIdle = maxIdle;
  }

  /** A new session for `user` (undefined: the backend's own), `ready` passed. */
  async open(user?: string): Promise<NetconfSession> {
    const s = await this.#open(user);
    await s.ready;
    this.#own.add(s.sessionId);
    const forget = (): boolean => this.#own.delete(s.sessionId);
    s.closed.then(forget, forget);
    return s;
  }

  /** Ends a session the backend no longer keeps: `<close-session>`, else at once. */
  async dispose(s: NetconfSession): Promise<void> {
    await s.close().catch(() => s.destroy());
  }

  /** Keeps a session for the next request of `user`, closing the oldest idle one beyond the bound. */
  keep(session: NetconfSession, user?: string): void {
    this.#idle.push({ user, session });
    if (this.#idle.length > this.#maxIdle) void this.dispose(this.#idle.shift()!.session);
  }

  /** True when `sessionId` is one of this backend's sessions. */
  owns(sessionId: number): boolean {
    return this.#own.has(sessionId);
  }

  /**
   * Runs `fn` with a session of its own for `user`; the session is reused or closed according to
   * `use`.
   */
  async use<T>(
    user: string | undefined,
    fn: (session: NetconfSession, use: SessionUse) => Promise<T>,
  ): Promise<T> {
    const session = this.#takeIdle(user) ?? (await this.open(user));
    this.#active++;
    const use: SessionUse = { reusable: true };
    try {
      return await fn(session, use);
    } catch (error) {
      throw lostDuring(error, session);
    } finally {
      this.#active--;
      if (!this.#closed && use.reusable && session.endReason === undefined) this.keep(session, user);
      else if (session.endReason === undefined) void this.dispose(session);
    }
  }

  stats(): BackendStats {
    return { sessions: this.#own.size, idle: this.#idle.length, active: this.#active };
  }

  /** Closes the idle sessions; sessions in use end when their request does. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((i) => this.dispose(i.session)));
  }

  /** The newest idle session of `user` that is still open, dropping the ones that ended while idle (server lost). */
  #takeIdle(user: string | undefined): NetconfSession | undefined {
    for (let i = this.#idle.length - 1; i >= 0; i--) {
      const idle = this.#idle[i]!;
      if (idle.session.endReason !== undefined) this.#idle.splice(i, 1);
      else if (idle.user === user) {
        this.#idle.splice(i, 1);
        return idle.session;
      }
    }
    return undefined;
  }
}

/**
 * A request whose session was lost with its transport while it ran (the server or the connection
 * went away) cannot tell whether the server carried out what it sent: 503, saying so, rather than
 * the bare transport error.
 */
function lostDuring(error: unknown, session: NetconfSession): unknown {
  // The loss is not the fault of the edit it happened in.
  const cause = error instanceof EditError ? error.cause : error;
  if (!NetconfError.isInstance(cause) || cause.code !== 'SESSION_CLOSED') return error;
  if (session.endReason?.reason !== 'transport-closed') return error;
  return new RestconfError(
    'BACKEND_FAILED',
    'the connection to the NETCONF server was lost during the request: an edit it carried may or may not have been applied',
    { errorType: 'transport', errorTag: 'operation-failed', reason: 'unavailable', cause },
  );
}
