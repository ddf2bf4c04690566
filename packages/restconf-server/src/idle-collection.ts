import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import type { Logger } from './options.js';

/**
 * Defaults of the collection once the gateway is quiet: how long no request may have been answered
 * and no big body in progress before it runs (`quietMs`), how often at most the full collection
 * runs (`intervalMs`), and how long it waits for a moment with no request being answered
 * (`maxDeferMs`).
 */
export const IDLE_COLLECTION_DEFAULTS = {
  quietMs: 2_000,
  intervalMs: 10_000,
  maxDeferMs: 10_000,
  maxPauseMs: 250,
} as const;

/** How often a collection put off by requests in progress looks again. */
const RECHECK_MS = 50;

/**
 * How long the young generation must see (almost) no allocation before a minor collection lets V8
 * shrink it: V8 shrinks it only at a collection that finds the allocation rate of its last 5 s
 * below 1 MB/s.
 */
export const YOUNG_SHRINK_WAIT_MS = 5_500;

/** When and how the memory of a busy period is given back. */
export interface IdleCollectionOptions {
  /** Runs one full garbage collection (V8's `gc()`, exposed by the process that owns the heap). */
  readonly collect: () => void;
  /**
   * Runs one collection of the young generation only (V8's `gc({ type: 'minor' })`); when given,
   * the young generation grown under load is shrunk once the load is over.
   */
  readonly collectYoung?: () => void;
  /** Milliseconds without a request answered or a big body in progress before the collection runs (default 2,000). */
  readonly quietMs?: number;
  /** Fewest milliseconds between two full collections (default 10,000). */
  readonly intervalMs?: number;
  /**
   * True while requests are being answered (open event streams aside): the collection, which holds
   * the event loop for a fraction of a second, waits for a moment when none is, for at most
   * `maxDeferMs` (default 10,000), so that clients rarely meet its pause.
   */
  readonly busy?: () => boolean;
  readonly maxDeferMs?: number;
  /**
   * Longest pause a full collection may be expected to take (default 250 ms): it is skipped, and the
   * memory left to V8's own collections, mostly concurrent, when what is live times the slowest rate
   * measured (at least {@link MIN_PAUSE_MS_PER_MB}) is over it. The default lets it give back what an
   * attack of big bodies grew beside a datastore of 100,000 short list entries (60 to 90 MB live,
   * collected in 90 to 170 ms), not beside half a million. What is live is what the last one left
   * or, newer, what V8's own full collections left while big bodies were read since
   * ({@link HeapSize.live}): a big edit grows what is live before a collection here has measured it,
   * and the first after a PUT of 400,000 artists held the event loop 1.2 s. A heap that big is left to
   * V8, whose memory reducer, once the allocation rate falls, gives most of it back in steps.
   */
  readonly maxPauseMs?: number;
  /**
   * The heap's size, what of it is in use, the young generation's size and, while big bodies are read
   * and until the collection after them, what V8's last full collection left, in bytes (default: V8's
   * statistics, and its full collections reported to a performance observer meanwhile).
   */
  readonly heap?: () => HeapSize;
  /** A clock in milliseconds that times each collection (default `performance.now`). */
  readonly now?: () => number;
}

/** The heap's committed size, the bytes of it in use, and the committed size of its young generation. */
export interface HeapSize {
  readonly total: number;
  readonly used: number;
  readonly young: number;
  /**
   * The bytes in use beside the young generation right after V8's last full collection since big
   * bodies began to be read; undefined when none ran.
   */
  readonly live?: number | undefined;
}

const MB = 2 ** 20;

/**
 * The least pause a full collection is expected to take per MB live: 1.4 ms/MB was measured with
 * 23 MB live, 2.7 ms/MB with 617 MB, on 2 cores. A slower rate measured since stands instead.
 */
const MIN_PAUSE_MS_PER_MB = 2;

/** Collections that leave at least this much live measure the rate of a pause per MB. */
const RATE_FROM_BYTES = 64 * MB;

/**
 * A full collection runs only when the old generation holds this much more than what is live (see
 * `maxPauseMs`; times {@link SLACK_FACTOR}, plus {@link SLACK_BYTES}): its pause grows with the live
 * data (a fraction of a second for a datastore of half a million entries), so it is spent only where
 * it gives memory back, not after every quiet moment or small body over the size that counts as big.
 * The young generation is left out: a full collection empties it but gives none of it back, and its
 * growth under light load (to 32 MB with V8's default semi-spaces) would set one off for nothing. A
 * small live heap collects in a few tens of milliseconds (31 ms with 17 MB live), so a few MB of
 * garbage are worth it there: with 32 MB of slack, the 30 to 40 MB a busy period of PATCHes left in a
 * gateway of 1,000 artists stayed resident at rest as often as not.
 */
const SLACK_FACTOR = 1.5;
const SLACK_BYTES = 8 * MB;

/**
 * The young generation is shrunk only when it is committed past this: V8 starts it at 1 MB and
 * grows it, up to 32 MB on 64-bit, while much of what is allocated survives a scavenge.
 */
