import type { Axis } from './ast.js';
import { axisNodes, type NodeMatcher } from './axes.js';
import type {
  AnyNavigator,
  AnyNode,
  AnyValue,
  EvalEnv,
  EvaluationCache,
  Evaluator,
  KeyIndex,
  SteppedEvaluator,
} from './context.js';
import { sortUnique } from './document-order.js';
import type { ElementName } from './navigator.js';
import { toBoolean } from './values.js';

/**
 * A key predicate `[k = expr]` on a child step where `k` is a child name and `expr` does not depend
 * on the context node: evaluated once per step, matched through a key index when a cache is given.
 */
export interface KeyPredicate {
  readonly keyMatcher: NodeMatcher<AnyNode>;
  readonly value: Evaluator;
  /** The predicate as written, for values that are numbers or booleans. */
  readonly fallback: Evaluator;
}

/** A compiled location step. */
export interface CompiledStep {
  readonly id: number;
  readonly axis: Axis;
  readonly reverse: boolean;
  readonly matcher: NodeMatcher<AnyNode>;
  readonly key: KeyPredicate | undefined;
  /** Predicates after the key predicate (all of them when there is none). */
  readonly predicates: readonly Evaluator[];
  /** The same predicates compiled to evaluate in steps, when the step was compiled for that. */
  readonly predicateSteps?: readonly SteppedEvaluator[];
}

// axes whose results from one level of nodes in document order stay in document order at one level
const LEVEL_AXES: ReadonlySet<Axis> = new Set(['child', 'attribute', 'self', 'namespace']);
const SINGLE_LEVEL_AXES: ReadonlySet<Axis> = new Set([
  'child',
  'attribute',
  'self',
  'namespace',
  'parent',
  'following-sibling',
  'preceding-sibling',
]);

/** Whether a predicate's value holds at proximity `position` (XPath 1.0 section 2.4). */
export function holdsAt(value: AnyValue, position: number): boolean {
  // a number predicate is true when it equals the proximity position
  return typeof value === 'number' ? value === position : toBoolean(value);
}

/** Filters `nodes` (in proximity order) by one predicate, XPath 1.0 section 2.4. */
export function filterByPredicate(nodes: AnyNode[], predicate: Evaluator, env: EvalEnv): AnyNode[] {
  const size = nodes.length;
  env.budget.spend(size);
  const out: AnyNode[] = [];
  for (let i = 0; i < size; i++) {
    const node = nodes[i];
    if (holdsAt(predicate({ node, position: i + 1, size, env }), i + 1)) out.push(node);
  }
  return out;
}

/** The key values a key predicate asks for, or undefined when its value is a number or boolean. */
export function keyValues(key: KeyPredicate, node: AnyNode, env: EvalEnv): string[] | undefined {
  const value = key.value({ node, position: 1, size: 1, env });
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return undefined;
  return value.map((n) => env.nav.stringValue(n));
}

/** The key indexes of `node`'s children in `cache`, by step id. */
export function keyIndexesOf(node: AnyNode, cache: EvaluationCache): Map<number, KeyIndex> {
  let perParent = cache.keyIndexes.get(node);
  if (perParent === undefined) cache.keyIndexes.set(node, (perParent = new Map()));
  return perParent;
}

/** Adds one list entry to a key index under the values of its keys. */
export function indexEntry(index: KeyIndex, entry: AnyNode, key: KeyPredicate, nav: AnyNavigator): void {
  // keys are few per entry: test them in place rather than collect them
  for (const k of nav.children(entry)) {
    if (!key.keyMatcher.accept(k, nav)) continue;
    const v = nav.stringValue(k);
    let list = index.get(v);
    if (list === undefined) index.set(v, (list = []));
    if (list[list.length - 1] !== entry) list.push(entry);
  }
}

/** The entries of a key index that have one of `values`, in document order. */
export function fromKeyIndex(index: KeyIndex, values: string[], env: EvalEnv): AnyNode[] {
  if (values.length === 1) return (index.get(values[0]!) ?? []).slice();
  const found: AnyNode[] = [];
  for (const v of values) for (const entry of index.get(v) ?? []) found.push(entry);
  return sortUnique(found, env.order());
}

/** Whether a list entry has a key whose value is in `wanted`. */
export function hasKeyIn(
  entry: AnyNode,
  key: KeyPredicate,
  wanted: ReadonlySet<string>,
  nav: AnyNavigator,
): boolean {
  for (const k of nav.children(entry))
    if (key.keyMatcher.accept(k, nav) && wanted.has(nav.stringValue(k))) return true;
  return false;
}

/**
 * A key predicate answered without a walk of the entries (no value asked for, the navigator's own
 * index, or the cache's index built before), or undefined when the entries must be walked.
 */
