import type { YangStatement } from '../parser/statement';
import type { NodeImpl } from '../schema-node';
import type { CompileContext } from './context';
import type { ModuleCtx, Unit } from './module-set';
import type { NodeBuilder } from './node-builder';
import { parseAbsoluteNodeId, walkNodeId } from './schema-nodeid';

interface PendingAugment {
  readonly statement: YangStatement;
  readonly unit: Unit;
}

/**
 * Applies the top-level augments of the implemented modules (RFC 7950 7.17). Augments may target nodes that
 * other augments add, so they are applied in rounds until none is left or a round makes no progress.
 */
export function applyAugments(
  ctx: CompileContext,
  builder: NodeBuilder,
  roots: ReadonlyMap<string, NodeImpl[]>,
  modules: readonly ModuleCtx[],
): void {
  let pending: PendingAugment[] = [];
  for (const m of modules) {
    if (!m.implemented) continue;
    for (const unit of m.units) {
      for (const s of unit.parsed.statement.substatements) {
        if (s.keyword === 'augment' && s.prefix === undefined) pending.push({ statement: s, unit });
      }
    }
  }
  while (pending.length > 0) {
    const next: PendingAugment[] = [];
    for (const p of pending) {
      if (!ctx.ifFeaturesHold(p.statement, p.unit)) continue;
      const target = walkNodeId(roots, parseAbsoluteNodeId(ctx, p.unit, p.statement));
      if (!target) {
        next.push(p);
        continue;
      }
      builder.augmentInto(target, p.statement, ctx.topScope(p.unit), p.unit.module);
    }
    if (next.length > 0 && next.length === pending.length) {
      const first = next[0]!;
      ctx.fail(
        `augment target node "${first.statement.argument}" not found`,
        first.statement,
        first.unit,
        'YANG_AUGMENT',
      );
    }
    pending = next;
  }
}
