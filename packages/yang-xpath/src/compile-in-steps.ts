import type { Steps } from '@yangkit/xml';
import type { Expr } from './ast.js';
import { compileExpr, requireNodeSet, type Scope } from './compile.js';
import { compileSteps } from './compile-steps.js';
import type { AnyValue, EvalContext } from './context.js';
import { mergeOrderedSteps } from './document-order.js';
import { applyStepsSteps, filterByPredicateSteps } from './steps-in-steps.js';
import type { WorkCounter } from './work.js';

/** A compiled expression that evaluates in steps (see the XML layer's `Steps`). */
export type SteppedEvaluator = (ctx: EvalContext, work: WorkCounter) => Steps<AnyValue>;

/**
 * Compiles an expression to evaluate in steps. Location paths (absolute or relative), unions of
 * them and the steps after a filter expression are walked node by node (see steps-in-steps.ts);
 * any other expression (a function call, a comparison, a predicate) is evaluated in one step, by
 * the closure {@link compileExpr} makes of it.
 */
export function compileInSteps(expr: Expr, scope: Scope): SteppedEvaluator {
  switch (expr.type) {
    case 'Path': {
      const steps = compileSteps(expr.steps, scope, compileExpr);
      const absolute = expr.absolute;
      return (ctx, work) =>
        applyStepsSteps([absolute ? ctx.env.nav.root(ctx.node) : ctx.node], true, steps, ctx.env, work);
    }
    case 'Filter': {
      const primary = compileInSteps(expr.primary, scope);
      const predicates = expr.predicates.map((p) => compileExpr(p, scope));
      const steps = compileSteps(expr.steps, scope, compileExpr);
      const position = expr.position;
      return function* (ctx, work) {
        let nodes = requireNodeSet(yield* primary(ctx, work), 'a filter or path step', position);
        // predicates of a filter expression count positions in document order (section 3.3)
        for (const predicate of predicates)
          nodes = yield* filterByPredicateSteps(nodes, predicate, ctx.env, work);
        if (steps.length === 0) return nodes;
        return yield* applyStepsSteps(nodes, nodes.length <= 1, steps, ctx.env, work);
      };
    }
    case 'Binary': {
      if (expr.operator !== '|') break;
      const left = compileInSteps(expr.left, scope);
      const right = compileInSteps(expr.right, scope);
      const position = expr.position;
      return function* (ctx, work) {
        const a = requireNodeSet(yield* left(ctx, work), "'|'", position);
        const b = requireNodeSet(yield* right(ctx, work), "'|'", position);
        if (b.length === 0) return a;
        if (a.length === 0) return b;
        return yield* mergeOrderedSteps(a, b, ctx.env.order(), work);
      };
    }
  }
  const evaluate = compileExpr(expr, scope);
  // biome-ignore lint/correctness/useYield: an expression that is not a path is one step
  return function* (ctx) {
    return evaluate(ctx);
  };
}
