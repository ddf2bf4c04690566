import type { Axis } from './ast.js';
import { axisNodes, type NodeMatcher } from './axes.js';
import type { AnyNode, EvalEnv, Evaluator, KeyIndex } from './context.js';
import { sortUnique } from './document-order.js';
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

/** Filters `nodes` (in proximity order) by one predicate, XPath 1.0 section 2.4. */
export function filterByPredicate(nodes: AnyNode[], predicate: Evaluator, env: EvalEnv): AnyNode[] {
  const size = nodes.length;
  const out: AnyNode[] = [];
  for (let i = 0; i < size; i++) {
    const node = nodes[i];
    const value = predicate({ node, position: i + 1, size, env });
    // a number predicate is true when it equals the proximity position
    if (typeof value === 'number' ? value === i + 1 : toBoolean(value)) out.push(node);
  }
  return out;
}

function keyValues(key: KeyPredicate, node: AnyNode, env: EvalEnv): string[] | undefined {
  const value = key.value({ node, position: 1, size: 1, env });
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return undefined;
  return value.map((n) => env.nav.stringValue(n));
}

/** The children a child step's name test selects, without copying them into a new array. */
function namedChildren(step: CompiledStep, node: AnyNode, env: EvalEnv): Iterable<AnyNode> {
  const named = step.matcher.named;
  const nav = env.nav;
  if (named !== undefined && nav.childrenNamed)
    return nav.childrenNamed(node, named.namespace, named.localName);
  return axisNodes('child', node, nav, step.matcher);
}

function buildIndex(step: CompiledStep, key: KeyPredicate, node: AnyNode, env: EvalEnv): KeyIndex {
  const index: KeyIndex = new Map();
  const nav = env.nav;
  const accept = key.keyMatcher.accept;
  for (const entry of namedChildren(step, node, env)) {
    // keys are few per entry: test them in place rather than collect them
    for (const k of nav.children(entry)) {
      if (!accept(k, nav)) continue;
      const v = nav.stringValue(k);
      let list = index.get(v);
      if (list === undefined) index.set(v, (list = []));
      if (list[list.length - 1] !== entry) list.push(entry);
    }
  }
  return index;
}

function keyedSelect(step: CompiledStep, key: KeyPredicate, node: AnyNode, env: EvalEnv): AnyNode[] {
  const values = keyValues(key, node, env);
  if (values === undefined) {
    // number or boolean comparisons convert the key: evaluate the predicate as written
    return filterByPredicate(axisNodes('child', node, env.nav, step.matcher), key.fallback, env);
  }
  if (values.length === 0) return [];
  const indexed = keyedByTree(step, key, node, values, env);
  if (indexed !== undefined) return indexed;
  const cache = env.cache;
  if (cache !== undefined) {
    let perParent = cache.keyIndexes.get(node);
    if (perParent === undefined) cache.keyIndexes.set(node, (perParent = new Map()));
    let index = perParent.get(step.id);
    if (index === undefined) perParent.set(step.id, (index = buildIndex(step, key, node, env)));
    if (values.length === 1) return (index.get(values[0]!) ?? []).slice();
    const found: AnyNode[] = [];
    for (const v of values) for (const entry of index.get(v) ?? []) found.push(entry);
    return sortUnique(found, env.order());
  }
  const wanted = new Set(values);
  const nav = env.nav;
  const out: AnyNode[] = [];
  const accept = key.keyMatcher.accept;
  for (const entry of namedChildren(step, node, env)) {
    for (const k of nav.children(entry)) {
      if (accept(k, nav) && wanted.has(nav.stringValue(k))) {
        out.push(entry);
        break;
      }
    }
  }
  return out;
}

/** Key predicate matches through the navigator's own index, or undefined when it has none. */
function keyedByTree(
  step: CompiledStep,
  key: KeyPredicate,
  node: AnyNode,
  values: string[],
  env: EvalEnv,
): AnyNode[] | undefined {
  const nav = env.nav;
  const element = step.matcher.named;
  const keyName = key.keyMatcher.named;
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
      ? axisNodes(step.axis, node, env.nav, step.matcher)
      : keyedSelect(step, step.key, node, env);
  for (const predicate of step.predicates) {
    if (nodes.length === 0) break;
    nodes = filterByPredicate(nodes, predicate, env);
  }
  if (step.reverse && nodes.length > 1) nodes.reverse();
  return nodes;
}

/**
 * Applies location steps to a node-set in document order (XPath 1.0 section 2.1). `level` tells
 * that no node of the input is an ancestor of another and all share one depth: then child,
 * attribute and self steps keep document order without sorting, and a parent step only needs
 * adjacent duplicates removed. Other cases sort once per step.
 */
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
      level = SINGLE_LEVEL_AXES.has(step.axis);
      continue;
    }
    const out: AnyNode[] = [];
    for (const node of nodes) {
      const selected = selectStep(step, node, env);
      for (let i = 0; i < selected.length; i++) out.push(selected[i]);
    }
    if (level && LEVEL_AXES.has(step.axis)) {
      nodes = out;
    } else if (level && step.axis === 'parent') {
      nodes = out.filter((n, i) => i === 0 || out[i - 1] !== n);
    } else if (level && (step.axis === 'descendant' || step.axis === 'descendant-or-self')) {
      // subtrees of distinct nodes at one depth are disjoint and ordered
      nodes = out;
      level = false;
    } else {
      nodes = sortUnique(out, env.order());
      level = false;
    }
  }
  return nodes;
}
