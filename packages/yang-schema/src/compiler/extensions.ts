import type { YangStatement } from '../parser/statement';
import { sub, subArg } from '../parser/statement';
import { NodeImpl } from '../schema-node';
import type { SchemaAnnotation, YangDataStructure } from '../schema-types';
import type { CompileContext } from './context';
import type { ModuleCtx, Unit } from './module-set';
import type { NodeBuilder } from './node-builder';
import type { TypeResolver } from './type-resolver';

/** A yang-data/structure template while it is being compiled. */
export interface PendingStructure {
  readonly module: string;
  readonly name: string;
  readonly extension: YangDataStructure['extension'];
  readonly children: NodeImpl[];
}

/**
 * Compiles the top-level `rc:yang-data` (RFC 8040 section 8), `sx:structure` (RFC 8791) and
 * `md:annotation` (RFC 7952) statements of a module. Extensions are recognised by the module that
 * defines them, whatever prefix imports it.
 */
export function compileExtensions(
  ctx: CompileContext,
  builder: NodeBuilder,
  types: TypeResolver,
  m: ModuleCtx,
  structures: PendingStructure[],
  annotations: Map<string, SchemaAnnotation>,
): void {
  const wd = withDefaultsAnnotation(m);
  if (wd) annotations.set(`${m.name}:${wd.name}`, wd);
  for (const unit of m.units) {
    for (const s of unit.parsed.statement.substatements) {
      if (s.prefix === undefined) continue;
      const owner = ctx.moduleOfPrefix(unit, s.prefix)?.name;
      if (owner === 'ietf-restconf' && s.keyword === 'yang-data') {
        structures.push(yangData(ctx, builder, unit, s, 'yang-data'));
      } else if (owner === 'ietf-yang-structure-ext' && s.keyword === 'structure') {
        structures.push(yangData(ctx, builder, unit, s, 'structure'));
      } else if (owner === 'ietf-yang-metadata' && s.keyword === 'annotation') {
        if (!ctx.ifFeaturesHold(s, unit)) continue;
        const t = sub(s, 'type');
        if (!t) ctx.fail(`annotation "${s.argument}" has no type`, s, unit);
        const r = types.resolve(t, ctx.topScope(unit));
        const a: { -readonly [K in keyof SchemaAnnotation]: SchemaAnnotation[K] } = {
          module: m.name,
          name: s.argument ?? '',
          type: r.type,
        };
        const units = subArg(s, 'units') ?? r.units;
        if (units !== undefined) a.units = units;
        const d = subArg(s, 'description');
        if (d !== undefined) a.description = d;
        annotations.set(`${m.name}:${a.name}`, Object.freeze(a));
      }
    }
  }
}

/**
 * RFC 6243 section 6 defines the `default` attribute before RFC 7952 existed, so ietf-netconf-with-defaults
 * has no md:annotation statement; RFC 8040 section 4.8.9 still encodes it as the metadata annotation
 * `ietf-netconf-with-defaults:default` of type boolean. It is added whenever that module is in the set.
 */
export function withDefaultsAnnotation(m: ModuleCtx): SchemaAnnotation | undefined {
  if (m.name !== 'ietf-netconf-with-defaults') return undefined;
  return Object.freeze({
    module: m.name,
    name: 'default',
    type: Object.freeze({ base: 'boolean', name: 'boolean' }),
    description: 'Marks a value that is the schema default (RFC 6243 section 6, RFC 8040 section 4.8.9).',
  });
}

function yangData(
  ctx: CompileContext,
  builder: NodeBuilder,
  unit: Unit,
  s: YangStatement,
  extension: PendingStructure['extension'],
): PendingStructure {
  const m = unit.module;
  const name = s.argument ?? '';
  const scope = ctx.enter(ctx.topScope(unit), s);
  const children: NodeImpl[] = [];
  if (extension === 'structure') {
    // RFC 8791 section 3: the structure name is the top-level node of an instance.
    const top = new NodeImpl('container', name, m.name, m.namespace, m.prefix);
    top.location = s.location;
    builder.buildAll(s.substatements, top, scope, m, top.children);
    children.push(top);
  } else {
    builder.buildAll(s.substatements, undefined, scope, m, children);
  }
  return { module: m.name, name, extension, children };
}
