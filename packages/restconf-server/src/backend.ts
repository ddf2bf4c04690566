import type { Capabilities, NetconfSession } from '@yangkit/netconf-client';
import { NetconfError } from '@yangkit/netconf-client';
import { childElement, textOf } from '@yangkit/xml';
import { RestconfError } from './errors.js';

/** Opens a new NETCONF session (an SSH channel, an in-process duplex, ...); `ready` already passed. */
export type SessionFactory = (user?: string) => Promise<NetconfSession>;

/** Options of {@link createBackend}. */
export interface BackendOptions {
  /** Where sessions come from. */
  readonly openSession: SessionFactory;
  /**
   * Ends a session the backend no longer keeps (default: `<close-session>`, then destroy). With a
   * netconf-client pool as the factory, pass `(s) => pool.release(s)`.
   */
  readonly closeSession?: (session: NetconfSession) => Promise<void>;
  /** Idle sessions kept for reuse (default 8). */
  readonly maxIdle?: number;
  /**
   * Subscribe once to the backend's NETCONF event stream and report `netconf-config-change`
   * events of other clients through `onExternalChange` (default true when the backend has
   * `:notification`). A subscription lost with its server is made again by the next request
   * that reaches the server, which also reports one change of running (edits made meanwhile
   * went unseen).
   */
  readonly watchChanges?: boolean;
}

/** What one request may do with its session afterwards. */
export interface SessionUse {
  /**
   * False when the request took state that must die with it (a lock, uncommitted candidate
   * changes after a failure): the session is closed instead of reused.
   */
  reusable: boolean;
}

/** Counters for `/server-status` and metrics. */
export interface BackendStats {
  /** NETCONF sessions open now (in use, idle and the change watcher). */
  readonly sessions: number;
  readonly idle: number;
  readonly active: number;
}

/**
 * The handler's only way to the NETCONF server: sessions per request from a factory, with idle
 * sessions reused when a request left no state behind (DESIGN.md "Sessions"), the server's
 * capabilities, and change notifications from other clients.
 */
export interface Backend {
  /** Learns the capabilities and starts the change watcher; called once by the handler. */
  start(): Promise<void>;
  /** The backend's `<hello>` capabilities (after `start`). */
  readonly capabilities: Capabilities;
  /** Runs `fn` with a session of its own; the session is reused or closed according to `use`. */
  withSession<T>(fn: (session: NetconfSession, use: SessionUse) => Promise<T>): Promise<T>;
  /** True when `sessionId` is one of this backend's sessions. */
  ownsSession(sessionId: number): boolean;
  /** Registers the listener for configuration changes made by other NETCONF clients. */
  onExternalChange(listener: (datastore: string) => void): void;
  stats(): BackendStats;
  /** Closes every session. */
  close(): Promise<void>;
}

const NOTIF_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';

