import { YangCompileError } from '../errors';
import type { ParsedModule } from '../parser/statement';
import { subArg, subs } from '../parser/statement';
import { freezeNode, freezeType, type NodeImpl, pruneDisabled } from '../schema-node';
import { SchemaTree } from '../schema-tree';
import type {
  SchemaAnnotation,
  SchemaIdentity,
  SchemaModule,
  Status,
  YangDataStructure,
} from '../schema-types';
import { applyAugments } from './augment';
import { CompileContext, type FeatureSelection } from './context';
import { checkDefaults } from './defaults';
import { applyDeviations } from './deviation';
import { compileExtensions, type PendingStructure } from './extensions';
import { finalizeTree } from './finalize';
import { LeafrefResolver } from './leafref';
import { buildModuleSet, type ModuleCtx } from './module-set';
import { NodeBuilder } from './node-builder';
import { TypeResolver } from './type-resolver';

/** Options of {@link compileSchema}. */
export interface CompileOptions {
  /**
   * Enabled features per module name. A module that is not listed has all its features enabled (as
   * yanglint does for the modules it is given); list it with `[]` to disable all of them.
   */
  readonly features?: FeatureSelection;
  /**
   * Features of modules that `features` does not list: all enabled (default) or none, which is what
   * yanglint does for modules it was not asked to load (imports).
   */
  readonly unlistedFeatures?: 'all' | 'none';
  /**
   * Names (or `name@revision`) of the modules to implement. Default: every module given. Modules that an
   * implemented module augments or deviates are implemented too (RFC 7950 5.6.5).
   */
  readonly implemented?: readonly string[];
}

/** Marks requested modules implemented, then the targets of their augments and deviations. */
function markImplemented(
  all: readonly ModuleCtx[],
  requested: readonly string[] | undefined,
  extra: ReadonlySet<string>,
): void {
  const newest = new Map<string, ModuleCtx>();
  for (const m of all) {
    const prev = newest.get(m.name);
    if (!prev || (m.revision ?? '') > (prev.revision ?? '')) newest.set(m.name, m);
  }
  const queue: ModuleCtx[] = [];
  const implement = (m: ModuleCtx | undefined) => {
    if (!m || m.implemented) return;
    if (all.some((o) => o.name === m.name && o.implemented)) return; // one revision per module
    m.implemented = true;
    queue.push(m);
  };
  if (requested) {
    for (const r of requested) {
      const at = r.indexOf('@');
      const m =
        at < 0 ? newest.get(r) : all.find((x) => x.name === r.slice(0, at) && x.revision === r.slice(at + 1));
      const other = m && all.find((o) => o !== m && o.name === m.name && o.implemented);
      if (m && other) {
        // RFC 7950 5.6.5: a server implements only one revision of a module.
        throw new YangCompileError(
          `module "${m.name}" can be implemented in one revision only (${other.revision ?? 'none'} and ${m.revision ?? 'none'} requested)`,
          { location: m.parsed.statement.location, module: m.name },
        );
      }
      implement(m);
    }
  } else {
    for (const m of newest.values()) implement(m);
  }
  for (const name of extra) implement(newest.get(name));
  for (let m = queue.shift(); m; m = queue.shift()) {
    for (const unit of m.units) {
      for (const s of unit.parsed.statement.substatements) {
        if ((s.keyword !== 'augment' && s.keyword !== 'deviation') || s.prefix !== undefined) continue;
        // Every module a target path passes through must be implemented, as libyang does.
        for (const step of (s.argument ?? '').split('/')) {
          const colon = step.indexOf(':');
          if (colon < 0) continue;
          const name = unit.prefixes.get(step.slice(0, colon).trim());
          if (name !== undefined && name !== m.name) implement(m.imports.get(name));
        }
      }
    }
  }
}

/**
 * Compiles a set of parsed modules and submodules (every import and include must be in the set) into one
 * immutable {@link SchemaTree}. Throws `YangCompileError` / `YangModuleNotFoundError` with locations.
 */
export function compileSchema(parsed: readonly ParsedModule[], options: CompileOptions = {}): SchemaTree {
  // Leafref targets in import-only modules make those modules implemented (as libyang does); that is
  // found only while binding leafrefs, so compilation restarts with the larger set.
  const extra = new Set<string>();
  for (;;) {
    const missing = new Set<string>();
    const tree = compileOnce(parsed, options, extra, missing);
    if (tree) return tree;
    const before = extra.size;
    for (const m of missing) extra.add(m);
    if (extra.size === before) {
      throw new YangCompileError(
        `leafref paths name nodes of modules that cannot be implemented: ${[...missing].join(', ')}`,
        {
          code: 'YANG_LEAFREF',
        },
      );
    }
  }
}

