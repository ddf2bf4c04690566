import type { YangStatement } from '../parser/statement';
import { sub, subArg, subs } from '../parser/statement';
import { NodeImpl } from '../schema-node';
import type { SchemaNodeKind } from '../schema-types';
import type { CompileContext, Scope } from './context';
import type { ModuleCtx } from './module-set';
import { readCommon, readElements, readLeafLike, whenOf } from './node-properties';
import { applyRefine, findRelative } from './refine';
import type { TypeResolver } from './type-resolver';

/** Keywords that create schema nodes (RFC 7950 7.x data definition and operation statements). */
const NODE_KEYWORDS: ReadonlySet<string> = new Set([
  'container',
  'list',
  'leaf',
  'leaf-list',
  'choice',
  'case',
  'anydata',
  'anyxml',
  'rpc',
  'action',
  'notification',
  'input',
  'output',
  'uses',
]);

/** Keywords that may appear as a shorthand case directly under a choice (RFC 7950 7.9.2). */
const SHORTHAND: ReadonlySet<string> = new Set([
  'container',
  'list',
  'leaf',
  'leaf-list',
  'anydata',
  'anyxml',
  'choice',
]);

const MAX_USES_DEPTH = 96;

/** Deepest schema tree built; keeps the recursive passes far from the stack limit. */
const MAX_TREE_DEPTH = 512;

/** Kinds an augment may target (RFC 7950 7.17). */
const AUGMENTABLE: ReadonlySet<SchemaNodeKind> = new Set([
  'container',
  'list',
  'choice',
  'case',
  'input',
  'output',
  'notification',
]);

/** Turns data definition statements into compiled nodes: uses expanded, refined and augmented in place. */
export class NodeBuilder {
  private readonly expanding = new Set<YangStatement>();
  private usesDepth = 0;

  constructor(
    private readonly ctx: CompileContext,
    private readonly types: TypeResolver,
  ) {}

  /** Builds every node-creating substatement of `statements` under `parent` into `out`. */
  buildAll(
    statements: readonly YangStatement[],
    parent: NodeImpl | undefined,
    scope: Scope,
    ns: ModuleCtx,
    out: NodeImpl[],
  ): void {
    for (const s of statements) {
      if (s.prefix === undefined && NODE_KEYWORDS.has(s.keyword)) this.build(s, parent, scope, ns, out);
    }
  }

  /**
   * Builds one statement (a uses may yield several nodes) and appends the result to `out`. Nodes whose
   * if-feature is false are built too and marked disabled, so that augments, refines and deviations of
   * them still find their target; they are pruned before the tree is finalized (as libyang does).
   */
  build(s: YangStatement, parent: NodeImpl | undefined, scope: Scope, ns: ModuleCtx, out: NodeImpl[]): void {
    const start = out.length;
    this.buildNode(s, parent, scope, ns, out);
    if (!this.ctx.ifFeaturesHold(s, scope.unit)) {
      for (let i = start; i < out.length; i++) out[i]!.disabled = true;
    }
  }

  private buildNode(
    s: YangStatement,
    parent: NodeImpl | undefined,
    scope: Scope,
    ns: ModuleCtx,
    out: NodeImpl[],
  ): void {
    const unit = scope.unit;
    if (s.keyword === 'uses') {
      this.uses(s, parent, scope, ns, out);
      return;
    }
    if (parent?.kind === 'choice' && s.keyword !== 'case') {
      if (!SHORTHAND.has(s.keyword)) this.ctx.fail(`"${s.keyword}" is not allowed in a choice`, s, unit);
      // RFC 7950 7.9.2: a shorthand case is an implicit case with the child's name.
      const c = this.node('case', s, parent, ns);
      c.location = s.location;
      out.push(c);
      this.build(s, c, scope, ns, c.children);
      // The implicit case carries the status of the node it wraps.
      c.status = c.children[0]?.status ?? 'current';
      return;
    }
    const kind = s.keyword as SchemaNodeKind;
    if (kind === 'case' && parent?.kind !== 'choice')
      this.ctx.fail('"case" is allowed only in a choice', s, unit);
    if (kind === 'input' || kind === 'output')
      this.ctx.fail(`"${kind}" is allowed only in an rpc or action`, s, unit);
    if (kind === 'rpc' && parent)
      this.ctx.fail('"rpc" is allowed only at the top level of a module', s, unit);
    if (kind === 'action' && !parent)
      this.ctx.fail('"action" is not allowed at the top level of a module', s, unit);
    const node = this.node(kind, s, parent, ns);
    readCommon(this.ctx, node, s, unit);
    const inner = this.ctx.enter(scope, s);
    switch (kind) {
      case 'leaf':
      case 'leaf-list':
        readLeafLike(this.ctx, this.types, node, s, inner);
        break;
      case 'list': {
        const key = subArg(s, 'key');
        if (key !== undefined)
          node.keys = key
            .split(/\s+/)
            .filter((k) => k.length > 0)
            .map(localName);
        node.unique = subs(s, 'unique').map((u) =>
          (u.argument ?? '').split(/\s+/).filter((x) => x.length > 0),
        );
        readElements(this.ctx, node, s, unit);
        break;
      }
      case 'container': {
        const p = subArg(s, 'presence');
        if (p !== undefined) node.presence = p;
        break;
      }
      case 'choice': {
        const d = subArg(s, 'default');
        if (d !== undefined) node.default = d;
        node.defaultPrefixes = unit.prefixes;
        node.mandatory = subArg(s, 'mandatory') === 'true';
        break;
      }
      case 'anydata':
      case 'anyxml':
        node.mandatory = subArg(s, 'mandatory') === 'true';
        break;
      default:
        break;
    }
    if (kind === 'rpc' || kind === 'action') {
      // Every rpc and action has an input and an output, even when the module writes neither.
      for (const k of ['input', 'output'] as const) {
        const io = sub(s, k);
        const n = this.node(k, io ?? s, node, ns);
        if (io) {
          readCommon(this.ctx, n, io, unit);
          this.buildAll(io.substatements, n, this.ctx.enter(inner, io), ns, n.children);
        }
        node.children.push(n);
      }
      this.buildAll(
        s.substatements.filter((x) => x.keyword !== 'input' && x.keyword !== 'output'),
        node,
        inner,
        ns,
        node.children,
      );
    } else if (kind !== 'leaf' && kind !== 'leaf-list' && kind !== 'anydata' && kind !== 'anyxml') {
      this.buildAll(s.substatements, node, inner, ns, node.children);
    }
    out.push(node);
  }

