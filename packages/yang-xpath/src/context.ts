import type { Steps } from '@yangkit/xml';
import { createOrderComparator, type OrderComparator } from './document-order.js';
import type { XPathNavigator } from './navigator.js';
import type { XPathValue } from './values.js';
import type { WorkBudget, WorkCounter } from './work.js';

/** Internally the engine is written over opaque nodes; the public API restores the caller's type. */
export type AnyNode = unknown;
/** Navigator over opaque nodes. */
export type AnyNavigator = XPathNavigator<AnyNode>;
/** Value over opaque nodes. */
export type AnyValue = XPathValue<AnyNode>;

/** Key indexes of list entries, built on first use and valid while the tree is unchanged. */
export type KeyIndex = Map<string, AnyNode[]>;

/**
 * A cache shared by many evaluations over one unchanged tree: list entries indexed by key value, so
 * `list[key = current()/../x]` is a map look-up instead of a scan. Create one per validation pass
 * with {@link createEvaluationCache} and drop it when the tree changes.
 */
export class EvaluationCache {
  /** parent node -> step id -> key value -> entries in document order */
  readonly keyIndexes = new Map<AnyNode, Map<number, KeyIndex>>();

  /** Forgets every index (call after the tree changed if the cache is kept). */
  clear(): void {
    this.keyIndexes.clear();
  }
}

/** Creates an {@link EvaluationCache}; pass it to `evaluate` while the tree does not change. */
export function createEvaluationCache(): EvaluationCache {
  return new EvaluationCache();
}

/** What stays the same for one top-level evaluation. */
export class EvalEnv {
  private comparator: OrderComparator<AnyNode> | undefined;

  constructor(
    readonly nav: AnyNavigator,
    readonly current: AnyNode,
    readonly variables: ReadonlyMap<string, AnyValue>,
    readonly cache: EvaluationCache | undefined,
    /** The work left to this evaluation, shared by its predicates and sub-expressions. */
    readonly budget: WorkBudget,
  ) {}

  /** Document order comparator, created on first need. */
  order(): OrderComparator<AnyNode> {
    if (this.comparator === undefined) this.comparator = createOrderComparator(this.nav);
    return this.comparator;
  }
}

/** The dynamic context of XPath 1.0 section 1: node, position, size (plus the shared environment). */
export interface EvalContext {
  readonly node: AnyNode;
  readonly position: number;
  readonly size: number;
  readonly env: EvalEnv;
}

/** A compiled expression. */
export type Evaluator = (ctx: EvalContext) => AnyValue;

/** A compiled expression that evaluates in steps (see the XML layer's `Steps`). */
export type SteppedEvaluator = (ctx: EvalContext, work: WorkCounter) => Steps<AnyValue>;
