import { YangCompileError } from '../errors';
import type { YangStatement } from '../parser/statement';

/** A parsed if-feature expression (RFC 7950 7.20.2): a feature reference or not/and/or of others. */
export type FeatureExpr =
  | { readonly op: 'ref'; readonly prefix: string | undefined; readonly name: string }
  | { readonly op: 'not'; readonly arg: FeatureExpr }
  | { readonly op: 'and' | 'or'; readonly left: FeatureExpr; readonly right: FeatureExpr };

/**
 * Parses the argument of `if-feature`:
 * `if-feature-expr = term [sep "or" sep expr]`, `term = factor [sep "and" sep term]`,
 * `factor = "not" sep factor / "(" expr ")" / identifier-ref-arg`.
 */
export function parseIfFeature(statement: YangStatement, module: string): FeatureExpr {
  const text = statement.argument ?? '';
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const fail = (why: string): never => {
    throw new YangCompileError(`invalid if-feature expression "${text}": ${why}`, {
      location: statement.location,
      module,
    });
  };
  const expr = (depth: number): FeatureExpr => {
    if (depth > 64) fail('nested too deeply');
    let left = term(depth);
    while (tokens[i] === 'or') {
      i++;
      left = { op: 'or', left, right: term(depth) };
    }
    return left;
  };
  const term = (depth: number): FeatureExpr => {
    let left = factor(depth);
    while (tokens[i] === 'and') {
      i++;
      left = { op: 'and', left, right: factor(depth) };
    }
    return left;
  };
  const factor = (depth: number): FeatureExpr => {
    if (depth > 64) fail('nested too deeply');
    const t = tokens[i++];
    if (t === undefined) return fail('unexpected end');
    if (t === 'not') return { op: 'not', arg: factor(depth + 1) };
    if (t === '(') {
      const inner = expr(depth + 1);
      if (tokens[i++] !== ')') fail('missing ")"');
      return inner;
    }
    if (t === ')' || t === 'and' || t === 'or') return fail(`unexpected "${t}"`);
    const m = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)$/.exec(t);
    if (!m) return fail(`invalid feature name "${t}"`);
    return { op: 'ref', prefix: m[1], name: m[2] ?? '' };
  };
  const result = expr(0);
  if (i !== tokens.length) fail(`unexpected "${tokens[i]}"`);
  return result;
}

/** Evaluates an expression with a callback saying whether a referenced feature is enabled. */
export function evalFeatureExpr(
  expr: FeatureExpr,
  isEnabled: (prefix: string | undefined, name: string) => boolean,
): boolean {
  switch (expr.op) {
    case 'ref':
      return isEnabled(expr.prefix, expr.name);
    case 'not':
      return !evalFeatureExpr(expr.arg, isEnabled);
    case 'and':
      return evalFeatureExpr(expr.left, isEnabled) && evalFeatureExpr(expr.right, isEnabled);
    case 'or':
      return evalFeatureExpr(expr.left, isEnabled) || evalFeatureExpr(expr.right, isEnabled);
  }
}
