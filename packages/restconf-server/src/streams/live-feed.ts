import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import type { NetconfBackend } from '../netconf-backend/index.js';

/** A client of a live feed. */
export interface FeedSubscriber {
  /** One notification of the stream, in the order the backend sent them. */
  deliver(n: NetconfNotification): void;
  /** The feed ended (the backend session is gone): the client may reconnect. */
  end(): void;
}

interface Feed {
  readonly subscribers: Set<FeedSubscriber>;
  readonly started: Promise<void>;
  session: NetconfSession | undefined;
  ending: boolean;
}

/**
 * The key of a feed: its stream and the user its clients were authenticated as. Notifications are
 * subject to access control per user (RFC 8341 section 3.4.6), so users never share a feed;
 * without authentication every client has the same (anonymous) key.
 */
function feedKey(requester: string | undefined, stream: string): string {
  return JSON.stringify([requester ?? null, stream]);
}

/**
 * Live (non-replay) subscriptions shared per stream and user: the first client of a stream opens
 * a NETCONF session with `<create-subscription>`; later clients of the same user join it; the
 * session ends as soon as the last client leaves. The session is opened in the context of the
 * first client's request, so a backend that opens sessions as the request's user (the gateway's
 * `runAs` with NACM) opens it as that user and its server filters the events for that user.
 * Every client still has its own SSE writer and bounded queue, so one slow client never holds the
 * others back, and one NETCONF message is parsed once per feed, not per client.
 */
export class LiveFeeds {
  readonly #backend: NetconfBackend;
  readonly #feeds = new Map<string, Feed>();

  constructor(backend: NetconfBackend) {
    this.#backend = backend;
  }

  /** NETCONF sessions held by live feeds now. */
  get sessions(): number {
    return this.#feeds.size;
  }

  /**
   * Joins the feed of `stream` for `requester` (the request's authenticated user, undefined
   * without authentication); resolves with `leave` once the subscription is made.
   */
  async join(stream: string, requester: string | undefined, subscriber: FeedSubscriber): Promise<() => void> {
    const key = feedKey(requester, stream);
    let feed = this.#feeds.get(key);
    if (feed === undefined || feed.ending) {
      feed = this.#start(key, stream, requester);
      this.#feeds.set(key, feed);
    }
    feed.subscribers.add(subscriber);
    try {
      await feed.started;
    } catch (error) {
      feed.subscribers.delete(subscriber);
      throw error;
    }
    const joined = feed;
    return () => {
      joined.subscribers.delete(subscriber);
      if (joined.subscribers.size === 0) this.#end(key, joined);
    };
  }

  #start(key: string, stream: string, requester: string | undefined): Feed {
    let started!: () => void;
    let failed!: (error: unknown) => void;
    const feed: Feed = {
      subscribers: new Set(),
      started: new Promise<void>((resolve, reject) => {
        started = resolve;
        failed = reject;
      }),
      session: undefined,
      ending: false,
    };
    this.#backend.legacy
      .withSession(async (session, use) => {
        // The subscription lives as long as the session (RFC 5277 section 2.1.1): never reuse it.
        use.reusable = false;
        feed.session = session;
        const events = session.notifications();
        await session.createSubscription({ stream });
        started();
        if (feed.subscribers.size === 0) this.#end(key, feed);
        for await (const n of events) {
          for (const subscriber of [...feed.subscribers]) subscriber.deliver(n);
        }
      }, requester)
      .catch(failed)
      .finally(() => {
        feed.ending = true;
        if (this.#feeds.get(key) === feed) this.#feeds.delete(key);
        for (const subscriber of [...feed.subscribers]) subscriber.end();
        feed.subscribers.clear();
      });
    return feed;
  }

  #end(key: string, feed: Feed): void {
    feed.ending = true;
    if (this.#feeds.get(key) === feed) this.#feeds.delete(key);
    const session = feed.session;
    if (session !== undefined && session.endReason === undefined) {
      void session.close().catch(() => session.destroy());
    }
  }
}