const YOUNG_GROWN_BYTES = 4 * MB;

/** Spaces of V8's young generation, left out of what a full collection leaves live. */
const YOUNG_SPACES: ReadonlySet<string> = new Set(['new_space', 'new_large_object_space']);

/**
 * V8's heap statistics, with what its last full collection left in use while {@link watch}ed: each
 * collection is reported to a `gc` performance observer shortly after it ends, which reads the heap's
 * use then (a little high when something was allocated meanwhile). Watched only while it matters:
 * reporting every collection, the young ones included, cost a server of small requests 4 to 5% of
 * its rate.
 */
class V8Heap {
  #live: number | undefined;
  #watching = false;
  readonly #observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.#live = oldGenerationUsed();
    }
  });

  /** Starts noting what V8's full collections leave (kept on while already watching). */
  watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  /** Stops, and forgets what was noted. */
  unwatch(): void {
    if (!this.#watching) return;
    this.#watching = false;
    this.#observer.disconnect();
    this.#live = undefined;
  }

  size(): HeapSize {
    const h = getHeapStatistics();
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    return {
      total: h.total_heap_size,
      used: h.used_heap_size,
      young: young?.space_size ?? 0,
      live: this.#live,
    };
  }
}

function oldGenerationUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics())
    if (!YOUNG_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
}

/**
 * Gives the memory of a busy period back to the system once it is over. V8 collects garbage when
 * JavaScript allocates: a server that goes quiet after decoding big bodies, or after thousands of
 * requests whose garbage was promoted to the old generation, keeps the heap it grew to (tens to
 * hundreds of MB, resident) for as long as it stays quiet. Once no big body has been in progress for
 * `quietMs` (small requests meanwhile do not matter), or after a busy period of ordinary requests
 * (the start counts as one) once none has been answered for `quietMs`, one full collection runs,
 * which lets V8 free the pages left empty; at most one per `intervalMs`, so that a steady stream of
 * big bodies costs one pause per interval, only when the heap has grown well past what is live (see
 * {@link SLACK_FACTOR}), and only while its pause would stay short (`maxPauseMs`), a bigger heap being
 * left to V8's memory reducer. Then, when the young generation was left grown by
 * the load, a minor collection {@link YOUNG_SHRINK_WAIT_MS} later lets V8 shrink it back (up to
 * 31 MB) if little was allocated meanwhile; one per quiet time. Neither runs while a big body is in
 * progress, nor on the path of a request: only from its own timers, which do not keep the process
 * alive, and the full one at a moment when no request is being answered, if one comes within
 * `maxDeferMs`.
 */
