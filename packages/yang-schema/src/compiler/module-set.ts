import { YangCompileError, YangModuleNotFoundError } from '../errors';
import type { ParsedModule, YangStatement } from '../parser/statement';
import { subs } from '../parser/statement';

/**
 * One source unit: a module or one of its submodules. Prefixes are resolved per unit, since every
 * submodule has its own imports (RFC 7950 7.2).
 */
export interface Unit {
  readonly parsed: ParsedModule;
  /** The module this unit belongs to. */
  readonly module: ModuleCtx;
  /** prefix -> module name, the unit's own prefix included. */
  readonly prefixes: Map<string, string>;
}

/** A module of the set with all its units and its top-level definitions. */
export interface ModuleCtx {
  readonly name: string;
  readonly revision: string | undefined;
  readonly namespace: string;
  readonly prefix: string;
  readonly parsed: ParsedModule;
  readonly units: Unit[];
  readonly submodules: ParsedModule[];
  /** Resolved imports: module name -> the picked module. */
  readonly imports: Map<string, ModuleCtx>;
  implemented: boolean;
}

function key(name: string, revision: string | undefined): string {
  return revision === undefined ? name : `${name}@${revision}`;
}

/** Picks the module of this name with this revision, or the newest one when no revision is given. */
function pick(
  list: readonly ParsedModule[] | undefined,
  revision: string | undefined,
): ParsedModule | undefined {
  if (!list) return undefined;
  if (revision !== undefined) return list.find((m) => m.revision === revision);
  let best: ParsedModule | undefined;
  for (const m of list) if (!best || (m.revision ?? '') > (best.revision ?? '')) best = m;
  return best;
}

/**
 * Resolves imports and includes of a set of parsed modules. Every import must name a module in the
 * set; circular imports and includes are errors (RFC 7950 7.1.5, 7.1.6).
 */
export function buildModuleSet(parsed: readonly ParsedModule[]): Map<string, ModuleCtx> {
  const modules = new Map<string, ParsedModule[]>();
  const submodules = new Map<string, ParsedModule[]>();
  for (const p of parsed) {
    const table = p.kind === 'module' ? modules : submodules;
    const list = table.get(p.name) ?? [];
    if (!list.some((x) => x.revision === p.revision)) list.push(p);
    table.set(p.name, list);
  }
  const byKey = new Map<string, ModuleCtx>();
  const ctxOf = (p: ParsedModule): ModuleCtx => {
    const k = key(p.name, p.revision);
    let ctx = byKey.get(k);
    if (!ctx) {
      ctx = {
        name: p.name,
        revision: p.revision,
        namespace: p.namespace ?? '',
        prefix: p.prefix,
        parsed: p,
        units: [],
        submodules: [],
        imports: new Map(),
        implemented: false,
      };
      byKey.set(k, ctx);
    }
    return ctx;
  };

  for (const list of modules.values()) for (const p of list) ctxOf(p);

  // Includes: collect every submodule reachable from the module (YANG 1.0 submodules may include others).
  for (const ctx of byKey.values()) {
    const seen = new Set<string>();
    const visit = (unitModule: ParsedModule, chain: string[]): void => {
      for (const inc of unitModule.includes) {
        if (chain.includes(inc.submodule)) {
          throw new YangCompileError(`circular include of submodule "${inc.submodule}"`, {
            code: 'YANG_CYCLE',
            location: inc.location,
            module: unitModule.name,
          });
        }
        const sm = pick(submodules.get(inc.submodule), inc.revision);
        if (!sm) {
          throw new YangModuleNotFoundError(inc.submodule, {
            revision: inc.revision,
            importedBy: unitModule.name,
            location: inc.location,
          });
        }
        if (sm.belongsTo !== ctx.name) {
          throw new YangCompileError(
            `submodule "${sm.name}" belongs to "${sm.belongsTo}", not "${ctx.name}"`,
            {
              location: inc.location,
              module: unitModule.name,
            },
          );
        }
        if (seen.has(sm.name)) continue;
        seen.add(sm.name);
        ctx.submodules.push(sm);
        visit(sm, [...chain, sm.name]);
      }
    };
    visit(ctx.parsed, [ctx.name]);
    for (const p of [ctx.parsed, ...ctx.submodules]) {
      const prefixes = new Map<string, string>([[p.prefix, ctx.name]]);
      for (const imp of p.imports) {
        const target = pick(modules.get(imp.module), imp.revision);
        if (!target) {
          throw new YangModuleNotFoundError(imp.module, {
            revision: imp.revision,
            importedBy: p.name,
            location: imp.location,
          });
        }
        if (prefixes.has(imp.prefix) && imp.prefix !== p.prefix) {
          throw new YangCompileError(`prefix "${imp.prefix}" is used twice`, {
            location: imp.location,
            module: p.name,
          });
        }
        prefixes.set(imp.prefix, imp.module);
        ctx.imports.set(imp.module, ctxOf(target));
      }
      ctx.units.push({ parsed: p, module: ctx, prefixes });
    }
  }

  // RFC 7950 7.1.5: there must not be any circular chains of imports.
  const state = new Map<ModuleCtx, 1 | 2>();
  const walk = (ctx: ModuleCtx, chain: ModuleCtx[]): void => {
    const s = state.get(ctx);
    if (s === 2) return;
    if (s === 1) {
      const names = [...chain.slice(chain.indexOf(ctx)), ctx].map((c) => c.name).join(' -> ');
      throw new YangCompileError(`circular import: ${names}`, {
        code: 'YANG_CYCLE',
        location: ctx.parsed.statement.location,
        module: ctx.name,
      });
    }
    state.set(ctx, 1);
    for (const dep of ctx.imports.values()) walk(dep, [...chain, ctx]);
    state.set(ctx, 2);
  };
  for (const ctx of byKey.values()) walk(ctx, []);
  return byKey;
}

/** The top-level body statements of a module across all its units, each with its unit. */
export function* bodyStatements(ctx: ModuleCtx): Generator<[YangStatement, Unit]> {
  for (const unit of ctx.units) for (const s of unit.parsed.statement.substatements) yield [s, unit];
}

/** Top-level statements of one keyword across all units. */
export function topLevel(ctx: ModuleCtx, keyword: string): [YangStatement, Unit][] {
  const out: [YangStatement, Unit][] = [];
  for (const unit of ctx.units) for (const s of subs(unit.parsed.statement, keyword)) out.push([s, unit]);
  return out;
}
