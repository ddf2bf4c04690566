import { getHeapStatistics } from 'node:v8';
import { ConcurrencyLimit, type ReleaseSlot } from './concurrency-limit.js';
import { RestconfError } from './errors.js';
import type { IdleCollection } from './idle-collection.js';
import type { Responder } from './response.js';

/**
 * Default bounds of the request bodies held at once, across all clients (`maxBodiesDecoding`,
 * `maxBodiesWaiting`), and of the V8 heap in use, in percent of its limit, above which a big body
 * is refused (`maxHeapPercent`). Decoding is CPU work on the one JavaScript thread, so more than
 * two at once only share that thread while each holds its text and tree in memory. A big body
 * costs many times its size in heap while it is decoded and applied, so none starts with little
 * heap left.
 */
export const BODY_ADMISSION_DEFAULTS = { maxDecoding: 2, maxWaiting: 16, maxHeapPercent: 70 } as const;

/**
 * A body whose Content-Length declares at most this many bytes is read without waiting for a
 * slot (and refused with 413 past it): ordinary edits never queue behind, or get 503 because of,
 * uploads of megabytes. What such bodies hold is bounded by the requests each client may have
 * in progress (a 64 KiB body holds about 1 MB while it is handled).
 */
export const SMALL_BODY_BYTES = 64 * 1024;

/** Counts of the body admission, for `/metrics`. */
export interface BodyAdmissionStats {
  /** Bodies holding a slot: being read, decoded or applied. */
  readonly decoding: number;
  /** Bodies waiting for a slot, none of their bytes read. */
  readonly waiting: number;
  /**
   * Requests answered 503 because the queue was full or the heap above its ceiling, or 429 past
   * their client's share, since the start.
   */
  readonly refused: number;
  /** Full garbage collections run once the gateway was quiet (see {@link IdleCollection}). */
  readonly collections: number;
  /** Collections of the young generation run once the gateway was quiet, to shrink it. */
  readonly youngCollections: number;
}

/** One request's claim on the admission: taken before its body is read, freed when the request is done. */
export interface BodySlot {
  /**
   * Waits for a slot unless the body is small; throws 503 `resource-denied` with `Retry-After`
   * when the queue is full, and rejects when the request's connection closes while it waits.
   * Returns the most bytes the body may have.
   */
  take(maxBodyBytes: number): Promise<number>;
  /** Gives the slot back (after the body's tree is applied and the answer written); idempotent. */
  free(): void;
}

/**
 * Bounds the request bodies read, decoded and applied at once across all clients, so that the
 * memory they hold is bounded by design: a body waits for a slot before any of its bytes are
 * read (HTTP flow control holds the rest at the client), and past the queue it is answered 503
 * without being read. One client (its user, or without authentication its address) holds at
 * most half of the places (decoding and waiting, rounded up), so that a client with many big
 * bodies cannot leave none to the others: past that share its next big body is answered 429,
 * unread. A big body is answered 503, unread, while the V8 heap in use is above `maxHeapPercent`
 * of its limit, when it comes or when its slot is free (read only then: one call each). Once the big bodies are
 * done, `idle` gives their memory back.
 */
export class BodyAdmission {
  private readonly limit: ConcurrencyLimit;
  /** The places one client may hold at once. */
  private readonly perClient: number;
  /** Places held (decoding or waiting) by client. */
  private readonly heldBy = new Map<string, number>();
  private refusals = 0;

  constructor(
    maxDecoding: number,
    maxWaiting: number,
    private readonly maxHeapPercent: number,
    private readonly idle?: IdleCollection,
  ) {
    if (!(maxHeapPercent > 0 && maxHeapPercent <= 100))
      throw new RestconfError(
        'INVALID_OPTION',
        `maxHeapPercent ${maxHeapPercent} is not above 0 and at most 100`,
        {
          errorTag: 'invalid-value',
        },
      );
    this.limit = new ConcurrencyLimit(maxDecoding, maxWaiting);
    this.perClient = Math.ceil((maxDecoding + maxWaiting) / 2);
  }

