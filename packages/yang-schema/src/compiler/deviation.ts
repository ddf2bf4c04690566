import type { YangStatement } from '../parser/statement';
import { subs } from '../parser/statement';
import type { NodeImpl } from '../schema-node';
import type { CompileContext } from './context';
import type { ModuleCtx, Unit } from './module-set';
import { mustOf } from './node-properties';
import { parseAbsoluteNodeId, walkNodeId } from './schema-nodeid';
import type { TypeResolver } from './type-resolver';

/**
 * Applies the deviations of the implemented modules (RFC 7950 7.20.3) and returns, per deviated module,
 * the names of the modules that deviate it.
 */
export function applyDeviations(
  ctx: CompileContext,
  types: TypeResolver,
  roots: Map<string, NodeImpl[]>,
  modules: readonly ModuleCtx[],
): Map<string, Set<string>> {
  const deviatedBy = new Map<string, Set<string>>();
  for (const m of modules) {
    if (!m.implemented) continue;
    for (const unit of m.units) {
      for (const s of unit.parsed.statement.substatements) {
        if (s.keyword !== 'deviation' || s.prefix !== undefined) continue;
        if (!ctx.ifFeaturesHold(s, unit)) continue;
        const steps = parseAbsoluteNodeId(ctx, unit, s);
        const target = walkNodeId(roots, steps);
        if (!target) ctx.fail(`deviation target node "${s.argument}" not found`, s, unit, 'YANG_AUGMENT');
        const targetModule = steps[0]?.module ?? '';
        const set = deviatedBy.get(targetModule) ?? new Set<string>();
        set.add(m.name);
        deviatedBy.set(targetModule, set);
        for (const d of subs(s, 'deviate')) {
          const how = d.argument;
          if (how === 'not-supported') {
            const siblings = target.parent ? target.parent.children : roots.get(target.module);
            const i = siblings?.indexOf(target) ?? -1;
            if (siblings && i >= 0) siblings.splice(i, 1);
            break;
          }
          if (how !== 'add' && how !== 'replace' && how !== 'delete') {
            ctx.fail(`unknown deviate "${how}"`, d, unit);
          }
          deviate(ctx, types, target, d, how, unit);
        }
      }
    }
  }
  return deviatedBy;
}

function deviate(
  ctx: CompileContext,
  types: TypeResolver,
  target: NodeImpl,
  d: YangStatement,
  how: 'add' | 'replace' | 'delete',
  unit: Unit,
): void {
  const defaults = subs(d, 'default').map((x) => x.argument ?? '');
  for (const x of d.substatements) {
    if (x.prefix !== undefined) continue;
    const arg = x.argument ?? '';
    switch (x.keyword) {
      case 'units':
        if (how === 'delete') delete target.units;
        else target.units = arg;
        break;
      case 'config':
        target.explicitConfig = arg === 'true';
        break;
      case 'mandatory':
        target.mandatory = arg === 'true';
        break;
      case 'min-elements':
        target.minElements = Number(arg);
        break;
      case 'max-elements':
        target.maxElements = arg === 'unbounded' ? Number.POSITIVE_INFINITY : Number(arg);
        break;
      case 'must':
        if (how === 'delete') target.must = target.must.filter((m) => m.expression !== arg);
        else target.must.push(mustOf(x, unit));
        break;
      case 'unique': {
        const parts = arg.split(/\s+/).filter((p) => p.length > 0);
        if (how === 'delete') target.unique = target.unique.filter((u) => u.join(' ') !== parts.join(' '));
        else target.unique.push(parts);
        break;
      }
      case 'type': {
        if (how !== 'replace') ctx.fail('type can only be replaced by a deviation', x, unit);
        target.type = types.resolve(x, ctx.topScope(unit)).type;
        break;
      }
      default:
        break;
    }
  }
  if (defaults.length > 0) {
    if (how === 'delete') {
      target.defaults = target.defaults.filter((v) => !defaults.includes(v));
      if (target.default !== undefined && defaults.includes(target.default)) delete target.default;
    } else if (target.kind === 'leaf-list') {
      target.defaultPrefixes = unit.prefixes;
      target.defaults = how === 'add' ? [...target.defaults, ...defaults] : defaults;
    } else {
      target.defaultPrefixes = unit.prefixes;
      target.default = defaults[0] ?? '';
      if (target.kind === 'leaf') target.defaults = [target.default];
    }
  }
}
