/**
 * Work done in steps: a generator that yields between slices of its work and returns its result.
 * The synchronous APIs run it to its end at once ({@link finishSteps}); a server runs it with
 * {@link finishInSlices}, giving the event loop back between slices, so that reading a big message
 * or decoding a big body does not hold its other requests for the whole of it. The readers here,
 * the codec's decoders and encoders and the servers' edits all work in these steps.
 *
 * On a path run per request or per event, a generator function is declared once (at module level, or
 * as a method of a class), never inside another function: V8 gives the objects of each generator
 * closure called a map of their own, which stays in the old generation until a full collection and
 * keeps what the closure reaches (the request, its tree) alive through every minor collection, so
 * that all of a request's garbage is promoted.
 */
export type Steps<T> = Generator<void, T, void>;

/**
 * Items (changes, nodes) a loop of work in steps handles between two steps: few enough that a step is
 * short, enough that stepping costs little beside the work.
 */
export const ITEMS_PER_STEP = 64;

/** Longest run of steps before the event loop gets a turn, in milliseconds ({@link finishInSlices}'s default). */
export const SLICE_MS = 5;

/** Work of one step: `task`, run when the step is taken. */
// biome-ignore lint/correctness/useYield: work of one step
export function* oneStep(task: () => void): Steps<void> {
  task();
}

/** Runs `steps` to its end at once and returns its result. */
export function finishSteps<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (next.done !== true) next = steps.next();
  return next.value;
}

/** Options of {@link finishInSlices}. */
export interface SliceOptions {
  /** Longest run of steps before the event loop gets a turn, in milliseconds (default {@link SLICE_MS}). */
  readonly sliceMs?: number;
}

/** The next turn of the event loop (after pending I/O), in Node and elsewhere. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

/**
 * A run of work in slices of about `sliceMs` milliseconds: tells when the current slice is over, so
 * that the event loop gets a turn before the work goes on.
 */
export class Slices {
  #until: number;

  constructor(private readonly sliceMs: number = SLICE_MS) {
    this.#until = performance.now() + sliceMs;
  }

  /** True when the current slice is over: give the event loop a turn (see {@link turn}). */
  get due(): boolean {
    return performance.now() >= this.#until;
  }

  /** Starts the next slice (after the event loop had a turn some other way). */
  restart(): void {
    this.#until = performance.now() + this.sliceMs;
  }

  /** Gives the event loop a turn, then starts the next slice. */
  async turn(): Promise<void> {
    await nextTurn();
    this.restart();
  }
}

/**
 * Runs `steps` to its end in slices of about `sliceMs` milliseconds, letting the event loop run
 * other work (I/O, timers, other requests) between them; resolves with its result, rejects with
 * what it throws. The result is the one {@link finishSteps} gives: only the timing differs.
 */
export async function finishInSlices<T>(steps: Steps<T>, options: SliceOptions = {}): Promise<T> {
  const slices = new Slices(options.sliceMs);
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    if (slices.due) await slices.turn();
  }
}

/**
 * The text of `pieces` (an encoder's chunks, each made as it is asked for), a piece a step: a big
 * document is encoded, and joined, in slices; a document of one piece is one step.
 */
export function* joinSteps(pieces: Iterable<string>): Steps<string> {
  const parts: string[] = [];
  for (const piece of pieces) {
    // A step between two pieces: a document of one piece yields nothing.
    if (parts.length > 0) yield;
    parts.push(piece);
  }
  return parts.join('');
}

/** When the slice that every {@link StepsQueue} shares in the current turn ends (see `#slice`). */
let atOnceUntil: number | undefined;

/**
 * Whether the slice the queues share in the current turn is over: started by the first that asks, and
 * forgotten at the next turn of the event loop.
 */
function atOnceDue(sliceMs: number): boolean {
  const now = performance.now();
  if (atOnceUntil === undefined) {
    atOnceUntil = now + sliceMs;
    void nextTurn().then(() => {
      atOnceUntil = undefined;
    });
  }
  return now >= atOnceUntil;
}

/**
 * Pieces of work in steps run one at a time, in the order they were queued, in slices of about
 * `sliceMs` milliseconds with a turn of the event loop between them: what one receiver of a stream
 * needs done to each of its messages in turn (an event's filter, then its encoding), so that a big
 * one neither holds the event loop nor lets a later one overtake it. Work queued while the queue
 * is idle has its first slice run at once, so that a short piece ends in the turn that queued it,
 * as if it had been run with {@link finishSteps}; every queue shares that slice. A piece of work
 * that throws ends there (it should handle its own errors); the next one runs.
 */
export class StepsQueue {
  readonly #waiting: Steps<unknown>[] = [];
  readonly #sliceMs: number;
  /** Whether the next slice waits for a turn of the event loop. */
  #waitingTurn = false;
  /** Counts {@link clear}s: a slice awaited before one does not run. */
  #generation = 0;
  /** The piece of work whose step runs now, if any: work queued meanwhile waits for it. */
  #current: Steps<unknown> | undefined;

  constructor(options: SliceOptions = {}) {
    this.#sliceMs = options.sliceMs ?? SLICE_MS;
  }

  /** Pieces of work queued and not ended, the one being run included. */
  get size(): number {
    return this.#waiting.length;
  }

  /** Queues `steps` after the work queued before it. */
  add(steps: Steps<unknown>): void {
    this.#waiting.push(steps);
    if (this.#waiting.length === 1 && this.#current === undefined && !this.#waitingTurn) this.#slice(true);
  }

  /** Runs `task` once the work queued before it has ended (at once when there is none). */
  afterQueued(task: () => void): void {
    this.add(oneStep(task));
  }

  /** Drops the work queued, ending the one being run where it stands (its `finally` blocks run). */
  clear(): void {
    this.#generation++;
    this.#waitingTurn = false;
    // The piece being run (when its own step clears the queue) ends at the step's end.
    for (const steps of this.#waiting.splice(0)) if (steps !== this.#current) steps.return(undefined);
  }

  /**
   * Runs the queued work until its slice is over. `atOnce`: in the turn that queued it, where the
   * queues of every receiver of one event start together: their slice is one, shared (see
   * {@link atOnceDue}), so that a hundred receivers cost the turn one slice, not a hundred.
   */
  #slice(atOnce = false): void {
    this.#waitingTurn = false;
    // Started once work remains after a step: a lone piece of one step costs no clock.
    let slices: Slices | undefined;
    while (this.#waiting.length > 0) {
      const head = this.#waiting[0]!;
      this.#current = head;
      let done: boolean | undefined;
      try {
        done = head.next().done;
      } catch {
        done = true;
      } finally {
        this.#current = undefined;
      }
      // The step may have cleared the queue (its receiver left): then `head` is gone already.
      if (done === true && this.#waiting[0] === head) this.#waiting.shift();
      if (this.#waiting.length === 0) break;
      slices ??= new Slices(this.#sliceMs);
      if (atOnce ? atOnceDue(this.#sliceMs) : slices.due) {
        const generation = this.#generation;
        this.#waitingTurn = true;
        void nextTurn().then(() => {
          if (generation === this.#generation) this.#slice();
        });
        return;
      }
    }
  }
}
