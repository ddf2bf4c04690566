import type { YangStatement } from '../parser/statement';
import { sub, subArg, subs } from '../parser/statement';
import type { NodeImpl } from '../schema-node';
import type { MustConstraint, Status, WhenCondition } from '../schema-types';
import type { CompileContext, Scope } from './context';
import type { Unit } from './module-set';
import type { TypeResolver } from './type-resolver';

/** Reads the substatements every schema node may have: description, status, config, must, when, extensions. */
export function readCommon(ctx: CompileContext, node: NodeImpl, s: YangStatement, unit: Unit): void {
  for (const x of s.substatements) {
    if (x.prefix !== undefined) {
      const m = ctx.extensionModule(unit, x);
      const ext = { module: m?.name ?? x.prefix, name: x.keyword };
      node.extensions.push(x.argument === undefined ? ext : { ...ext, argument: x.argument });
      continue;
    }
    switch (x.keyword) {
      case 'description':
        node.description = x.argument ?? '';
        break;
      case 'reference':
        node.reference = x.argument ?? '';
        break;
      case 'if-feature':
        node.ifFeatures.push(x.argument ?? '');
        break;
      case 'status':
        node.status = (x.argument ?? 'current') as Status;
        break;
      case 'config':
      case 'mandatory':
        if (x.argument !== 'true' && x.argument !== 'false') {
          ctx.fail(`${x.keyword} must be "true" or "false", not "${x.argument}"`, x, unit);
        }
        if (x.keyword === 'config') node.explicitConfig = x.argument === 'true';
        break;
      case 'must':
        node.must.push(mustOf(x, unit));
        break;
      case 'when':
        node.when.push(whenOf(x, unit, 'node', node));
        break;
      default:
        break;
    }
  }
}

/** A `must` with the prefix map of the unit it was written in. */
export function mustOf(x: YangStatement, unit: Unit): MustConstraint {
  const m: { -readonly [K in keyof MustConstraint]: MustConstraint[K] } = {
    expression: x.argument ?? '',
    prefixes: unit.prefixes,
    module: unit.module.name,
  };
  const em = subArg(x, 'error-message');
  const tag = subArg(x, 'error-app-tag');
  const d = subArg(x, 'description');
  if (em !== undefined) m.errorMessage = em;
  if (tag !== undefined) m.errorAppTag = tag;
  if (d !== undefined) m.description = d;
  return m;
}

/** A `when` with its context node (RFC 7950 7.21.5). */
export function whenOf(
  x: YangStatement,
  unit: Unit,
  origin: WhenCondition['origin'],
  contextNode: NodeImpl | undefined,
): WhenCondition {
  return {
    expression: x.argument ?? '',
    prefixes: unit.prefixes,
    module: unit.module.name,
    origin,
    contextNode,
  };
}

/** Reads type, units, mandatory, defaults and element bounds of a leaf or leaf-list. */
export function readLeafLike(
  ctx: CompileContext,
  types: TypeResolver,
  node: NodeImpl,
  s: YangStatement,
  scope: Scope,
): void {
  const t = sub(s, 'type');
  if (!t) ctx.fail(`${node.kind} "${node.name}" has no type`, s, scope.unit);
  const r = types.resolve(t, scope);
  node.type = r.type;
  const units = subArg(s, 'units') ?? r.units;
  if (units !== undefined) node.units = units;
  if (node.kind === 'leaf') {
    node.mandatory = subArg(s, 'mandatory') === 'true';
    const own = subArg(s, 'default');
    const d = own ?? (node.mandatory ? undefined : r.default);
    if (d !== undefined) {
      node.default = d;
      node.defaults = [d];
      node.defaultPrefixes = own !== undefined ? scope.unit.prefixes : r.defaultPrefixes;
    }
  } else {
    readElements(ctx, node, s, scope.unit);
    const own = subs(s, 'default').map((d) => d.argument ?? '');
    node.defaults =
      own.length > 0 ? own : r.default !== undefined && node.minElements === 0 ? [r.default] : [];
    node.defaultPrefixes = own.length > 0 ? scope.unit.prefixes : r.defaultPrefixes;
  }
}

/** Reads min-elements, max-elements and ordered-by of a list or leaf-list. */
export function readElements(ctx: CompileContext, node: NodeImpl, s: YangStatement, unit: Unit): void {
  const min = sub(s, 'min-elements');
  const max = sub(s, 'max-elements');
  // RFC 7950 7.7.5, 7.7.6: min is a non-negative integer, max a positive integer or "unbounded".
  if (min) {
    if (!/^(0|[1-9][0-9]*)$/.test(min.argument ?? ''))
      ctx.fail(`invalid min-elements "${min.argument}"`, min, unit);
    node.minElements = Number(min.argument);
  }
  if (max && max.argument !== 'unbounded') {
    if (!/^[1-9][0-9]*$/.test(max.argument ?? ''))
      ctx.fail(`invalid max-elements "${max.argument}"`, max, unit);
    node.maxElements = Number(max.argument);
  }
  if (subArg(s, 'ordered-by') === 'user') node.orderedBy = 'user';
}