/** Creates the {@link Backend} over a session factory. */
export function createBackend(options: BackendOptions): Backend {
  const maxIdle = options.maxIdle ?? 8;
  const idle: NetconfSession[] = [];
  const own = new Set<number>();
  const listeners: ((datastore: string) => void)[] = [];
  let caps: Capabilities | undefined;
  let active = 0;
  let watcher: NetconfSession | undefined;
  /** True while the change watcher should run but has no session (it was lost with its server). */
  let rewatch = false;
  let closed = false;

  async function open(): Promise<NetconfSession> {
    const s = await options.openSession();
    await s.ready;
    own.add(s.sessionId);
    s.closed.then(
      () => own.delete(s.sessionId),
      () => own.delete(s.sessionId),
    );
    return s;
  }

  function dispose(s: NetconfSession): Promise<void> {
    const end = options.closeSession ?? ((x: NetconfSession) => x.close().then(() => undefined));
    return end(s).catch(() => s.destroy());
  }

  /** Subscribes to the NETCONF stream; resolves once the subscription is made, then reads in the background. */
  async function watch(): Promise<void> {
    const s = await open();
    watcher = s;
    try {
      await s.createSubscription({});
    } catch (error) {
      watcher = undefined;
      void dispose(s);
      throw error;
    }
    void (async () => {
      for await (const n of s.notifications()) {
        const change = childElement(n.element, 'netconf-config-change', NOTIF_NS);
        if (change === undefined) continue;
        const by = childElement(change, 'changed-by', NOTIF_NS);
        const sid = by === undefined ? undefined : childElement(by, 'session-id', NOTIF_NS);
        if (sid !== undefined && own.has(Number(textOf(sid)))) continue;
        const ds = childElement(change, 'datastore', NOTIF_NS);
        const name = ds === undefined ? 'running' : textOf(ds).trim();
        for (const l of listeners) l(name);
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        // The watcher session ended (the server went away): subscribe again once a request
        // reaches the server; until then tags move on this handler's own edits only.
        if (watcher === s) watcher = undefined;
        if (!closed) rewatch = true;
      });
  }

  /**
   * Subscribes again after the watcher was lost; a failure leaves it for the next request. Changes
   * made while nobody watched went unseen, so listeners hear of one change of running.
   */
  function restartWatch(): void {
    rewatch = false;
    watch().then(
      () => {
        for (const l of listeners) l('running');
      },
      () => {
        if (!closed) rewatch = true;
      },
    );
  }

  /** An idle session that is still open, dropping the ones that ended while idle (server lost). */
  function takeIdle(): NetconfSession | undefined {
    for (let s = idle.pop(); s !== undefined; s = idle.pop()) if (s.endReason === undefined) return s;
    return undefined;
  }

  return {
    async start() {
      const s = await open();
      caps = s.capabilities;
      idle.push(s);
      const wanted = options.watchChanges ?? true;
      if (wanted && caps.protocol.has('notification')) {
        try {
          await watch();
        } catch {
          // A backend that refuses the subscription: tags move on this handler's own edits only.
          watcher = undefined;
        }
      }
    },
    get capabilities(): Capabilities {
      if (caps === undefined) {
        throw new RestconfError('BACKEND_FAILED', 'the NETCONF backend has not started', {
          errorType: 'transport',
          errorTag: 'operation-failed',
          status: 503,
        });
      }
      return caps;
    },
    async withSession(fn) {
      const session = takeIdle() ?? (await open());
      if (rewatch && !closed) restartWatch();
      active++;
      const use: SessionUse = { reusable: true };
      try {
        const result = await fn(session, use);
        return result;
      } catch (error) {
        throw lostDuring(error, session);
      } finally {
        active--;
        if (!closed && use.reusable && session.endReason === undefined && idle.length < maxIdle)
          idle.push(session);
        else if (session.endReason === undefined) void dispose(session);
      }
    },
    ownsSession: (id) => own.has(id),
    onExternalChange(listener) {
      listeners.push(listener);
    },
    stats: () => ({ sessions: own.size, idle: idle.length, active }),
    async close() {
      closed = true;
      const all = idle.splice(0);
      if (watcher !== undefined) all.push(watcher);
      await Promise.all(all.map(dispose));
    },
  };
}

/**
 * A request whose session was lost with its transport while it ran (the server or the connection
 * went away) cannot tell whether the server carried out what it sent: 503, saying so, rather than
 * the bare transport error.
 */
function lostDuring(error: unknown, session: NetconfSession): unknown {
  if (!NetconfError.isInstance(error) || error.code !== 'SESSION_CLOSED') return error;
  if (session.endReason?.reason !== 'transport-closed') return error;
  return new RestconfError(
    'BACKEND_FAILED',
    'the connection to the NETCONF server was lost during the request: an edit it carried may or may not have been applied',
    { errorType: 'transport', errorTag: 'operation-failed', status: 503, cause: error },
  );
}
