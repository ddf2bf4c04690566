import type { BinaryOperator, Expr, FunctionCallExpr } from './ast.js';
import { compileSteps, resolvePrefix } from './compile-steps.js';
import type { AnyNavigator, AnyNode, AnyValue, EvalContext, Evaluator } from './context.js';
import { mergeOrdered } from './document-order.js';
import { XPathCompileError, XPathError, XPathEvaluationError } from './errors.js';
import { CORE_FUNCTIONS, type FunctionDef, type StaticEnv } from './functions-core.js';
import { resolveIdentity, YANG_FUNCTIONS } from './functions-yang.js';
import { applySteps, filterByPredicate } from './steps.js';
import { type ComparisonOperator, compareValues, toBoolean, toNumber } from './values.js';
import { compileXsdRegex } from './xsd-regex.js';

/** What an extension function receives besides its arguments. */
export interface ExtensionContext {
  readonly node: unknown;
  readonly position: number;
  readonly size: number;
  readonly current: unknown;
  readonly nav: AnyNavigator;
}

/** A caller-given function: evaluated arguments in, an XPath value out. */
export type XPathExtensionFunction = (context: ExtensionContext, ...args: AnyValue[]) => AnyValue;

/** Static context of one compilation. */
export interface Scope {
  readonly prefixes: ReadonlyMap<string, string>;
  readonly prefixOf: ReadonlyMap<string, string>;
  readonly defaultNamespace: string;
  /** Extension functions keyed by unprefixed name or `{namespace}name`. */
  readonly functions: ReadonlyMap<string, XPathExtensionFunction>;
  /** Declared variables keyed by unprefixed name or `{namespace}name`. */
  readonly variables: ReadonlySet<string>;
  readonly compilePath: StaticEnv['compilePath'];
}

/** `value` as a node-set, or a `TYPE` error naming `what` needed one. */
export function requireNodeSet(value: AnyValue, what: string, position: number): AnyNode[] {
  if (!Array.isArray(value)) {
    throw new XPathEvaluationError('TYPE', `${what} needs a node-set, got a ${typeof value}`, position);
  }
  return value;
}

function lookupFunction(expr: FunctionCallExpr, scope: Scope): FunctionDef {
  if (expr.prefix === undefined) {
    const builtin = CORE_FUNCTIONS.get(expr.localName) ?? YANG_FUNCTIONS.get(expr.localName);
    if (builtin !== undefined) return builtin;
  }
  const key =
    expr.prefix === undefined
      ? expr.localName
      : `{${resolvePrefix(expr.prefix, scope, expr.position)}}${expr.localName}`;
  const extension = scope.functions.get(key);
  if (extension === undefined) {
    const name = expr.prefix === undefined ? expr.localName : `${expr.prefix}:${expr.localName}`;
    throw new XPathCompileError(
      'UNKNOWN_FUNCTION',
      `unknown function '${name}' at position ${expr.position}`,
      expr.position,
    );
  }
  return {
    min: 0,
    max: Number.POSITIVE_INFINITY,
    returns: 'any',
    contextual: true,
    call: (ctx, args, site) => {
      const context = {
        node: ctx.node,
        position: ctx.position,
        size: ctx.size,
        current: ctx.env.current,
        nav: ctx.env.nav,
      };
      let result: unknown;
      try {
        result = extension(context, ...args);
      } catch (error) {
        if (XPathError.isInstance(error)) throw error;
        const message = `${expr.localName}() failed: ${String(error)}`;
        throw new XPathEvaluationError('FUNCTION_FAILED', message, site.position, { cause: error });
      }
      const type = typeof result;
      if (type !== 'number' && type !== 'string' && type !== 'boolean' && !Array.isArray(result)) {
        const message = `${expr.localName}() returned a ${type}, not an XPath value`;
        throw new XPathEvaluationError('FUNCTION_FAILED', message, site.position);
      }
      return result as AnyValue;
    },
  };
}

function checkLiteralArguments(expr: FunctionCallExpr, site: StaticEnv): void {
  const second = expr.args[1];
  if (expr.prefix !== undefined || second?.type !== 'Literal') return;
  if (expr.localName === 're-match') {
    try {
      compileXsdRegex(second.value);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new XPathCompileError('INVALID_REGEX', message, second.position);
    }
  }
  if (
    (expr.localName === 'derived-from' || expr.localName === 'derived-from-or-self') &&
    resolveIdentity(second.value, site) === undefined
  ) {
    throw new XPathCompileError(
      'UNKNOWN_PREFIX',
      `unknown prefix in identity '${second.value}' at position ${second.position}`,
      second.position,
    );
  }
}

/**
 * The function a call names, checked against its arguments (count, literal patterns and identities),
 * as a closure taking the evaluated arguments.
 */
