/**
 * The XPath 1.0 abstract syntax tree. Abbreviations are expanded while parsing (XPath 1.0 section
 * 2.5): `//` becomes a `descendant-or-self::node()` step, `.` `self::node()`, `..` `parent::node()`
 * and `@` the attribute axis. Every node carries `position`, the offset of its first token.
 */
export type Expr =
  | BinaryExpr
  | NegateExpr
  | LiteralExpr
  | NumberExpr
  | VariableExpr
  | FunctionCallExpr
  | PathExpr
  | FilterExpr;

/** Binary operators of XPath 1.0 section 3, `|` included. */
export type BinaryOperator =
  | 'or'
  | 'and'
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '+'
  | '-'
  | '*'
  | 'div'
  | 'mod'
  | '|';

/** `left op right`. */
export interface BinaryExpr {
  readonly type: 'Binary';
  readonly operator: BinaryOperator;
  readonly left: Expr;
  readonly right: Expr;
  readonly position: number;
}

/** Unary minus (XPath 1.0 section 3.5). */
export interface NegateExpr {
  readonly type: 'Negate';
  readonly operand: Expr;
  readonly position: number;
}

/** A string literal, quotes removed. */
export interface LiteralExpr {
  readonly type: 'Literal';
  readonly value: string;
  readonly position: number;
}

/** A number literal (never negative: `-1` is a negation). */
export interface NumberExpr {
  readonly type: 'Number';
  readonly value: number;
  readonly position: number;
}

/** `$prefix:name`. */
export interface VariableExpr {
  readonly type: 'Variable';
  readonly prefix: string | undefined;
  readonly localName: string;
  readonly position: number;
}

/** `prefix:name(args)`; core and YANG functions have no prefix. */
export interface FunctionCallExpr {
  readonly type: 'FunctionCall';
  readonly prefix: string | undefined;
  readonly localName: string;
  readonly args: readonly Expr[];
  readonly position: number;
}

/** A location path: absolute (starts at the root) or relative (starts at the context node). */
export interface PathExpr {
  readonly type: 'Path';
  readonly absolute: boolean;
  readonly steps: readonly Step[];
  readonly position: number;
}

/** `primary[predicate]*` optionally followed by `/steps` (XPath 1.0 section 3.3). */
export interface FilterExpr {
  readonly type: 'Filter';
  readonly primary: Expr;
  readonly predicates: readonly Expr[];
  readonly steps: readonly Step[];
  readonly position: number;
}

/** The thirteen axes of XPath 1.0 section 2.2. */
export type Axis =
  | 'ancestor'
  | 'ancestor-or-self'
  | 'attribute'
  | 'child'
  | 'descendant'
  | 'descendant-or-self'
  | 'following'
  | 'following-sibling'
  | 'namespace'
  | 'parent'
  | 'preceding'
  | 'preceding-sibling'
  | 'self';

/** All axis names, for the lexer and property tests. */
export const AXES: readonly Axis[] = [
  'ancestor',
  'ancestor-or-self',
  'attribute',
  'child',
  'descendant',
  'descendant-or-self',
  'following',
  'following-sibling',
  'namespace',
  'parent',
  'preceding',
  'preceding-sibling',
  'self',
];

/** Axes whose proximity positions count backwards in document order (XPath 1.0 section 2.4). */
export const REVERSE_AXES: ReadonlySet<Axis> = new Set([
  'ancestor',
  'ancestor-or-self',
  'preceding',
  'preceding-sibling',
]);

/** A node test: a name test (`*`, `p:*`, `p:name`, `name`) or a node-type test. */
export type NodeTest =
  | { readonly kind: 'name'; readonly prefix: string | undefined; readonly localName: string }
  | { readonly kind: 'node' | 'text' | 'comment' }
  | { readonly kind: 'processing-instruction'; readonly literal: string | undefined };

/** One location step `axis::test[predicate]*`. */
export interface Step {
  readonly axis: Axis;
  readonly test: NodeTest;
  readonly predicates: readonly Expr[];
  readonly position: number;
}
