import type { Steps } from './steps';

/**
 * Work in steps shared by several runners (a reader and its detach, the clients of one event), each
 * step taken once by whichever of them runs next: their end (result or error) is kept for all. A
 * runner that stops (its client left) leaves the rest to the others.
 */
export class SharedSteps<T> {
  /** Until they end: dropped then, with what the generator holds (its input, its buffers). */
  #steps: Steps<T> | undefined;
  #end: { readonly value: T } | { readonly error: unknown } | undefined;

  constructor(steps: Steps<T>) {
    this.#steps = steps;
  }

  /** Takes one step, unless they have ended. */
  step(): void {
    const steps = this.#steps;
    if (steps === undefined) return;
    try {
      const next = steps.next();
      if (next.done === true) this.#end = { value: next.value };
    } catch (error) {
      this.#end = { error };
    }
    if (this.#end !== undefined) this.#steps = undefined;
  }

  /** Their result once they have ended (throwing what they threw), else undefined. */
  result(): { readonly value: T } | undefined {
    const end = this.#end;
    if (end !== undefined && 'error' in end) throw end.error;
    return end;
  }

  /** The rest of them, a step at a time; their result, or undefined when they threw. */
  *restSteps(): Steps<{ readonly value: T } | undefined> {
    while (this.#end === undefined) {
      this.step();
      if (this.#end === undefined) yield;
    }
    return 'error' in this.#end ? undefined : this.#end;
  }

  /** The rest of them, a step at a time, then their result: what they threw is thrown. */
  *resultSteps(): Steps<T> {
    yield* this.restSteps();
    return this.result()!.value;
  }
}