function compileOnce(
  parsed: readonly ParsedModule[],
  options: CompileOptions,
  extra: ReadonlySet<string>,
  missing: Set<string>,
): SchemaTree | undefined {
  const all = [...buildModuleSet(parsed).values()];
  markImplemented(all, options.implemented, extra);
  const ctx = new CompileContext(all, options.features, options.unlistedFeatures);
  const types = new TypeResolver(ctx);
  const builder = new NodeBuilder(ctx, types);

  const roots = new Map<string, NodeImpl[]>();
  for (const m of all) {
    if (!m.implemented) continue;
    const list: NodeImpl[] = [];
    for (const unit of m.units)
      builder.buildAll(unit.parsed.statement.substatements, undefined, ctx.topScope(unit), m, list);
    roots.set(m.name, list);
  }
  applyAugments(ctx, builder, roots, all);
  const deviatedBy = applyDeviations(ctx, types, roots, all);

  const structures: PendingStructure[] = [];
  const annotations = new Map<string, SchemaAnnotation>();
  for (const m of all) compileExtensions(ctx, builder, types, m, structures, annotations);
  for (const list of roots.values()) pruneDisabled(list);
  for (const s of structures) pruneDisabled(s.children);

  const top: NodeImpl[] = [];
  for (const m of all) if (m.implemented) top.push(...(roots.get(m.name) ?? []));
  finalizeTree(ctx, top, undefined);
  for (const s of structures) finalizeTree(ctx, s.children, undefined, true);
  const leafrefs = new LeafrefResolver(ctx, roots, missing);
  leafrefs.bindAll(top);
  for (const s of structures) leafrefs.bindAll(s.children, s.children);
  if (missing.size > 0) return undefined;
  const identities = new Map<string, SchemaIdentity>();
  const disabledIdentities = new Map<string, string>();
  for (const m of all) {
    for (const [name, [s, unit]] of ctx.defsOf(m).identities) {
      if (!ctx.ifFeaturesHold(s, unit)) {
        const features = subs(s, 'if-feature').map((f) => f.argument ?? '');
        disabledIdentities.set(`${m.name}:${name}`, features.join(' and '));
        continue;
      }
      const id: { -readonly [K in keyof SchemaIdentity]: SchemaIdentity[K] } = {
        module: m.name,
        name,
        qualifiedName: `${m.name}:${name}`,
        bases: Object.freeze(subs(s, 'base').map((b) => ctx.identityName(unit, b.argument ?? '', b))),
        status: (subArg(s, 'status') ?? 'current') as Status,
      };
      const d = subArg(s, 'description');
      if (d !== undefined) id.description = d;
      if (!identities.has(id.qualifiedName) || m.implemented)
        identities.set(id.qualifiedName, Object.freeze(id));
    }
  }

  checkDefaults(ctx, top, identities);
  for (const st of structures) checkDefaults(ctx, st.children, identities);
  for (const n of top) freezeNode(n);
  for (const a of annotations.values()) freezeType(a.type);

  const yangData = new Map<string, YangDataStructure>();
  for (const s of structures) {
    for (const n of s.children) freezeNode(n);
    const { module, name, extension } = s;
    yangData.set(
      `${module}:${name}`,
      Object.freeze({ module, name, extension, children: Object.freeze(s.children) }),
    );
  }

  const modules: SchemaModule[] = all.map((m) => {
    const features = [...ctx.defsOf(m).features.keys()];
    const info: { -readonly [K in keyof SchemaModule]: SchemaModule[K] } = {
      name: m.name,
      namespace: m.namespace,
      prefix: m.prefix,
      yangVersion: m.parsed.yangVersion,
      implemented: m.implemented,
      features: Object.freeze(features),
      enabledFeatures: Object.freeze(features.filter((f) => ctx.featureEnabled(m, f))),
      submodules: Object.freeze(
        m.submodules.map((s) => {
          const sm: { name: string; revision?: string; source: string; file?: string } = {
            name: s.name,
            source: s.source,
          };
          if (s.revision !== undefined) sm.revision = s.revision;
          if (s.file !== undefined) sm.file = s.file;
          return Object.freeze(sm);
        }),
      ),
      deviatedBy: Object.freeze([...(deviatedBy.get(m.name) ?? [])]),
      imports: Object.freeze(
        [...m.imports.values()].map((i) =>
          Object.freeze(
            i.revision === undefined ? { module: i.name } : { module: i.name, revision: i.revision },
          ),
        ),
      ),
      children: Object.freeze(m.implemented ? [...(roots.get(m.name) ?? [])] : []),
      source: m.parsed.source,
    };
    if (m.revision !== undefined) info.revision = m.revision;
    if (m.parsed.file !== undefined) info.file = m.parsed.file;
    return Object.freeze(info);
  });

  return new SchemaTree({ modules, roots: top, identities, disabledIdentities, yangData, annotations });
}
