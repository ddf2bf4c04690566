import type { Expr } from './ast.js';
import { binaryOperation, compileCallee, compileExpr, requireNodeSet, type Scope } from './compile.js';
import { compileSteps } from './compile-steps.js';
import type { AnyValue, SteppedEvaluator } from './context.js';
import { mergeOrderedSteps } from './document-order.js';
import { applyStepsSteps, filterByPredicateSteps, inOneStep } from './steps-in-steps.js';
import { toBoolean, toNumber } from './values.js';

export type { SteppedEvaluator };

/**
 * Compiles an expression to evaluate in steps, with the results {@link compileExpr}'s closure gives.
 * Location paths (absolute or relative), unions of them and the steps after a filter expression are
 * walked node by node (see steps-in-steps.ts), and so are the predicates of their steps, the
 * arguments of a function call and the operands of an operator, whatever their depth: a predicate
 * such as `[count(//name) > 0]` walks the tree in steps for every node it is evaluated on. What stays
 * one step: a function's own work on its evaluated arguments (a string-value, say), a comparison of
 * two values, and a key predicate's value and its fallback (steps.ts).
 */
export function compileInSteps(expr: Expr, scope: Scope): SteppedEvaluator {
  switch (expr.type) {
    case 'Path': {
      const steps = compileSteps(expr.steps, scope, compileExpr, compileInSteps);
      const absolute = expr.absolute;
      return (ctx, work) =>
        applyStepsSteps([absolute ? ctx.env.nav.root(ctx.node) : ctx.node], true, steps, ctx.env, work);
    }
    case 'Filter': {
      const primary = compileInSteps(expr.primary, scope);
      const predicates = expr.predicates.map((p) => compileInSteps(p, scope));
      const steps = compileSteps(expr.steps, scope, compileExpr, compileInSteps);
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
    case 'FunctionCall': {
      const callee = compileCallee(expr, scope);
      const args = expr.args.map((a) => compileInSteps(a, scope));
      return function* (ctx, work) {
        const values: AnyValue[] = new Array(args.length);
        for (let i = 0; i < args.length; i++) values[i] = yield* args[i]!(ctx, work);
        return callee(ctx, values);
      };
    }
    case 'Negate': {
      const operand = compileInSteps(expr.operand, scope);
      return function* (ctx, work) {
        return -toNumber(yield* operand(ctx, work), ctx.env.nav);
      };
    }
    case 'Binary':
      return compileBinaryInSteps(expr, scope);
    default:
      return inOneStep(compileExpr(expr, scope));
  }
}

/** An operator's expression in steps: its operands in steps, `and` and `or` stopping early. */
function compileBinaryInSteps(expr: Expr & { type: 'Binary' }, scope: Scope): SteppedEvaluator {
  const left = compileInSteps(expr.left, scope);
  const right = compileInSteps(expr.right, scope);
  const op = expr.operator;
  switch (op) {
    case 'or':
      return function* (ctx, work) {
        return toBoolean(yield* left(ctx, work)) || toBoolean(yield* right(ctx, work));
      };
    case 'and':
      return function* (ctx, work) {
        return toBoolean(yield* left(ctx, work)) && toBoolean(yield* right(ctx, work));
      };
    case '|': {
      const position = expr.position;
      return function* (ctx, work) {
        const a = requireNodeSet(yield* left(ctx, work), "'|'", position);
        const b = requireNodeSet(yield* right(ctx, work), "'|'", position);
        if (b.length === 0) return a;
        if (a.length === 0) return b;
        return yield* mergeOrderedSteps(a, b, ctx.env.order(), work);
      };
    }
    default: {
      const operation = binaryOperation(op);
      return function* (ctx, work) {
        const a = yield* left(ctx, work);
        return operation(a, yield* right(ctx, work), ctx.env.nav);
      };
    }
  }
}
