import type { YangStatement } from '../parser/statement';
import type { NodeImpl } from '../schema-node';
import type { CompileContext } from './context';
import type { Unit } from './module-set';
import { mustOf } from './node-properties';

/**
 * Finds a node by a descendant schema node identifier (RFC 7950 6.5) among the nodes a `uses` created.
 * Steps match by local name: the grouping's nodes take the namespace of the module that uses them, so a
 * prefix naming the grouping's module still has to match them.
 */
export function findRelative(roots: readonly NodeImpl[], path: string): NodeImpl | undefined {
  const steps = path.split('/').filter((s) => s.length > 0);
  let level: readonly NodeImpl[] = roots;
  let found: NodeImpl | undefined;
  for (const step of steps) {
    const colon = step.indexOf(':');
    const name = (colon < 0 ? step : step.slice(colon + 1)).trim();
    found = level.find((n) => n.name === name);
    if (!found) return undefined;
    level = found.children;
  }
  return found;
}

/** Applies one `refine` (RFC 7950 7.13.2) to the nodes a `uses` created. */
export function applyRefine(ctx: CompileContext, s: YangStatement, created: NodeImpl[], unit: Unit): void {
  const target = findRelative(created, s.argument ?? '');
  if (!target) ctx.fail(`refine target "${s.argument}" not found`, s, unit, 'YANG_AUGMENT');
  if (!ctx.ifFeaturesHold(s, unit)) {
    // YANG 1.1 allows refine to add if-feature: a false one disables the node.
    target.disabled = true;
    return;
  }
  const defaults: string[] = [];
  for (const x of s.substatements) {
    if (x.prefix !== undefined) {
      const m = ctx.extensionModule(unit, x);
      const ext = { module: m?.name ?? x.prefix, name: x.keyword };
      target.extensions.push(x.argument === undefined ? ext : { ...ext, argument: x.argument });
      continue;
    }
    const arg = x.argument ?? '';
    switch (x.keyword) {
      case 'description':
        target.description = arg;
        break;
      case 'reference':
        target.reference = arg;
        break;
      case 'config':
        target.explicitConfig = arg === 'true';
        break;
      case 'mandatory':
        target.mandatory = arg === 'true';
        if (target.mandatory && target.kind === 'leaf') {
          delete target.default;
          target.defaults = [];
        }
        break;
      case 'presence':
        target.presence = arg;
        break;
      case 'default':
        defaults.push(arg);
        break;
      case 'min-elements':
        target.minElements = Number(arg);
        break;
      case 'max-elements':
        target.maxElements = arg === 'unbounded' ? Number.POSITIVE_INFINITY : Number(arg);
        break;
      case 'must':
        target.must.push(mustOf(x, unit));
        break;
      default:
        break;
    }
  }
  if (defaults.length > 0) {
    target.defaultPrefixes = unit.prefixes;
    if (target.kind === 'leaf-list') target.defaults = defaults;
    else {
      target.default = defaults[0] ?? '';
      if (target.kind === 'leaf') target.defaults = [target.default];
    }
  }
}
