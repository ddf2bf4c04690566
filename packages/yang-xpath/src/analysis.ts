import type { Expr } from './ast.js';
import { CORE_FUNCTIONS, type FunctionDef, type ResultType } from './functions-core.js';
import { YANG_FUNCTIONS } from './functions-yang.js';

function builtin(expr: Expr): FunctionDef | undefined {
  if (expr.type !== 'FunctionCall' || expr.prefix !== undefined) return undefined;
  return CORE_FUNCTIONS.get(expr.localName) ?? YANG_FUNCTIONS.get(expr.localName);
}

/** The static result type of an expression ('any' for variables and extension functions). */
export function resultType(expr: Expr): ResultType {
  switch (expr.type) {
    case 'Binary':
      if (expr.operator === '|') return 'node-set';
      if (['+', '-', '*', 'div', 'mod'].includes(expr.operator)) return 'number';
      return 'boolean';
    case 'Negate':
    case 'Number':
      return 'number';
    case 'Literal':
      return 'string';
    case 'Path':
    case 'Filter':
      return 'node-set';
    case 'Variable':
      return 'any';
    case 'FunctionCall':
      return builtin(expr)?.returns ?? 'any';
  }
}

/**
 * True when the value does not depend on the context node, position or size: literals, variables,
 * absolute paths, paths from current(), and functions of such arguments.
 */
export function isContextFree(expr: Expr): boolean {
  switch (expr.type) {
    case 'Literal':
    case 'Number':
    case 'Variable':
      return true;
    case 'Path':
      return expr.absolute;
    case 'Filter':
      return isContextFree(expr.primary);
    case 'Negate':
      return isContextFree(expr.operand);
    case 'Binary':
      return isContextFree(expr.left) && isContextFree(expr.right);
    case 'FunctionCall': {
      const def = builtin(expr);
      if (def === undefined) return false;
      if (def.contextual && (expr.args.length === 0 || expr.localName === 'lang')) return false;
      return expr.args.every(isContextFree);
    }
  }
}

function callsPositionOrLast(expr: Expr): boolean {
  switch (expr.type) {
    case 'FunctionCall':
      if (expr.prefix === undefined && (expr.localName === 'position' || expr.localName === 'last'))
        return true;
      return expr.args.some(callsPositionOrLast);
    case 'Binary':
      return callsPositionOrLast(expr.left) || callsPositionOrLast(expr.right);
    case 'Negate':
      return callsPositionOrLast(expr.operand);
    case 'Filter':
      // the filter's own predicates have their own context
      return callsPositionOrLast(expr.primary);
    default:
      return false;
  }
}

/** True when a predicate's outcome cannot depend on the proximity position or context size. */
export function isPositionFree(predicate: Expr): boolean {
  const type = resultType(predicate);
  if (type === 'number' || type === 'any') return false;
  return !callsPositionOrLast(predicate);
}
