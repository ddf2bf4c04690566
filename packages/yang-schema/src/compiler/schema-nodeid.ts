import type { YangStatement } from '../parser/statement';
import type { NodeImpl } from '../schema-node';
import type { CompileContext } from './context';
import type { Unit } from './module-set';

/** One step of a schema node identifier resolved to a module name. */
export interface NodeIdStep {
  readonly module: string;
  readonly name: string;
}

/**
 * Parses an absolute schema node identifier (RFC 7950 6.5, `/p:a/p:b`), resolving prefixes in the unit
 * where it was written (an unprefixed step belongs to that unit's module). Returns undefined when a prefix
 * names a module outside the set.
 */
export function parseAbsoluteNodeId(ctx: CompileContext, unit: Unit, s: YangStatement): NodeIdStep[] {
  const text = (s.argument ?? '').trim();
  if (!text.startsWith('/')) ctx.fail(`"${text}" is not an absolute schema node identifier`, s, unit);
  const steps: NodeIdStep[] = [];
  for (const raw of text.slice(1).split('/')) {
    const step = raw.trim();
    const m = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)$/.exec(step);
    if (!m) return ctx.fail(`invalid step "${step}" in "${text}"`, s, unit);
    const module = ctx.requireModule(unit, m[1], s);
    steps.push({ module: module.name, name: m[2] ?? '' });
  }
  return steps;
}

/** Walks schema children (choice, case, input and output are steps of their own). */
export function walkNodeId(
  roots: ReadonlyMap<string, NodeImpl[]>,
  steps: readonly NodeIdStep[],
): NodeImpl | undefined {
  let node: NodeImpl | undefined;
  for (const step of steps) {
    const level: readonly NodeImpl[] | undefined = node ? node.children : roots.get(step.module);
    node = level?.find((n) => n.name === step.name && n.module === step.module);
    if (!node) return undefined;
  }
  return node;
}
