/**
 * Evaluation in steps: a generator that yields between slices of its work and returns its result,
 * so that a server evaluating an expression over a big tree can give its event loop back between
 * slices (it runs the generator a few milliseconds at a time). Running it to its end at once gives
 * the result the one-turn evaluation gives.
 */
export type XPathSteps<T> = Generator<void, T, void>;

/**
 * Units of work (nodes visited on an axis, predicates evaluated, nodes merged) between two steps:
 * few enough that a step is short, enough that stepping costs little beside the work.
 */
export const UNITS_PER_STEP = 64;

/** Counts the units of work of one evaluation in steps: a step is due every {@link UNITS_PER_STEP}. */
export class WorkCounter {
  #units = 0;

  /** Counts one unit; true when a step is due. */
  due(): boolean {
    return ++this.#units % UNITS_PER_STEP === 0;
  }
}

/** Runs `steps` to its end at once and returns its result. */
export function finishXPathSteps<T>(steps: XPathSteps<T>): T {
  let next = steps.next();
  while (next.done !== true) next = steps.next();
  return next.value;
}