export function keyedWithoutWalk(
  step: CompiledStep,
  key: KeyPredicate,
  node: AnyNode,
  values: string[],
  env: EvalEnv,
): AnyNode[] | undefined {
  if (values.length === 0) return [];
  const indexed = keyedByTree(step.matcher.named, key.keyMatcher.named, node, values, env);
  if (indexed !== undefined) return indexed;
  const index = env.cache === undefined ? undefined : keyIndexesOf(node, env.cache).get(step.id);
  return index === undefined ? undefined : fromKeyIndex(index, values, env);
}

function keyedSelect(step: CompiledStep, key: KeyPredicate, node: AnyNode, env: EvalEnv): AnyNode[] {
  const values = keyValues(key, node, env);
  if (values === undefined) {
    // number or boolean comparisons convert the key: evaluate the predicate as written
    return filterByPredicate(axisNodes('child', node, env.nav, step.matcher, env.budget), key.fallback, env);
  }
  const answered = keyedWithoutWalk(step, key, node, values, env);
  if (answered !== undefined) return answered;
  const nav = env.nav;
  const entries = axisNodes('child', node, nav, step.matcher, env.budget);
  if (env.cache !== undefined) {
    const index: KeyIndex = new Map();
    for (const entry of entries) indexEntry(index, entry, key, nav);
    keyIndexesOf(node, env.cache).set(step.id, index);
    return fromKeyIndex(index, values, env);
  }
  const wanted = new Set(values);
  const out: AnyNode[] = [];
  for (const entry of entries) if (hasKeyIn(entry, key, wanted, nav)) out.push(entry);
  return out;
}

/** The `element`s whose `keyName` has one of `values`, through the navigator's own index; undefined without one. */
function keyedByTree(
  element: ElementName | undefined,
  keyName: ElementName | undefined,
  node: AnyNode,
  values: string[],
  env: EvalEnv,
): AnyNode[] | undefined {
  const nav = env.nav;
  if (nav.childrenByKey === undefined || element === undefined || keyName === undefined) return undefined;
  const found: AnyNode[] = [];
  for (const v of values) {
    const entries = nav.childrenByKey(node, element, keyName, v);
    if (entries === undefined) return undefined;
    for (const entry of entries) found.push(entry);
  }
  return values.length > 1 ? sortUnique(found, env.order()) : found;
}

/** The nodes one step selects from one context node, in document order. */
function selectStep(step: CompiledStep, node: AnyNode, env: EvalEnv): AnyNode[] {
  let nodes =
    step.key === undefined
      ? axisNodes(step.axis, node, env.nav, step.matcher, env.budget)
      : keyedSelect(step, step.key, node, env);
  for (const predicate of step.predicates) {
    if (nodes.length === 0) break;
    nodes = filterByPredicate(nodes, predicate, env);
  }
  if (step.reverse && nodes.length > 1) nodes.reverse();
  return nodes;
}

/** How the nodes one step selected from each node of a node-set come into document order. */
export type StepOrder = 'kept' | 'adjacent-duplicates' | 'sorted';

/**
 * `level` tells that no node of the input is an ancestor of another and all share one depth: then
 * child, attribute and self steps keep document order without sorting, a parent step only needs
 * adjacent duplicates removed, and descendants of distinct nodes at one depth are disjoint and
 * ordered. Other cases sort. The second value tells whether the output is level.
 */
export function stepOrder(level: boolean, axis: Axis): [StepOrder, boolean] {
  if (level && LEVEL_AXES.has(axis)) return ['kept', true];
  if (level && axis === 'parent') return ['adjacent-duplicates', true];
  if (level && (axis === 'descendant' || axis === 'descendant-or-self')) return ['kept', false];
  return ['sorted', false];
}

/** Whether the nodes one step selects from a single node are level (see {@link stepOrder}). */
export function levelFromOne(axis: Axis): boolean {
  return SINGLE_LEVEL_AXES.has(axis);
}

/** Drops the duplicates of a node-set whose duplicates stand next to each other. */
function dropAdjacentDuplicates(nodes: AnyNode[]): AnyNode[] {
  return nodes.filter((n, i) => i === 0 || nodes[i - 1] !== n);
}

/** Applies location steps to a node-set in document order (XPath 1.0 section 2.1); see {@link stepOrder}. */
export function applySteps(
  input: AnyNode[],
  level: boolean,
  steps: readonly CompiledStep[],
  env: EvalEnv,
): AnyNode[] {
  let nodes = input;
  for (const step of steps) {
    if (nodes.length === 0) return nodes;
    if (nodes.length === 1) {
      nodes = selectStep(step, nodes[0], env);
      level = levelFromOne(step.axis);
      continue;
    }
    const out: AnyNode[] = [];
    for (const node of nodes) {
      const selected = selectStep(step, node, env);
      for (let i = 0; i < selected.length; i++) out.push(selected[i]);
    }
    const [order, outLevel] = stepOrder(level, step.axis);
    level = outLevel;
    if (order === 'kept') nodes = out;
    else if (order === 'adjacent-duplicates') nodes = dropAdjacentDuplicates(out);
    else nodes = sortUnique(out, env.order());
  }
  return nodes;
}
