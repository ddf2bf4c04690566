import type { Expr, NodeTest, Step } from './ast.js';
import { XPathCompileError, type XPathError, XPathSchemaError } from './errors.js';

/**
 * How `checkSchemaPaths` walks a schema tree. Only data nodes are visible: choice and case nodes
 * are the implementer's business (skip them in `children` and `parent`), as in RFC 7950 section 6.4.1.
 */
export interface SchemaNavigator<S> {
  /** The schema root above the top-level data nodes (of all modules). */
  root(node: S): S;
  /** The parent data node; `undefined` for the root. */
  parent(node: S): S | undefined;
  /** Child data nodes (containers, lists, leafs, leaf-lists, anydata...). */
  children(node: S): Iterable<S>;
  /** Local name of a data node. */
  localName(node: S): string;
  /** Namespace of the module defining the node. */
  namespace(node: S): string;
}

/** Options of {@link checkSchemaPaths}. */
export interface SchemaCheckOptions<S> {
  /** prefix -> namespace, as given to compileXPath. */
  readonly prefixes?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /** Namespace of unprefixed names. */
  readonly defaultNamespace?: string;
  /** The schema node of `current()`; defaults to the context node. */
  readonly current?: S;
}

type Nodes<S> = ReadonlySet<S> | undefined; // undefined: not known statically, stop checking

class Checker<S> {
  readonly errors: XPathError[] = [];
  private readonly prefixes: ReadonlyMap<string, string>;

  constructor(
    private readonly nav: SchemaNavigator<S>,
    private readonly current: S,
    options: SchemaCheckOptions<S>,
    private readonly defaultNamespace = options.defaultNamespace ?? '',
  ) {
    const p = options.prefixes;
    this.prefixes = p === undefined ? new Map() : p instanceof Map ? p : new Map(Object.entries(p));
  }

  expr(expr: Expr, context: Nodes<S>): Nodes<S> {
    switch (expr.type) {
      case 'Path': {
        if (context === undefined) return undefined;
        const start = expr.absolute ? new Set([...context].map((n) => this.nav.root(n))) : context;
        return this.steps(expr.steps, start);
      }
      case 'Filter': {
        const primary = this.expr(expr.primary, context);
        for (const predicate of expr.predicates) this.expr(predicate, primary);
        return this.steps(expr.steps, primary);
      }
      case 'FunctionCall':
        for (const arg of expr.args) this.expr(arg, context);
        if (expr.prefix === undefined && expr.localName === 'current') return new Set([this.current]);
        return undefined;
      case 'Binary': {
        const left = this.expr(expr.left, context);
        const right = this.expr(expr.right, context);
        if (expr.operator !== '|' || left === undefined || right === undefined) return undefined;
        return new Set([...left, ...right]);
      }
      case 'Negate':
        this.expr(expr.operand, context);
        return undefined;
      default:
        return undefined;
    }
  }

  private steps(steps: readonly Step[], start: Nodes<S>): Nodes<S> {
    let nodes = start;
    for (const step of steps) {
      if (nodes === undefined || nodes.size === 0) return nodes;
      const next = this.step(step, nodes);
      if (next !== undefined && next.size === 0) {
        this.errors.push(
          new XPathSchemaError(
            `'${describe(step)}' at position ${step.position} names no schema node`,
            step.position,
            describe(step),
          ),
        );
        return undefined;
      }
      for (const predicate of step.predicates) this.expr(predicate, next);
      nodes = next;
    }
    return nodes;
  }

  private matcher(test: NodeTest, position: number): ((n: S) => boolean) | undefined {
    if (test.kind === 'node') return () => true;
    if (test.kind !== 'name') return undefined; // text(), comment(), pi(): not schema nodes
    let namespace: string | undefined;
    if (test.prefix !== undefined) {
      namespace = this.prefixes.get(test.prefix);
      if (namespace === undefined) {
        this.errors.push(
          new XPathCompileError(
            'UNKNOWN_PREFIX',
            `unknown prefix '${test.prefix}' at position ${position}`,
            position,
          ),
        );
        return undefined;
      }
    } else if (test.localName !== '*') {
      namespace = this.defaultNamespace;
    }
    const local = test.localName;
    return (n) =>
      (local === '*' || this.nav.localName(n) === local) &&
      (namespace === undefined || this.nav.namespace(n) === namespace);
  }

  private descendants(node: S, out: Set<S>): void {
    const stack = [node];
    while (stack.length > 0) {
      for (const child of this.nav.children(stack.pop()!)) {
        if (out.has(child)) continue;
        out.add(child);
        stack.push(child);
      }
    }
  }

  private step(step: Step, nodes: ReadonlySet<S>): Nodes<S> {
    const accept = this.matcher(step.test, step.position);
    if (accept === undefined) return undefined;
    const candidates = new Set<S>();
    for (const node of nodes) {
      switch (step.axis) {
        case 'child':
          for (const child of this.nav.children(node)) candidates.add(child);
          break;
        case 'self':
          candidates.add(node);
          break;
        case 'parent': {
          const parent = this.nav.parent(node);
          if (parent !== undefined) candidates.add(parent);
          break;
        }
        case 'descendant-or-self':
          candidates.add(node);
          this.descendants(node, candidates);
          break;
        case 'descendant':
          this.descendants(node, candidates);
          break;
        case 'ancestor-or-self':
          candidates.add(node);
          for (let p = this.nav.parent(node); p !== undefined; p = this.nav.parent(p)) candidates.add(p);
          break;
        case 'ancestor':
          for (let p = this.nav.parent(node); p !== undefined; p = this.nav.parent(p)) candidates.add(p);
          break;
        case 'following-sibling':
        case 'preceding-sibling': {
          const parent = this.nav.parent(node);
          if (parent === undefined) break;
          // instances of one list or leaf-list are siblings of themselves
          for (const sibling of this.nav.children(parent)) candidates.add(sibling);
          break;
        }
        default:
          // attribute (metadata), namespace, following, preceding: not checked statically
          return undefined;
      }
    }
    const out = new Set<S>();
    for (const candidate of candidates) if (accept(candidate)) out.add(candidate);
    return out;
  }
}

function describe(step: Step): string {
  const test = step.test;
  const name =
    test.kind === 'name'
      ? test.prefix === undefined
        ? test.localName
        : `${test.prefix}:${test.localName}`
      : `${test.kind}()`;
  if (step.axis === 'parent' && test.kind === 'node') return '..';
  return step.axis === 'child' ? name : `${step.axis}::${name}`;
}

/**
 * Checks the location paths of a parsed expression against a schema tree (RFC 7950 section 6.4.1:
 * `must`, `when` and leafref paths are evaluated in the schema's accessible tree). Every step that
 * can select no schema node is reported with its position; steps over axes the schema cannot
 * decide (attributes, following, preceding) end the check of that path. Returns no errors when
 * all paths resolve.
 */
export function checkSchemaPaths<S>(
  ast: Expr,
  schemaNav: SchemaNavigator<S>,
  contextSchemaNode: S,
  options: SchemaCheckOptions<S> = {},
): XPathError[] {
  const checker = new Checker(schemaNav, options.current ?? contextSchemaNode, options);
  checker.expr(ast, new Set([contextSchemaNode]));
  return checker.errors;
}
