import type { Steps } from '@yangkit/xml';
import { axisCandidates } from './axes.js';
import type {
  AnyNode,
  AnyValue,
  EvalContext,
  EvalEnv,
  Evaluator,
  KeyIndex,
  SteppedEvaluator,
} from './context.js';
import { sortUniqueSteps } from './document-order.js';
import {
  type CompiledStep,
  fromKeyIndex,
  hasKeyIn,
  holdsAt,
  indexEntry,
  type KeyPredicate,
  keyedWithoutWalk,
  keyIndexesOf,
  keyValues,
  levelFromOne,
  stepOrder,
} from './steps.js';
import type { WorkCounter } from './work.js';

/*
 * The location steps of steps.ts in steps (see the XML layer's Steps): the same selections, node by node, with
 * a unit of work for every node an axis visits, every predicate evaluated and every node sorted or
 * merged. A predicate compiled in steps (see compile-in-steps.ts) takes steps of its own; one
 * compiled otherwise is evaluated for one node in one step.
 */

/** An expression compiled as one closure, evaluated in one step. */
export function inOneStep(evaluate: Evaluator): SteppedEvaluator {
  // biome-ignore lint/correctness/useYield: an expression evaluated at once is one step
  return function* (ctx: EvalContext): Steps<AnyValue> {
    return evaluate(ctx);
  };
}

/** {@link filterByPredicate} in steps. */
export function* filterByPredicateSteps(
  nodes: AnyNode[],
  predicate: SteppedEvaluator,
  env: EvalEnv,
  work: WorkCounter,
): Steps<AnyNode[]> {
  const size = nodes.length;
  const out: AnyNode[] = [];
  for (let i = 0; i < size; i++) {
    if (work.due()) yield;
    const node = nodes[i];
    if (holdsAt(yield* predicate({ node, position: i + 1, size, env }, work), i + 1)) out.push(node);
  }
  return out;
}

/** The nodes of `step`'s axis from `node` that pass its node test, walked lazily in steps. */
function* axisNodesSteps(
  step: CompiledStep,
  node: AnyNode,
  env: EvalEnv,
  work: WorkCounter,
): Steps<AnyNode[]> {
  const nav = env.nav;
  const accept = step.matcher.accept;
  const out: AnyNode[] = [];
  for (const candidate of axisCandidates(step.axis, node, nav, step.matcher)) {
    if (work.due()) yield;
    if (accept(candidate, nav)) out.push(candidate);
  }
  return out;
}

/** A child step's key predicate in steps: the tree's own key index, the cache's, or a scan. */
function* keyedSelectSteps(
  step: CompiledStep,
  key: KeyPredicate,
  node: AnyNode,
  env: EvalEnv,
  work: WorkCounter,
): Steps<AnyNode[]> {
  const values = keyValues(key, node, env);
  if (values === undefined) {
    // number or boolean comparisons convert the key: evaluate the predicate as written
    return yield* filterByPredicateSteps(
      yield* axisNodesSteps(step, node, env, work),
      inOneStep(key.fallback),
      env,
      work,
    );
  }
  const answered = keyedWithoutWalk(step, key, node, values, env);
  if (answered !== undefined) return answered;
  const nav = env.nav;
  if (env.cache !== undefined) {
    const index: KeyIndex = new Map();
    for (const entry of yield* axisNodesSteps(step, node, env, work)) {
      if (work.due()) yield;
      indexEntry(index, entry, key, nav);
    }
    // stored once whole, so that no other evaluation sees it half built
    keyIndexesOf(node, env.cache).set(step.id, index);
    return fromKeyIndex(index, values, env);
  }
  const wanted = new Set(values);
  const out: AnyNode[] = [];
  for (const entry of yield* axisNodesSteps(step, node, env, work)) {
    if (work.due()) yield;
    if (hasKeyIn(entry, key, wanted, nav)) out.push(entry);
  }
  return out;
}

/** The nodes one step selects from one context node, in document order, in steps. */
function* selectStepSteps(
  step: CompiledStep,
  node: AnyNode,
  env: EvalEnv,
  work: WorkCounter,
): Steps<AnyNode[]> {
  let nodes =
    step.key === undefined
      ? yield* axisNodesSteps(step, node, env, work)
      : yield* keyedSelectSteps(step, step.key, node, env, work);
  for (const predicate of step.predicateSteps ?? step.predicates.map(inOneStep)) {
    if (nodes.length === 0) break;
    nodes = yield* filterByPredicateSteps(nodes, predicate, env, work);
  }
  if (step.reverse && nodes.length > 1) nodes.reverse();
  return nodes;
}

/** {@link applySteps} in steps: the same node-set, in document order without duplicates. */
export function* applyStepsSteps(
  input: AnyNode[],
  level: boolean,
  steps: readonly CompiledStep[],
  env: EvalEnv,
  work: WorkCounter,
): Steps<AnyNode[]> {
  let nodes = input;
  for (const step of steps) {
    if (nodes.length === 0) return nodes;
    if (nodes.length === 1) {
      nodes = yield* selectStepSteps(step, nodes[0], env, work);
      level = levelFromOne(step.axis);
      continue;
    }
    const out: AnyNode[] = [];
    for (const node of nodes) {
      const selected = yield* selectStepSteps(step, node, env, work);
      for (let i = 0; i < selected.length; i++) out.push(selected[i]);
    }
    const [order, outLevel] = stepOrder(level, step.axis);
    level = outLevel;
    if (order === 'kept') nodes = out;
    else if (order === 'sorted') nodes = yield* sortUniqueSteps(out, env.order(), work);
    else {
      nodes = [];
      for (let i = 0; i < out.length; i++) {
        if (work.due()) yield;
        if (i === 0 || out[i - 1] !== out[i]) nodes.push(out[i]);
      }
    }
  }
  return nodes;
}
