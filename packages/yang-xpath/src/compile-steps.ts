import { isContextFree, isPositionFree } from './analysis.js';
import { type Expr, type NodeTest, REVERSE_AXES, type Step } from './ast.js';
import type { NodeMatcher } from './axes.js';
import type { AnyNavigator, AnyNode, Evaluator, SteppedEvaluator } from './context.js';
import { XPathCompileError } from './errors.js';
import type { CompiledStep, KeyPredicate } from './steps.js';

/** The name resolution a step compiler needs from the expression compiler. */
export interface StepScope {
  readonly prefixes: ReadonlyMap<string, string>;
  readonly defaultNamespace: string;
}

/** Compiles a predicate or operand expression (the expression compiler, passed in). */
export type ExprCompiler<S extends StepScope> = (expr: Expr, scope: S) => Evaluator;

/** Compiles a predicate to evaluate in steps (the expression compiler in steps, passed in). */
export type SteppedExprCompiler<S extends StepScope> = (expr: Expr, scope: S) => SteppedEvaluator;

let nextStepId = 1;

/** Resolves a prefix or throws `UNKNOWN_PREFIX` at `position`. */
export function resolvePrefix(prefix: string, scope: StepScope, position: number): string {
  const namespace = scope.prefixes.get(prefix);
  if (namespace === undefined) {
    throw new XPathCompileError(
      'UNKNOWN_PREFIX',
      `unknown prefix '${prefix}' at position ${position}`,
      position,
    );
  }
  return namespace;
}

function compileNodeTest(
  test: NodeTest,
  principal: 'element' | 'attribute',
  scope: StepScope,
  position: number,
): NodeMatcher<AnyNode> {
  switch (test.kind) {
    case 'node':
      return { accept: () => true, named: undefined };
    case 'text':
      return { accept: (n: AnyNode, nav: AnyNavigator) => nav.kind(n) === 'text', named: undefined };
    case 'comment':
    case 'processing-instruction':
      // the navigator model has no comments or processing instructions
      return { accept: () => false, named: undefined };
    case 'name': {
      const local = test.localName;
      if (local === '*') {
        if (test.prefix === undefined) {
          return { accept: (n: AnyNode, nav: AnyNavigator) => nav.kind(n) === principal, named: undefined };
        }
        const ns = resolvePrefix(test.prefix, scope, position);
        return {
          accept: (n: AnyNode, nav: AnyNavigator) => nav.kind(n) === principal && nav.namespace(n) === ns,
          named: undefined,
        };
      }
      // unprefixed attribute names have no namespace (Namespaces in XML 1.0 section 6.2)
      const unprefixed = principal === 'attribute' ? '' : scope.defaultNamespace;
      const ns = test.prefix === undefined ? unprefixed : resolvePrefix(test.prefix, scope, position);
      return {
        accept: (n: AnyNode, nav: AnyNavigator) =>
          nav.localName(n) === local && nav.namespace(n) === ns && nav.kind(n) === principal,
        named: principal === 'element' ? { namespace: ns, localName: local } : undefined,
      };
    }
  }
}

function isKeyPath(expr: Expr): expr is Expr & { type: 'Path' } {
  if (expr.type !== 'Path' || expr.absolute || expr.steps.length !== 1) return false;
  const step = expr.steps[0]!;
  return (
    step.axis === 'child' &&
    step.test.kind === 'name' &&
    step.test.localName !== '*' &&
    step.predicates.length === 0
  );
}

function compileStep<S extends StepScope>(
  step: Step,
  scope: S,
  compileExpr: ExprCompiler<S>,
  compileInSteps: SteppedExprCompiler<S> | undefined,
): CompiledStep {
  const principal = step.axis === 'attribute' ? 'attribute' : 'element';
  const matcher: NodeMatcher<AnyNode> = compileNodeTest(step.test, principal, scope, step.position);
  const predicates = step.predicates.map((p) => compileExpr(p, scope));
  const stepped = compileInSteps && step.predicates.map((p) => compileInSteps(p, scope));
  let key: KeyPredicate | undefined;
  const first = step.predicates[0];
  if (
    step.axis === 'child' &&
    matcher.named !== undefined &&
    first?.type === 'Binary' &&
    first.operator === '='
  ) {
    for (const [keySide, valueSide] of [
      [first.left, first.right],
      [first.right, first.left],
    ] as const) {
      if (isKeyPath(keySide) && isContextFree(valueSide)) {
        const keyStep = keySide.steps[0]!;
        key = {
          keyMatcher: compileNodeTest(keyStep.test, 'element', scope, keyStep.position),
          value: compileExpr(valueSide, scope),
          fallback: predicates[0]!,
        };
        break;
      }
    }
  }
  return {
    id: nextStepId++,
    axis: step.axis,
    reverse: REVERSE_AXES.has(step.axis),
    matcher,
    key,
    predicates: key === undefined ? predicates : predicates.slice(1),
    ...(stepped === undefined ? {} : { predicateSteps: key === undefined ? stepped : stepped.slice(1) }),
  };
}

/**
 * Compiles steps; `//name[...]` without positional predicates becomes one descendant step. With
 * `compileInSteps`, their predicates are compiled to evaluate in steps too (see steps-in-steps.ts).
 */
export function compileSteps<S extends StepScope>(
  steps: readonly Step[],
  scope: S,
  compileExpr: ExprCompiler<S>,
  compileInSteps?: SteppedExprCompiler<S>,
): CompiledStep[] {
  const out: CompiledStep[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const next = steps[i + 1];
    if (
      step.axis === 'descendant-or-self' &&
      step.test.kind === 'node' &&
      step.predicates.length === 0 &&
      next !== undefined &&
      next.axis === 'child' &&
      next.predicates.every(isPositionFree)
    ) {
      out.push(compileStep({ ...next, axis: 'descendant' }, scope, compileExpr, compileInSteps));
      i++;
      continue;
    }
    out.push(compileStep(step, scope, compileExpr, compileInSteps));
  }
  return out;
}
