import { cloneTree, finishInSlices, finishSteps, ITEMS_PER_STEP, type Steps } from '@yangkit/yang-json-codec';
import type { Change, Datastore } from './datastore.js';

/**
 * The changes committed to running that an unmodified candidate has yet to replay to equal running
 * again (RFC 6241 section 8.3: until it is edited, the candidate follows running). They are replayed
 * in slices of a few milliseconds between other work, in the order they were committed, so that a
 * big commit does not hold the event loop for its copy (a step's worth with no reader is replayed at
 * once); {@link CatchUp.finish} replays what remains at once, for anything about to use the
 * candidate. Readers still holding the tree (running's, which a commit gave to the candidate) detach
 * first, in the same slices: a filter's selection still being made, a reply still being written, are
 * finished from the tree as it was, without holding the event loop for them.
 */
export class CatchUp {
  readonly #log: Datastore;
  readonly #running: Datastore;
  /** The change sets still to replay, oldest first; more may join while they are replayed. */
  #queue: (readonly Change[])[] = [];
  #steps: Steps<void> | undefined;

  /** `log` follows `running`. */
  constructor(log: Datastore, running: Datastore) {
    this.#log = log;
    this.#running = running;
  }

  /** Whether changes remain to be replayed. */
  get pending(): boolean {
    return this.#steps !== undefined;
  }

  /**
   * Queues `changes` after those queued before and, when idle, replays them: at once when they are a
   * step's worth and nobody holds the tree, else in slices from the next turn on.
   */
  add(changes: readonly Change[]): void {
    if (changes.length === 0) return;
    this.#queue.push(changes);
    if (this.#steps !== undefined) return;
    const steps = this.#replay();
    this.#steps = steps;
    if (changes.length <= ITEMS_PER_STEP && this.#log.readers === 0) {
      // A step's worth and no reader to detach: replayed now, in the commit's turn, so that the next
      // edit, which waits for the candidate to have caught up, does not wait a turn of the event loop
      // for it (nearly half of the rate of one-leaf edits went to that wait).
      try {
        finishSteps(steps);
      } catch {
        // The candidate was made a copy of running (see #replay).
      }
      return;
    }
    // From the next turn on (finishInSlices runs a first slice at once); a failed replay has already
    // made the candidate a copy of running (see #replay): nothing is left to do then.
    setImmediate(() => {
      finishInSlices(steps).catch(() => undefined);
    });
  }

  /** Replays every queued change now. */
  finish(): void {
    if (this.#steps !== undefined) finishSteps(this.#steps);
  }

  *#replay(): Steps<void> {
    const log = this.#log;
    try {
      // Readers of the tree (running's until a commit gave it to this log) first finish in slices.
      yield* log.detachReadersSteps();
      let n = 0;
      for (let q = 0; q < this.#queue.length; q++) {
        for (const change of this.#queue[q]!) {
          log.replay(change);
          if (++n % ITEMS_PER_STEP === 0) yield;
        }
      }
    } catch (error) {
      // Replay skips a change it cannot place; should it fail all the same, the candidate is made
      // equal to running the slow way rather than left half replayed.
      log.reset(cloneTree(this.#running.tree));
      throw error;
    } finally {
      this.#queue = [];
      this.#steps = undefined;
      // The candidate is running again: nothing of this is its own change.
      log.take();
    }
  }
}