export class IdleCollection {
  private readonly quietMs: number;
  private readonly intervalMs: number;
  private readonly maxDeferMs: number;
  private readonly heap: () => HeapSize;
  private readonly v8Heap: V8Heap | undefined;
  private inProgress = 0;
  /** When the collection first found requests in progress; undefined when it has not. */
  private deferredSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private youngTimer: NodeJS.Timeout | undefined;
  private last = Number.NEGATIVE_INFINITY;
  /** When the last request was answered; the quiet time after a busy period counts from it. */
  private lastAnswered = Number.NEGATIVE_INFINITY;
  /** True from the end of the last big body to the collection after it. */
  private afterBigBodies = false;
  private runs = 0;
  private youngRuns = 0;
  /**
   * What is live: the bytes in use after the last collection here, or after V8's own full collections
   * while big bodies were read since, when any ran (undefined before either).
   */
  private live: number | undefined;
  /** The slowest pause per byte live measured so far. */
  private pausePerByte = MIN_PAUSE_MS_PER_MB / MB;
  private readonly maxPauseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly options: IdleCollectionOptions,
    private readonly logger?: Logger,
  ) {
    this.quietMs = options.quietMs ?? IDLE_COLLECTION_DEFAULTS.quietMs;
    this.intervalMs = options.intervalMs ?? IDLE_COLLECTION_DEFAULTS.intervalMs;
    this.maxDeferMs = options.maxDeferMs ?? IDLE_COLLECTION_DEFAULTS.maxDeferMs;
    this.maxPauseMs = options.maxPauseMs ?? IDLE_COLLECTION_DEFAULTS.maxPauseMs;
    if (options.heap === undefined) {
      const v8Heap = new V8Heap();
      this.v8Heap = v8Heap;
      this.heap = () => v8Heap.size();
    } else this.heap = options.heap;
    this.now = options.now ?? (() => performance.now());
  }

  /** Full collections run since the start. */
  get collections(): number {
    return this.runs;
  }

  /** Collections of the young generation run to shrink it, since the start. */
  get youngCollections(): number {
    return this.youngRuns;
  }

  /**
   * A big body is admitted (waiting or decoding): no collection until it and the others are done.
   * What V8's full collections leave is noted from now on, until the collection after them.
   */
  begin(): void {
    this.inProgress++;
    this.v8Heap?.watch();
    this.cancel();
  }

  /** A big body is done with its tree: the last one done starts the quiet time. */
  end(): void {
    this.inProgress--;
    this.afterBigBodies = true;
    if (this.inProgress === 0) this.schedule(this.quietMs);
  }

  /**
   * A request was answered: the quiet time starts again. Called for every request, so it only
   * notes the time; the timer already set looks at it when it fires.
   */
  answered(): void {
    this.lastAnswered = Date.now();
    if (this.timer === undefined && this.inProgress === 0) this.schedule(this.quietMs);
  }

  /**
   * The server is started: loading modules, compiling schemas and loading data are a busy period
   * of their own, which grows the young generation as requests do.
   */
  started(): void {
    this.answered();
  }

  /** Drops a collection not run yet and stops observing V8's full collections. */
  close(): void {
    this.cancel();
    clearTimeout(this.youngTimer);
    this.youngTimer = undefined;
    this.v8Heap?.unwatch();
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
    const now = Date.now();
    const wait = this.last + this.intervalMs - now;
    if (wait > 0) {
      // The full collection waits for the interval; the young generation need not.
      if (now - this.lastAnswered >= this.quietMs) this.shrinkYoungLater(false);
      this.schedule(wait);
      return;
    }
    // After big bodies, small requests do not put the collection off (only requests in progress
    // do, below). After a busy period it waits for the quiet time however long requests keep
    // coming: under steady traffic V8's own collections, mostly concurrent, do better than a
    // pause of the whole heap, and a grown young generation is in use.
    const quiet = now - this.lastAnswered;
    if (!this.afterBigBodies && quiet < this.quietMs) {
      this.schedule(this.quietMs - quiet);
      return;
    }
    if (this.options.busy?.() === true) {
      const since = this.deferredSince ?? now;
      if (now - since < this.maxDeferMs) {
        this.schedule(RECHECK_MS);
        this.deferredSince = since;
        return;
      }
    }
    this.deferredSince = undefined;
    this.afterBigBodies = false;
    const collected = this.collectFull(now);
    this.shrinkYoungLater(collected);
  }

  /** One full collection when the heap has grown enough for it; false when skipped. */
  private collectFull(now: number): boolean {
    const before = this.heap();
    this.v8Heap?.unwatch();
    // What V8's own full collections left while big bodies were read is newer than what the last one
    // here left: a big edit grows it before a collection here has measured it.
    if (before.live !== undefined) this.live = before.live;
    const old = before.total - before.young;
    if (this.live !== undefined && old < this.live * SLACK_FACTOR + SLACK_BYTES) {
      this.logger?.debug?.(
        `no collection once quiet: heap ${Math.round(old / MB)} MB beside the young generation, ${Math.round(this.live / MB)} MB live after the last full collection`,
      );
      return false;
    }
    const live = this.live;
    if (live !== undefined && live * this.pausePerByte > this.maxPauseMs) {
      this.logger?.debug?.(
        `no collection once quiet: ${Math.round(live / MB)} MB live, a pause of about ${Math.round(live * this.pausePerByte)} ms, over ${this.maxPauseMs} ms`,
      );
      return false;
    }
    this.last = now;
    this.runs++;
    const started = this.now();
    this.options.collect();
    const elapsed = this.now() - started;
    const ms = Math.round(elapsed);
    const after = this.heap();
    this.live = after.used;
    // A small heap's pause is mostly what every collection costs: only a big one tells the rate.
    if (after.used >= RATE_FROM_BYTES) this.pausePerByte = Math.max(this.pausePerByte, elapsed / after.used);
    this.logger?.debug?.(
      `garbage collected once quiet in ${ms} ms: heap ${Math.round(before.total / MB)} MB -> ${Math.round(after.total / MB)} MB`,
    );
    return true;
  }

  /**
   * When the young generation is grown, a minor collection {@link YOUNG_SHRINK_WAIT_MS} after the
   * last collection, unless a big body is in progress then: V8 shrinks the young generation only at a
   * collection that finds little allocated since the ones before. Without a full collection just
   * now, a minor one starts that wait (it costs about a millisecond with the young generation empty).
   */
  private shrinkYoungLater(collected: boolean): void {
    const collectYoung = this.options.collectYoung;
    if (collectYoung === undefined || this.heap().young <= YOUNG_GROWN_BYTES) return;
    if (this.youngTimer !== undefined) {
      // A full collection now restarts the wait (V8 looks at what was allocated since the last
      // collections); otherwise the wait under way stands.
      if (!collected) return;
      clearTimeout(this.youngTimer);
    } else if (!collected) collectYoung();
    this.youngTimer = setTimeout(() => {
      this.youngTimer = undefined;
      // V8 shrinks it only if little was allocated meanwhile; under load again it stays as it is.
      if (this.inProgress > 0) return;
      const before = this.heap().young;
      collectYoung();
      const after = this.heap().young;
      this.youngRuns++;
      this.logger?.debug?.(
        `young generation collected once quiet: ${Math.round(before / MB)} MB -> ${Math.round(after / MB)} MB`,
      );
    }, YOUNG_SHRINK_WAIT_MS);
    this.youngTimer.unref();
  }
}
