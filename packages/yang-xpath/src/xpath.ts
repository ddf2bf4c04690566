import type { Steps } from '@yangkit/xml';
import type { Expr } from './ast.js';
import { chargedNavigator } from './charged-navigator.js';
import { compileExpr, type Scope, type XPathExtensionFunction } from './compile.js';
import { compileInSteps, type SteppedEvaluator } from './compile-in-steps.js';
import {
  type AnyNode,
  type AnyValue,
  type EvalContext,
  EvalEnv,
  type EvaluationCache,
  type Evaluator,
} from './context.js';
import { XPathEvaluationError } from './errors.js';
import type { LeafrefPath, XPathNavigator } from './navigator.js';
import { parseXPath } from './parser.js';
import { toBoolean, toNumber, toStringValue, type XPathValue } from './values.js';
import { WorkBudget, WorkCounter } from './work.js';

type MapLike<V> = ReadonlyMap<string, V> | Readonly<Record<string, V>>;

/** Options of {@link compileXPath}. */
export interface CompileOptions {
  /**
   * Prefix -> namespace URI: module prefixes for YANG statements (the module's imports), module
   * names for RESTCONF and YANG-Push filters, in-scope XML declarations for NETCONF `:xpath` filters.
   */
  readonly prefixes?: MapLike<string>;
  /**
   * Namespace of unprefixed names (default ''). RFC 7950 section 6.4.1: in YANG expressions an
   * unprefixed name belongs to the module the expression appears in.
   */
  readonly defaultNamespace?: string;
  /** Extension functions, keyed by unprefixed name or `{namespace}name` for prefixed calls. */
  readonly functions?: MapLike<XPathExtensionFunction>;
  /** Declared variables with their default values, keyed by name or `{namespace}name`. */
  readonly variables?: MapLike<XPathValue<unknown>>;
  /** Longest accepted expression (default 65536 characters). */
  readonly maxLength?: number;
  /** Deepest accepted nesting (default 256). */
  readonly maxDepth?: number;
}

/** Options of one evaluation. */
export interface EvaluateOptions<N> {
  /** The node `current()` returns (RFC 7950 section 10.1.1); defaults to the context node. */
  readonly current?: N;
  /** Values for declared variables, overriding the compile-time defaults. */
  readonly variables?: MapLike<XPathValue<N>>;
  /** Key indexes shared by evaluations over one unchanged tree, see `createEvaluationCache`. */
  readonly cache?: EvaluationCache;
  /**
   * Most units of work the evaluation may do (nodes an axis produces or tests, predicate
   * evaluations, nodes sorted or merged, every 16 characters of the string-values it asks for)
   * before it throws an `XPathEvaluationError` with code `WORK_LIMIT`: a bound for expressions a
   * client sends, whose work can grow with the square of the tree (`//a[count(//b) > 0]`).
   * Default: no limit.
   */
  readonly maxWork?: number;
}

function toMap<V>(value: MapLike<V> | undefined): ReadonlyMap<string, V> {
  if (value === undefined) return new Map();
  if (value instanceof Map) return value;
  return new Map(Object.entries(value as Record<string, V>));
}

/**
 * An expression compiled once against its prefixes, functions and variables; evaluate it any
 * number of times over any tree through an {@link XPathNavigator}.
 */
export class CompiledXPath implements LeafrefPath<unknown> {
  /** The expression text. */
  readonly source: string;
  /** The parsed expression, for static analysis (see `checkSchemaPaths`). */
  readonly ast: Expr;
  private readonly evaluator: Evaluator;
  private readonly variables: ReadonlyMap<string, AnyValue>;
  private readonly scope: Scope;
  /** The expression compiled again to evaluate in steps, on the first such evaluation. */
  private stepped: SteppedEvaluator | undefined;

  /** @internal use {@link compileXPath} */
  constructor(
    source: string,
    ast: Expr,
    evaluator: Evaluator,
    variables: ReadonlyMap<string, AnyValue>,
    scope: Scope,
  ) {
    this.source = source;
    this.ast = ast;
    this.evaluator = evaluator;
    this.variables = variables;
    this.scope = scope;
  }

  private env<N>(contextNode: N, nav: XPathNavigator<N>, options: EvaluateOptions<N> | undefined): EvalEnv {
    let variables = this.variables;
    if (options?.variables !== undefined) {
      const merged = new Map(this.variables);
      for (const [name, value] of toMap(options.variables)) {
        if (merged.has(name)) merged.set(name, value);
      }
      variables = merged;
    }
    const current = options?.current === undefined ? contextNode : options.current;
    const maxWork = options?.maxWork;
    const budget = new WorkBudget(maxWork ?? Number.POSITIVE_INFINITY);
    const anyNav = nav as XPathNavigator<AnyNode>;
    // without a bound, no string-value is charged and the navigator is called as given
    const charged = maxWork === undefined ? anyNav : chargedNavigator(anyNav, budget);
    return new EvalEnv(charged, current, variables, options?.cache, budget);
  }

  /** @internal Evaluates as a sub-expression of another evaluation, within its environment and budget. */
  evaluateWithin(ctx: EvalContext): AnyValue {
    return this.evaluator({ node: ctx.node, position: 1, size: 1, env: ctx.env });
  }

