import { getHeapStatistics } from 'node:v8';
import type { Logger } from './options.js';

/**
 * Defaults of the collection after big bodies: how long no big body may have been in progress
 * before it runs (`quietMs`), and how often at most it runs (`intervalMs`).
 */
export const IDLE_COLLECTION_DEFAULTS = { quietMs: 2_000, intervalMs: 30_000, maxDeferMs: 10_000 } as const;

/** How often a collection put off by requests in progress looks again. */
const RECHECK_MS = 50;

/** When and how the memory of big bodies is given back. */
export interface IdleCollectionOptions {
  /** Runs one full garbage collection (V8's `gc()`, exposed by the process that owns the heap). */
  readonly collect: () => void;
  /** Milliseconds without a big body in progress before the collection runs (default 2,000). */
  readonly quietMs?: number;
  /** Fewest milliseconds between two collections (default 30,000). */
  readonly intervalMs?: number;
  /**
   * True while requests are being answered (open event streams aside): the collection, which holds
   * the event loop for a fraction of a second, waits for a moment when none is, for at most
   * `maxDeferMs` (default 10,000), so that clients rarely meet its pause.
   */
  readonly busy?: () => boolean;
  readonly maxDeferMs?: number;
  /** The heap's size and what of it is in use, in bytes (default: V8's `getHeapStatistics`). */
  readonly heap?: () => HeapSize;
}

/** The heap's committed size and the bytes of it in use. */
export interface HeapSize {
  readonly total: number;
  readonly used: number;
}

const MB = 2 ** 20;

/**
 * A collection runs only when the heap holds this much more than what was live after the last one
 * (times {@link SLACK_FACTOR}, plus {@link SLACK_BYTES}): its pause grows with the live data (a
 * fraction of a second for a datastore of half a million entries), so it is spent only where it
 * gives memory back, not after every small body over the size that counts as big.
 */
const SLACK_FACTOR = 1.5;
const SLACK_BYTES = 64 * MB;

function v8Heap(): HeapSize {
  const h = getHeapStatistics();
  return { total: h.total_heap_size, used: h.used_heap_size };
}

/**
 * Gives the memory of big request bodies back to the system once they are done. V8 collects
 * garbage when JavaScript allocates: a server that goes quiet after decoding big bodies keeps
 * the heap it grew to (hundreds of MB of garbage, resident) for as long as it stays quiet. Once
 * the last big body is done and none has started for `quietMs`, one full collection runs, which
 * lets V8 free the pages left empty; at most one per `intervalMs`, so that a steady stream of
 * big bodies costs one pause per interval, and only when the heap has grown well past what was
 * live after the last one (see {@link SLACK_FACTOR}). It never runs while a big body is in progress, nor
 * on the path of a request: only from its own timer, which does not keep the process alive, and
 * at a moment when no request is being answered, if one comes within `maxDeferMs`.
 */
export class IdleCollection {
  private readonly quietMs: number;
  private readonly intervalMs: number;
  private readonly maxDeferMs: number;
  private inProgress = 0;
  /** When the collection first found requests in progress; undefined when it has not. */
  private deferredSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private last = Number.NEGATIVE_INFINITY;
  private runs = 0;
  /** Bytes in use after the last collection (undefined before the first). */
  private live: number | undefined;

  constructor(
    private readonly options: IdleCollectionOptions,
    private readonly logger?: Logger,
  ) {
    this.quietMs = options.quietMs ?? IDLE_COLLECTION_DEFAULTS.quietMs;
    this.intervalMs = options.intervalMs ?? IDLE_COLLECTION_DEFAULTS.intervalMs;
    this.maxDeferMs = options.maxDeferMs ?? IDLE_COLLECTION_DEFAULTS.maxDeferMs;
  }

  /** Collections run since the start. */
  get collections(): number {
    return this.runs;
  }

  /** A big body is admitted (waiting or decoding): no collection until it and the others are done. */
  begin(): void {
    this.inProgress++;
    this.cancel();
  }

  /** A big body is done with its tree: the last one done starts the quiet time. */
  end(): void {
    this.inProgress--;
    if (this.inProgress === 0) this.schedule(this.quietMs);
  }

  /** Drops a collection not run yet. */
  close(): void {
    this.cancel();
  }

  private schedule(delayMs: number): void {
    this.cancel();
    this.timer = setTimeout(() => this.run(), delayMs);
    this.timer.unref();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deferredSince = undefined;
  }

  private run(): void {
    this.timer = undefined;
    const wait = this.last + this.intervalMs - Date.now();
    if (wait > 0) {
      this.schedule(wait);
      return;
    }
    const now = Date.now();
    if (this.options.busy?.() === true) {
      const since = this.deferredSince ?? now;
      if (now - since < this.maxDeferMs) {
        this.schedule(RECHECK_MS);
        this.deferredSince = since;
        return;
      }
    }
    this.deferredSince = undefined;
    const heap = this.options.heap ?? v8Heap;
    const before = heap();
    if (this.live !== undefined && before.total < this.live * SLACK_FACTOR + SLACK_BYTES) {
      this.logger?.debug?.(
        `no collection after big request bodies: heap ${Math.round(before.total / MB)} MB, ${Math.round(this.live / MB)} MB live after the last one`,
      );
      return;
    }
    this.last = now;
    this.runs++;
    const started = performance.now();
    this.options.collect();
    const ms = Math.round(performance.now() - started);
    const after = heap();
    this.live = after.used;
    this.logger?.debug?.(
      `garbage collected after big request bodies in ${ms} ms: heap ${Math.round(before.total / MB)} MB -> ${Math.round(after.total / MB)} MB`,
    );
  }
}