  private node(
    kind: SchemaNodeKind,
    s: YangStatement,
    parent: NodeImpl | undefined,
    ns: ModuleCtx,
  ): NodeImpl {
    const name = kind === 'input' || kind === 'output' ? kind : (s.argument ?? '');
    let depth = 0;
    for (let p = parent; p; p = p.parent) depth++;
    if (depth >= MAX_TREE_DEPTH)
      this.ctx.fail(`schema tree deeper than ${MAX_TREE_DEPTH} nodes`, s, undefined);
    const n = new NodeImpl(kind, name, ns.name, ns.namespace, ns.prefix);
    n.parent = parent;
    n.location = s.location;
    return n;
  }

  /** RFC 7950 7.13: copies the grouping's nodes, then applies refine and augment. */
  private uses(
    s: YangStatement,
    parent: NodeImpl | undefined,
    scope: Scope,
    ns: ModuleCtx,
    out: NodeImpl[],
  ): void {
    const unit = scope.unit;
    const def = this.ctx.lookup('groupings', scope, s.argument ?? '', s);
    if (!def) this.ctx.fail(`unknown grouping "${s.argument}"`, s, unit);
    if (this.expanding.has(def.statement) || this.usesDepth >= MAX_USES_DEPTH) {
      this.ctx.fail(`grouping "${s.argument}" uses itself`, s, unit, 'YANG_CYCLE');
    }
    this.expanding.add(def.statement);
    this.usesDepth++;
    const created: NodeImpl[] = [];
    try {
      this.buildAll(
        def.statement.substatements,
        parent,
        this.ctx.enter(def.scope, def.statement),
        ns,
        created,
      );
    } finally {
      this.expanding.delete(def.statement);
      this.usesDepth--;
    }
    const when = sub(s, 'when');
    if (when) {
      const w = whenOf(when, unit, 'uses', parent);
      for (const n of created) n.when.unshift(w);
    }
    for (const x of s.substatements) {
      if (x.prefix !== undefined) continue;
      if (x.keyword === 'refine') applyRefine(this.ctx, x, created, unit);
      else if (x.keyword === 'augment') {
        if (!this.ctx.ifFeaturesHold(x, unit)) continue;
        const target = findRelative(created, x.argument ?? '');
        if (!target) {
          this.ctx.fail(
            `augment target "${x.argument}" not found in grouping "${s.argument}"`,
            x,
            unit,
            'YANG_AUGMENT',
          );
        }
        this.augmentInto(target, x, scope, ns);
      }
    }
    // The outermost uses names the nodes last: a grouping's nodes belong to the grouping that used it.
    const grouping = `${def.module.name}:${def.statement.argument ?? ''}`;
    for (const n of created) {
      n.grouping = grouping;
      out.push(n);
    }
  }

  /** Adds an augment's nodes to its target (RFC 7950 7.17); their `when` gets the target as context. */
  augmentInto(target: NodeImpl, s: YangStatement, scope: Scope, ns: ModuleCtx): void {
    if (!AUGMENTABLE.has(target.kind)) {
      this.ctx.fail(`augment target "${s.argument}" is a ${target.kind}`, s, scope.unit, 'YANG_AUGMENT');
    }
    const added: NodeImpl[] = [];
    this.buildAll(s.substatements, target, this.ctx.enter(scope, s), ns, added);
    const when = sub(s, 'when');
    const w = when ? whenOf(when, scope.unit, 'augment', target) : undefined;
    for (const n of added) {
      if (w) n.when.unshift(w);
      if (target.children.some((c) => c.name === n.name && c.module === n.module)) {
        this.ctx.fail(
          `augment adds "${n.name}", which already exists in "${s.argument}"`,
          s,
          scope.unit,
          'YANG_AUGMENT',
        );
      }
      target.children.push(n);
    }
  }
}

/** The local part of a possibly prefixed name. */
export function localName(ref: string): string {
  const colon = ref.indexOf(':');
  return colon < 0 ? ref : ref.slice(colon + 1);
}
