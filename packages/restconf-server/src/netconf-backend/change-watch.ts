import type { NetconfSession } from '@yangkit/netconf-client';
import { childElement, textOf } from '@yangkit/xml';
import type { Sessions } from './sessions.js';

const NOTIF_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';

/**
 * One RFC 5277 subscription to the backend's `NETCONF` stream that reports the
 * `netconf-config-change` events (RFC 6470) of other clients' sessions. A subscription lost with
 * its server is made again by the next request that reaches the server, which also reports one
 * change of running (edits made meanwhile went unseen).
 */
export class ChangeWatch {
  readonly #sessions: Sessions;
  readonly #report: (datastore: string) => void;
  #session: NetconfSession | undefined;
  /** True while the watch should run but has no session (it was lost with its server). */
  #lost = false;
  #closed = false;

  constructor(sessions: Sessions, report: (datastore: string) => void) {
    this.#sessions = sessions;
    this.#report = report;
  }

  /** Subscribes; resolves once the subscription is made, then reads in the background. */
  async start(): Promise<void> {
    const s = await this.#sessions.open();
    this.#session = s;
    try {
      await s.createSubscription({});
    } catch (error) {
      this.#session = undefined;
      void this.#sessions.dispose(s);
      throw error;
    }
    void this.#read(s)
      .catch(() => undefined)
      .finally(() => {
        // The watch session ended (the server went away): subscribe again once a request reaches
        // the server; until then tags move on this backend's own edits only.
        if (this.#session === s) this.#session = undefined;
        if (!this.#closed) this.#lost = true;
      });
  }

  /**
   * Subscribes again after the watch was lost (called as a request reaches the server); a failure
   * leaves it for the next request. Changes made while nobody watched went unseen, so one change
   * of running is reported.
   */
  resume(): void {
    if (!this.#lost || this.#closed) return;
    this.#lost = false;
    this.start().then(
      () => this.#report('running'),
      () => {
        if (!this.#closed) this.#lost = true;
      },
    );
  }

  /** Ends the subscription. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#session !== undefined) await this.#sessions.dispose(this.#session);
  }

  async #read(s: NetconfSession): Promise<void> {
    for await (const n of s.notifications()) {
      const change = childElement(n.element, 'netconf-config-change', NOTIF_NS);
      if (change === undefined) continue;
      const by = childElement(change, 'changed-by', NOTIF_NS);
      const sid = by === undefined ? undefined : childElement(by, 'session-id', NOTIF_NS);
      if (sid !== undefined && this.#sessions.owns(Number(textOf(sid)))) continue;
      const ds = childElement(change, 'datastore', NOTIF_NS);
      this.#report(ds === undefined ? 'running' : textOf(ds).trim());
    }
  }
}