export function compileCallee(
  expr: FunctionCallExpr,
  scope: Scope,
): (ctx: EvalContext, values: AnyValue[]) => AnyValue {
  const def = lookupFunction(expr, scope);
  const count = expr.args.length;
  if (count < def.min || count > def.max) {
    const wanted =
      def.min === def.max
        ? `${def.min}`
        : def.max === Number.POSITIVE_INFINITY
          ? `at least ${def.min}`
          : `${def.min} to ${def.max}`;
    throw new XPathCompileError(
      'ARITY',
      `${expr.localName}() takes ${wanted} argument(s), got ${count} at position ${expr.position}`,
      expr.position,
    );
  }
  const site: StaticEnv = {
    prefixes: scope.prefixes,
    prefixOf: scope.prefixOf,
    defaultNamespace: scope.defaultNamespace,
    position: expr.position,
    compilePath: scope.compilePath,
  };
  checkLiteralArguments(expr, site);
  const call = def.call;
  return (ctx, values) => call(ctx, values, site);
}

function compileCall(expr: FunctionCallExpr, scope: Scope): Evaluator {
  const callee = compileCallee(expr, scope);
  const args = expr.args.map((a) => compileExpr(a, scope));
  return (ctx) => {
    const values: AnyValue[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) values[i] = args[i]!(ctx);
    return callee(ctx, values);
  };
}

const ARITHMETIC: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  div: (a, b) => a / b,
  // JavaScript's % truncates like XPath 1.0 mod (section 3.5): 5 mod -2 = 1, -5 mod 2 = -1
  mod: (a, b) => a % b,
};

/** Compiles an expression into a closure; all name resolution happens here, once. */
export function compileExpr(expr: Expr, scope: Scope): Evaluator {
  switch (expr.type) {
    case 'Literal':
    case 'Number': {
      const value = expr.value;
      return () => value;
    }
    case 'Variable': {
      const key =
        expr.prefix === undefined
          ? expr.localName
          : `{${resolvePrefix(expr.prefix, scope, expr.position)}}${expr.localName}`;
      if (!scope.variables.has(key)) {
        throw new XPathCompileError(
          'UNKNOWN_VARIABLE',
          `unknown variable '$${key}' at position ${expr.position}`,
          expr.position,
        );
      }
      return (ctx) => ctx.env.variables.get(key)!;
    }
    case 'Negate': {
      const operand = compileExpr(expr.operand, scope);
      return (ctx) => -toNumber(operand(ctx), ctx.env.nav);
    }
    case 'FunctionCall':
      return compileCall(expr, scope);
    case 'Path': {
      const only = expr.steps[0];
      if (!expr.absolute && expr.steps.length === 1 && only!.axis === 'self' && only!.test.kind === 'node') {
        // `.` is the commonest path in must expressions: no step machinery needed
        if (only!.predicates.length === 0) return (ctx) => [ctx.node];
      }
      const steps = compileSteps(expr.steps, scope, compileExpr);
      if (expr.absolute) return (ctx) => applySteps([ctx.env.nav.root(ctx.node)], true, steps, ctx.env);
      return (ctx) => applySteps([ctx.node], true, steps, ctx.env);
    }
    case 'Filter': {
      const primary = compileExpr(expr.primary, scope);
      const predicates = expr.predicates.map((p) => compileExpr(p, scope));
      const steps = compileSteps(expr.steps, scope, compileExpr);
      const position = expr.position;
      return (ctx) => {
        let nodes = requireNodeSet(primary(ctx), 'a filter or path step', position);
        // predicates of a filter expression count positions in document order (section 3.3)
        for (const predicate of predicates) nodes = filterByPredicate(nodes, predicate, ctx.env);
        return steps.length === 0 ? nodes : applySteps(nodes, nodes.length <= 1, steps, ctx.env);
      };
    }
    case 'Binary':
      return compileBinary(expr, scope);
  }
}

/** A binary operator that takes both operands' values: a comparison or arithmetic. */
export type ValueOperator = Exclude<BinaryOperator, 'or' | 'and' | '|'>;

/** The operation of a comparison or arithmetic operator, on its operands' values. */
export function binaryOperation(
  op: ValueOperator,
): (a: AnyValue, b: AnyValue, nav: AnyNavigator) => AnyValue {
  switch (op) {
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const cmp: ComparisonOperator = op;
      return (a, b, nav) => compareValues(cmp, a, b, nav);
    }
    default: {
      const fn = ARITHMETIC[op]!;
      return (a, b, nav) => fn(toNumber(a, nav), toNumber(b, nav));
    }
  }
}

function compileBinary(expr: Expr & { type: 'Binary' }, scope: Scope): Evaluator {
  const left = compileExpr(expr.left, scope);
  const right = compileExpr(expr.right, scope);
  const op = expr.operator;
  switch (op) {
    case 'or':
      return (ctx) => toBoolean(left(ctx)) || toBoolean(right(ctx));
    case 'and':
      return (ctx) => toBoolean(left(ctx)) && toBoolean(right(ctx));
    case '|': {
      const position = expr.position;
      return (ctx) => {
        const a = requireNodeSet(left(ctx), "'|'", position);
        const b = requireNodeSet(right(ctx), "'|'", position);
        if (b.length === 0) return a;
        if (a.length === 0) return b;
        return mergeOrdered(a, b, ctx.env.order());
      };
    }
    default: {
      const operation = binaryOperation(op);
      return (ctx) => operation(left(ctx), right(ctx), ctx.env.nav);
    }
  }
}
