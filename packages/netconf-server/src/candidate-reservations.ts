import { SLICE_MS, type Steps } from '@yangkit/yang-json-codec';

interface Reservation {
  readonly work: () => Steps<void>;
  steps?: Steps<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Work that holds the candidate while it runs in slices of a few milliseconds: a big edit of the
 * candidate and its commit, which would otherwise hold the event loop for the whole edit. One runs
 * at a time, in the order asked for; the others wait for their turn. What needs the candidate or
 * changes running meanwhile calls {@link CandidateReservations.finish} first, which runs the rest of
 * the work in progress at once: nobody sees a half-made edit, and every change of running comes
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
    return new Promise((resolve, reject) => {
      this.#queue.push({ work, resolve, reject });
      this.#schedule();
    });
  }

  /** Runs the rest of the work in progress now, unless called from inside it; work not started waits. */
  finish(): void {
    const head = this.#queue[0];
    if (head?.steps === undefined || this.#stepping) return;
    while (this.#queue[0] === head) this.#step(head);
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
