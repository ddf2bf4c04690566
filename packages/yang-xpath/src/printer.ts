import type { BinaryOperator, Expr, NodeTest, Step } from './ast.js';
import { numberToString } from './values.js';

// precedence of XPath 1.0 section 3 (higher binds tighter)
const PRECEDENCE: Record<BinaryOperator, number> = {
  or: 1,
  and: 2,
  '=': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  div: 6,
  mod: 6,
  '|': 8,
};
const UNARY = 7;
const PRIMARY = 9;

function precedenceOf(expr: Expr): number {
  if (expr.type === 'Binary') return PRECEDENCE[expr.operator];
  if (expr.type === 'Negate') return UNARY;
  return PRIMARY;
}

function literal(value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  // XPath 1.0 literals cannot hold both quote characters: spell the value with concat()
  const parts = value.split("'").map((part) => `'${part}'`);
  return `concat(${parts.join(`, "'", `)})`;
}

function number(value: number): string {
  // "Infinity" would read back as a name test; a digit string too large for a double reads back as Infinity
  if (value === Number.POSITIVE_INFINITY) return `1${'0'.repeat(309)}`;
  return numberToString(value);
}

function nodeTest(test: NodeTest): string {
  switch (test.kind) {
    case 'name':
      return test.prefix === undefined ? test.localName : `${test.prefix}:${test.localName}`;
    case 'processing-instruction':
      return test.literal === undefined
        ? 'processing-instruction()'
        : `processing-instruction(${literal(test.literal)})`;
    default:
      return `${test.kind}()`;
  }
}

function step(s: Step): string {
  return `${s.axis}::${nodeTest(s.test)}${s.predicates.map((p) => `[${printXPath(p)}]`).join('')}`;
}

function wrap(expr: Expr, parens: boolean): string {
  const text = printXPath(expr);
  return parens ? `(${text})` : text;
}

/**
 * Prints an expression as XPath 1.0 text that parses back to the same tree (positions aside):
 * steps in unabbreviated form, parentheses only where precedence needs them.
 */
export function printXPath(expr: Expr): string {
  switch (expr.type) {
    case 'Literal':
      return literal(expr.value);
    case 'Number':
      return number(expr.value);
    case 'Variable':
      return expr.prefix === undefined ? `$${expr.localName}` : `$${expr.prefix}:${expr.localName}`;
    case 'FunctionCall': {
      const name = expr.prefix === undefined ? expr.localName : `${expr.prefix}:${expr.localName}`;
      return `${name}(${expr.args.map(printXPath).join(', ')})`;
    }
    case 'Negate':
      return `-${wrap(expr.operand, precedenceOf(expr.operand) < UNARY)}`;
    case 'Binary': {
      const p = PRECEDENCE[expr.operator];
      // left-associative: the right operand needs parentheses at equal precedence too
      const left = wrap(expr.left, precedenceOf(expr.left) < p);
      const right = wrap(expr.right, precedenceOf(expr.right) <= p);
      return `${left} ${expr.operator} ${right}`;
    }
    case 'Path': {
      // a bare root is parenthesized: `/ * 2` would read `*` as a name test
      if (expr.absolute && expr.steps.length === 0) return '(/)';
      const body = expr.steps.map(step).join('/');
      return expr.absolute ? `/${body}` : body;
    }
    case 'Filter': {
      const primary = expr.primary;
      const simple =
        primary.type === 'FunctionCall' || primary.type === 'Literal' || primary.type === 'Variable';
      const predicates = expr.predicates.map((p) => `[${printXPath(p)}]`).join('');
      const steps = expr.steps.length === 0 ? '' : `/${expr.steps.map(step).join('/')}`;
      return `${wrap(primary, !simple)}${predicates}${steps}`;
    }
  }
}
