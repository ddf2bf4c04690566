import { oneStep, SLICE_MS, type Steps } from '@yangkit/yang-json-codec';

interface Reservation {
  readonly work: () => Steps<void>;
  /** Work already due (see {@link CandidateReservations.runDue}). */
  readonly due: boolean;
  steps: Steps<void> | undefined;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Work that holds the candidate and the private scratch tree while it runs in slices of a few
 * milliseconds: a big edit of the candidate and its commit, a change of running made on a scratch
 * tree, which would otherwise hold the event loop for the whole edit. One runs
 * at a time, in the order asked for; the others wait for their turn. A read of the candidate
 * waits for its turn ({@link CandidateReservations.atTurn}); what needs the candidate synchronously
 * or changes running meanwhile calls {@link CandidateReservations.finish} first, which runs the rest
 * of the work in progress at once: nobody sees a half-made edit, and every change of running comes
 * after the commit that ends it.
 */
export class CandidateReservations {
  readonly #queue: Reservation[] = [];
  readonly #ready: () => boolean;
  /** True while a step of the work in progress runs (what it calls must not finish it again). */
  #stepping = false;
  #scheduled = false;

  /**
   * `ready` tells whether work may start: the candidate's catch-up with running (see `CatchUp`) is
   * left to go on in its own slices rather than be finished at once by the next work's first step.
   */
  constructor(ready: () => boolean) {
    this.#ready = ready;
  }

  /** Runs `work` once the work asked for before has ended; resolves when it ends, rejects with what it throws. */
  run(work: () => Steps<void>): Promise<void> {
    return this.#enqueue(work, false, this.#queue.length);
  }

  /**
   * Runs `use` at the turn of work asked for now, in one step (one synchronous run), and resolves with
   * what it returns: at once when no work runs or waits and work may start (`ready`), else once the
   * work asked for before has ended. Unlike {@link CandidateReservations.finish}, it makes no work run
   * at once: a read of what the work holds waits for it rather than stalling everything else.
   */
  async atTurn<T>(use: () => T): Promise<T> {
    if (this.#queue.length === 0 && this.#ready()) return use();
    let result: T | undefined;
    await this.run(() =>
      oneStep(() => {
        result = use();
      }),
    );
    return result as T;
  }

  /**
   * Runs `work` as soon as the work in progress has ended, before any work not yet started: work the
   * server owes since a given moment (a confirmed commit's rollback on its timeout), which work asked
   * for later must find done. {@link CandidateReservations.finish} runs it with the work in progress.
   */
  runDue(work: () => Steps<void>): Promise<void> {
    let at = 0;
    while (at < this.#queue.length && (this.#queue[at]!.due || this.#queue[at]!.steps !== undefined)) at++;
    return this.#enqueue(work, true, at);
  }

  /**
   * Runs the rest of the work in progress now, and the work due after it, unless called from inside
   * it; work not started waits.
   */
  finish(): void {
    if (this.#stepping) return;
    for (let head = this.#queue[0]; head !== undefined && (head.steps !== undefined || head.due); ) {
      this.#step(head);
      head = this.#queue[0];
    }
  }

  #enqueue(work: () => Steps<void>, due: boolean, at: number): Promise<void> {
    return new Promise((resolve, reject) => {
      // Every field set at once, in one order: one shape for every reservation (a spread of another
      // object, or a field added later, gave V8 new maps for each).
      this.#queue.splice(at, 0, { work, due, steps: undefined, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(this.#slice);
  }

  readonly #slice = (): void => {
    this.#scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      if (head.steps === undefined && !this.#ready()) break;
      this.#step(head);
      if (performance.now() >= until) break;
    }
    this.#schedule();
  };

  /** One step of `head`, started if it has not been; settled and dequeued once it ends. */
  #step(head: Reservation): void {
    let done = false;
    this.#stepping = true;
    try {
      head.steps ??= head.work();
      done = head.steps.next().done === true;
    } catch (error) {
      this.#queue.shift();
      head.reject(error);
      return;
    } finally {
      this.#stepping = false;
    }
    if (!done) return;
    this.#queue.shift();
    head.resolve();
  }
}
