import type { Expr, Step } from './ast.js';
import { parseXPath } from './parser.js';

/** Where a module name goes: before the name test at `offset`. */
interface Insertion {
  readonly offset: number;
  readonly module: string;
}

/** Axes whose unprefixed name tests belong to the module of the node the step starts from. */
const INHERITING = new Set(['child', 'descendant', 'descendant-or-self', 'self']);

/** Offset of a step's name test: after `axis::` when the axis is written, else the step itself. */
function nameOffset(text: string, step: Step): number {
  const rest = text.slice(step.position);
  const written = /^[A-Za-z-]+\s*::\s*/.exec(rest);
  return step.position + (written === null ? 0 : written[0].length);
}

/**
 * The steps of one location path: `start` is the module of the node it starts at (undefined for
 * the root or when unknown). An unprefixed name test takes the module of the node its step starts
 * from; a prefixed one sets the module for the steps after it.
 */
function steps(text: string, list: readonly Step[], start: string | undefined, out: Insertion[]): void {
  const trail: (string | undefined)[] = [];
  let current = start;
  for (const step of list) {
    let module: string | undefined;
    if (step.axis === 'parent') {
      module = trail.pop();
    } else if (INHERITING.has(step.axis)) {
      if (step.axis !== 'self') trail.push(current);
      module = current;
    } else {
      trail.length = 0;
    }
    const test = step.test;
    if (test.kind === 'name') {
      if (test.prefix !== undefined) module = test.prefix;
      else if (test.localName === '*' || step.axis === 'attribute' || step.axis === 'namespace')
        module = undefined;
      else if (module !== undefined) out.push({ offset: nameOffset(text, step), module });
    }
    current = module;
    for (const p of step.predicates) walk(text, p, current, out);
  }
}

function walk(text: string, expr: Expr, context: string | undefined, out: Insertion[]): void {
  switch (expr.type) {
    case 'Path':
      steps(text, expr.steps, expr.absolute ? undefined : context, out);
      break;
    case 'Filter':
      walk(text, expr.primary, context, out);
      for (const p of expr.predicates) walk(text, p, undefined, out);
      steps(text, expr.steps, undefined, out);
      break;
    case 'FunctionCall':
      for (const a of expr.args) walk(text, a, context, out);
      break;
    case 'Binary':
      walk(text, expr.left, context, out);
      walk(text, expr.right, context, out);
      break;
    case 'Negate':
      walk(text, expr.operand, context, out);
      break;
    default:
      break;
  }
}

/**
 * Writes the module name on every unprefixed name test whose module the expression itself tells,
 * the way RFC 7951 writes names in JSON (section 4, and section 6.11 for instance-identifiers): a
 * name without a module belongs to the module of the node its step starts from, so the module is
 * written on the first step and where it changes. `/ex:top/child[name='a']/ex2:leaf` becomes
 * `/ex:top/ex:child[ex:name='a']/ex2:leaf`, which XPath 1.0 evaluates as meant (an unprefixed name
 * there is in no namespace). Names after `*`, on attributes, or whose start is unknown (the first
 * step of an absolute path) are left as written; text that is not XPath 1.0 is returned as is.
 */
export function qualifyNames(expression: string): string {
  let parsed: Expr;
  try {
    parsed = parseXPath(expression);
  } catch {
    return expression;
  }
  const out: Insertion[] = [];
  walk(expression, parsed, undefined, out);
  out.sort((a, b) => a.offset - b.offset);
  let result = '';
  let at = 0;
  for (const { offset, module } of out) {
    result += `${expression.slice(at, offset)}${module}:`;
    at = offset;
  }
  return result + expression.slice(at);
}
