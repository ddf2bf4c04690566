import { ITEMS_PER_STEP } from '@yangkit/xml';
import { XPathEvaluationError } from './errors.js';

/**
 * Units of work (nodes visited on an axis, predicates evaluated, nodes merged) between two steps of
 * an evaluation in steps (the XML layer's `Steps`, whose step size it is).
 */
export const UNITS_PER_STEP = ITEMS_PER_STEP;

/**
 * A `maxWork` for an expression a client sends (a server's read or event filter): enough for a linear
 * expression over a million nodes, which costs a few units a node (a descendant walk one a node, a
 * predicate one a node it tests, a union's merge one a node). Measured on a tree of 500,000 list
 * entries: `//artist[contains(name, '77')]` 2,000,000 units (0.36 s), `//artist | //name` 3,000,000
 * (0.9 s). An expression whose work grows with the square of the tree (`//a[count(//b) > 0]`) stops
 * after about a second.
 */
export const CLIENT_MAX_WORK = 5_000_000;

/**
 * The work one evaluation may do (`maxWork`): units are nodes an axis produces or tests, predicate
 * evaluations, nodes sorted or merged and every 16 characters of string-values. Spending past the
 * limit throws `WORK_LIMIT`. Without a limit it is `Infinity`, which no spending reaches, so that
 * unbounded evaluation costs one subtraction per axis walk or predicate filter.
 */
export class WorkBudget {
  #left: number;

  constructor(readonly limit: number) {
    this.#left = limit;
  }

  /** Spends `units`; throws `WORK_LIMIT` once the total passes the limit. */
  spend(units: number): void {
    if ((this.#left -= units) < 0) {
      throw new XPathEvaluationError(
        'WORK_LIMIT',
        `the evaluation passed its work limit of ${this.limit} units (nodes visited and predicates evaluated)`,
      );
    }
  }
}

/**
 * Counts the units of work of one evaluation in steps: a step is due every {@link UNITS_PER_STEP},
 * and the units are spent from `budget` then (a budget is passed by at most one step's units until
 * {@link WorkCounter.settle}).
 */
export class WorkCounter {
  #units = 0;

  constructor(private readonly budget?: WorkBudget) {}

  /** Counts one unit; true when a step is due. */
  due(): boolean {
    if (++this.#units % UNITS_PER_STEP !== 0) return false;
    this.budget?.spend(UNITS_PER_STEP);
    return true;
  }

  /** Spends the units counted since the last step, at the end of the evaluation. */
  settle(): void {
    this.budget?.spend(this.#units % UNITS_PER_STEP);
    this.#units -= this.#units % UNITS_PER_STEP;
  }
}