  /** The slot of one request whose answer `out` writes, made by `client` (`user:<name>` or `addr:<address>`). */
  slotFor(out: Responder, client: string): BodySlot {
    let release: (() => void) | undefined;
    return {
      take: async (maxBodyBytes) => {
        const declared = Number(out.req.headers['content-length']);
        if (declared <= SMALL_BODY_BYTES) return Math.min(maxBodyBytes, SMALL_BODY_BYTES);
        this.checkHeap(out);
        const share = this.claimShare(out, client);
        this.idle?.begin();
        const done = (): void => {
          share();
          this.idle?.end();
        };
        try {
          const slot = await this.admit(out);
          release = () => {
            slot();
            done();
          };
        } catch (error) {
          done();
          throw error;
        }
        // Judged again once it has its slot: the heap may have grown while it waited (the
        // request frees the slot when it is refused).
        this.checkHeap(out);
        return maxBodyBytes;
      },
      free: () => {
        release?.();
        release = undefined;
      },
    };
  }

  /** Throws 503 when the V8 heap in use is above `maxHeapPercent` of its limit. */
  private checkHeap(out: Responder): void {
    const heap = getHeapStatistics();
    const percent = (100 * heap.used_heap_size) / heap.heap_size_limit;
    if (percent <= this.maxHeapPercent) return;
    this.refusals++;
    out.header('Retry-After', '1');
    throw new RestconfError(
      'RESOURCE_DENIED',
      `the server's memory is ${Math.round(percent)}% used, over the ${this.maxHeapPercent}% of its heap limit past which request bodies over ${SMALL_BODY_BYTES / 1024} KiB are refused; retry later`,
      { errorTag: 'resource-denied', reason: 'unavailable' },
    );
  }

  /** Counts one more place for `client`, or throws 429 past the client's share; returns its release. */
  private claimShare(out: Responder, client: string): () => void {
    const held = this.heldBy.get(client) ?? 0;
    if (held >= this.perClient) {
      this.refusals++;
      out.header('Retry-After', '1');
      throw new RestconfError(
        'RESOURCE_DENIED',
        `too many request bodies in progress for ${describeClient(client)} (${this.perClient} at most, half of the places); retry later`,
        { errorTag: 'resource-denied', reason: 'too-many-requests' },
      );
    }
    this.heldBy.set(client, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.heldBy.get(client) ?? 1) - 1;
      if (left === 0) this.heldBy.delete(client);
      else this.heldBy.set(client, left);
    };
  }

  /** The counts now. */
  stats(): BodyAdmissionStats {
    return {
      decoding: this.limit.active,
      waiting: this.limit.queued,
      refused: this.refusals,
      collections: this.idle?.collections ?? 0,
      youngCollections: this.idle?.youngCollections ?? 0,
    };
  }

  /** Drops a collection not run yet. */
  close(): void {
    this.idle?.close();
  }

  private async admit(out: Responder): Promise<ReleaseSlot> {
    const gone = new AbortController();
    // Never answered (the connection is gone); a 400, not a failure of the server's.
    const abort = (): void =>
      gone.abort(
        new RestconfError('REQUEST_INVALID', 'the client closed the request while its body waited', {
          errorTag: 'malformed-message',
        }),
      );
    if (out.req.destroyed) abort();
    const slot = this.limit.acquire(gone.signal);
    if (slot === undefined) {
      this.refusals++;
      out.header('Retry-After', '1');
      throw new RestconfError(
        'RESOURCE_DENIED',
        `too many request bodies in progress (${this.limit.concurrency} being decoded, ${this.limit.queueLength} waiting); retry later`,
        { errorTag: 'resource-denied', reason: 'unavailable' },
      );
    }
    out.res.once('close', abort);
    try {
      return await slot;
    } finally {
      out.res.off('close', abort);
    }
  }
}

/** A client of {@link clientOf} in words: `user "alice"`, or `client address 192.0.2.1`. */
function describeClient(client: string): string {
  return client.startsWith('user:')
    ? `user ${JSON.stringify(client.slice(5))}`
    : `client address ${client.slice(5)}`;
}
