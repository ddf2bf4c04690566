import type { Backend, BackendNotification, BackendSubscription } from '../backend.js';

/** A client of a live feed. */
export interface FeedSubscriber {
  /** One notification of the stream, in the order the backend sent them. */
  deliver(n: BackendNotification): void;
  /** The feed ended (the backend's subscription is gone): the client may reconnect. */
  end(): void;
}

interface Feed {
  readonly subscribers: Set<FeedSubscriber>;
  readonly started: Promise<void>;
  subscription: BackendSubscription | undefined;
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
 * Live (non-replay) subscriptions shared per stream and user: the first client of a stream
 * subscribes through the backend as its user, so the backend filters the events for that user;
 * later clients of the same user join it; the subscription ends as soon as the last client
 * leaves. Every client still has its own SSE writer and bounded queue, so one slow client never
 * holds the others back, and one notification is decoded once per feed, not per client.
 */
export class LiveFeeds {
  readonly #backend: Backend;
  readonly #feeds = new Map<string, Feed>();

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  /** Subscriptions held by live feeds now. */
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
      subscription: undefined,
      ending: false,
    };
    this.#backend
      .subscribe({ stream, user: requester })
      .then(async (subscription) => {
        feed.subscription = subscription;
        started();
        if (feed.subscribers.size === 0) this.#end(key, feed);
        for await (const n of subscription) {
          for (const subscriber of [...feed.subscribers]) subscriber.deliver(n);
        }
      })
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
    feed.subscription?.close();
  }
}