  /** Evaluates with `contextNode` as context node (position 1, size 1); node-sets come in document order. */
  evaluate<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): XPathValue<N> {
    const env = this.env(contextNode, nav, options);
    return this.evaluator({ node: contextNode, position: 1, size: 1, env }) as XPathValue<N>;
  }

  /** Evaluates and converts with `boolean()` (how `must` and `when` are checked). */
  evaluateBoolean<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): boolean {
    return toBoolean(this.evaluate(contextNode, nav, options));
  }

  /** Evaluates and converts with `string()`. */
  evaluateString<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): string {
    return toStringValue(this.evaluate(contextNode, nav, options), nav);
  }

  /** Evaluates and converts with `number()`. */
  evaluateNumber<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): number {
    return toNumber(this.evaluate(contextNode, nav, options), nav);
  }

  /** Evaluates an expression that must yield a node-set (a leafref path, a filter); throws `TYPE` otherwise. */
  evaluateNodes<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): N[] {
    return this.nodeSet(this.evaluate(contextNode, nav, options));
  }

  /**
   * {@link evaluateNodes} in steps: a generator that yields every few dozen units of work (nodes an
   * axis visits, predicates evaluated, nodes sorted or merged) and returns the same node-set, so that
   * a server can evaluate a client's filter over a big tree in slices, giving its event loop back
   * between them. Location paths, unions of them and the steps after a filter expression are walked
   * node by node, and so are the paths inside predicates, function arguments and operands; a
   * function's own work on its evaluated arguments, a comparison of two values and a key predicate's
   * value are a single step each. The tree must not change until it ends.
   */
  *evaluateNodesSteps<N>(contextNode: N, nav: XPathNavigator<N>, options?: EvaluateOptions<N>): Steps<N[]> {
    return this.nodeSet(yield* this.evaluateSteps(contextNode, nav, options));
  }

  /**
   * {@link evaluateBoolean} in steps, as {@link evaluateNodesSteps} evaluates: how a server tests a
   * client's filter on a big event (`//*[count(//*) > 0]`) without holding its event loop.
   */
  *evaluateBooleanSteps<N>(
    contextNode: N,
    nav: XPathNavigator<N>,
    options?: EvaluateOptions<N>,
  ): Steps<boolean> {
    return toBoolean(yield* this.evaluateSteps(contextNode, nav, options));
  }

  private *evaluateSteps<N>(
    contextNode: N,
    nav: XPathNavigator<N>,
    options: EvaluateOptions<N> | undefined,
  ): Steps<XPathValue<N>> {
    if (this.stepped === undefined) this.stepped = compileInSteps(this.ast, this.scope);
    const env = this.env(contextNode, nav, options);
    const work = new WorkCounter(env.budget);
    const value = yield* this.stepped({ node: contextNode, position: 1, size: 1, env }, work);
    work.settle();
    return value as XPathValue<N>;
  }

  private nodeSet<N>(value: XPathValue<N>): N[] {
    if (!Array.isArray(value)) {
      throw new XPathEvaluationError(
        'TYPE',
        `'${this.source}' evaluates to a ${typeof value}, not a node-set`,
        0,
      );
    }
    return value;
  }
}

const instanceIdentifiers = new WeakMap<ReadonlyMap<string, string>, Map<string, CompiledXPath>>();
const MAX_CACHED_INSTANCE_IDENTIFIERS = 1024;

/** deref() of an instance-identifier: the value is an absolute path, compiled once per prefix map. */
function compileInstanceIdentifier(value: string, prefixes: ReadonlyMap<string, string>) {
  let perMap = instanceIdentifiers.get(prefixes);
  if (perMap === undefined) instanceIdentifiers.set(prefixes, (perMap = new Map()));
  let compiled = perMap.get(value);
  if (compiled === undefined) {
    compiled = compileXPath(value, { prefixes });
    if (perMap.size >= MAX_CACHED_INSTANCE_IDENTIFIERS) perMap.clear();
    perMap.set(value, compiled);
  }
  const path = compiled;
  return (ctx: EvalContext): AnyNode[] => {
    // an instance-identifier has no variables and no current(): the caller's environment serves
    const result = path.evaluateWithin(ctx);
    return Array.isArray(result) ? result : [];
  };
}

/**
 * Parses and compiles an XPath 1.0 expression with the core and YANG 1.1 function libraries.
 * Throws `XPathSyntaxError` for bad syntax and `XPathCompileError` for unknown prefixes, functions
 * or variables and wrong argument counts; both carry the offending `position`.
 */
export function compileXPath(expression: string, options: CompileOptions = {}): CompiledXPath {
  const parseOptions: { maxLength?: number; maxDepth?: number } = {};
  if (options.maxLength !== undefined) parseOptions.maxLength = options.maxLength;
  if (options.maxDepth !== undefined) parseOptions.maxDepth = options.maxDepth;
  const ast = parseXPath(expression, parseOptions);
  const prefixes = toMap(options.prefixes);
  const prefixOf = new Map<string, string>();
  for (const [prefix, namespace] of prefixes) if (!prefixOf.has(namespace)) prefixOf.set(namespace, prefix);
  const variables = toMap(options.variables) as ReadonlyMap<string, AnyValue>;
  const scope: Scope = {
    prefixes,
    prefixOf,
    defaultNamespace: options.defaultNamespace ?? '',
    functions: toMap(options.functions),
    variables: new Set(variables.keys()),
    compilePath: compileInstanceIdentifier,
  };
  return new CompiledXPath(expression, ast, compileExpr(ast, scope), variables, scope);
}
