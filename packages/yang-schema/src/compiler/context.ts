import { type SourceLocation, YangCompileError } from '../errors';
import type { YangStatement } from '../parser/statement';
import { sub, subArg, subs } from '../parser/statement';
import { evalFeatureExpr, parseIfFeature } from './if-feature';
import type { ModuleCtx, Unit } from './module-set';
import { topLevel } from './module-set';

/** A typedef or grouping together with the scope it was defined in. */
export interface Definition {
  readonly statement: YangStatement;
  readonly scope: Scope;
  readonly module: ModuleCtx;
}

/**
 * Lexical scope for typedef and grouping names (RFC 7950 5.5): a chain of nested definition tables,
 * the outermost holding the module's (and all its submodules') top-level definitions.
 */
export interface Scope {
  readonly unit: Unit;
  readonly typedefs: Map<string, Definition> | undefined;
  readonly groupings: Map<string, Definition> | undefined;
  readonly parent: Scope | undefined;
}

/** Top-level definitions of a module across its units. */
export interface ModuleDefs {
  readonly typedefs: Map<string, Definition>;
  readonly groupings: Map<string, Definition>;
  readonly features: Map<string, [YangStatement, Unit]>;
  readonly identities: Map<string, [YangStatement, Unit]>;
  readonly extensions: Map<string, YangStatement>;
}

/**
 * Which features the caller enables: module name -> feature names, or `'*'` for all of them. Modules not
 * listed follow `CompileOptions.unlistedFeatures`.
 */
export type FeatureSelection = Readonly<Record<string, readonly string[] | '*'>>;

/** Shared state of one compilation. */
export class CompileContext {
  private readonly defs = new Map<ModuleCtx, ModuleDefs>();
  private readonly featureState = new Map<string, boolean | 'busy'>();
  readonly byName = new Map<string, ModuleCtx>();

  constructor(
    readonly modules: readonly ModuleCtx[],
    private readonly features: FeatureSelection | undefined,
    private readonly unlistedFeatures: 'all' | 'none' = 'all',
  ) {
    for (const m of modules) {
      const prev = this.byName.get(m.name);
      if (!prev || (m.revision ?? '') > (prev.revision ?? '') || (m.implemented && !prev.implemented)) {
        this.byName.set(m.name, m);
      }
    }
  }

  /** Raises a located compile error. */
  fail(
    message: string,
    at: YangStatement | undefined,
    unitOrModule: Unit | string | undefined,
    code: 'YANG_COMPILE' | 'YANG_CYCLE' | 'YANG_LEAFREF' | 'YANG_AUGMENT' | 'YANG_TYPE' = 'YANG_COMPILE',
  ): never {
    const module = typeof unitOrModule === 'string' ? unitOrModule : unitOrModule?.parsed.name;
    throw new YangCompileError(message, { code, location: at?.location, module });
  }

  /** Raises a compile error located at a node's defining statement. */
  failAt(
    message: string,
    location: SourceLocation | undefined,
    module: string,
    code: 'YANG_COMPILE' | 'YANG_LEAFREF' | 'YANG_TYPE' = 'YANG_COMPILE',
  ): never {
    throw new YangCompileError(message, { code, location, module });
  }

  /** The module a prefix names in a unit, or undefined. */
  moduleOfPrefix(unit: Unit, prefix: string | undefined): ModuleCtx | undefined {
    if (prefix === undefined) return unit.module;
    const name = unit.prefixes.get(prefix);
    if (name === undefined) return undefined;
    if (name === unit.module.name) return unit.module;
    return unit.module.imports.get(name);
  }

  /** Like {@link moduleOfPrefix} but fails with a located error. */
  requireModule(unit: Unit, prefix: string | undefined, at: YangStatement): ModuleCtx {
    const m = this.moduleOfPrefix(unit, prefix);
    if (!m) this.fail(`unknown prefix "${prefix}"`, at, unit);
    return m;
  }

  /** Top-level definitions of a module, collected on first use. */
  defsOf(m: ModuleCtx): ModuleDefs {
    let d = this.defs.get(m);
    if (d) return d;
    d = {
      typedefs: new Map(),
      groupings: new Map(),
      features: new Map(),
      identities: new Map(),
      extensions: new Map(),
    };
    this.defs.set(m, d);
    const top = new Map<Unit, Scope>();
    for (const unit of m.units) {
      top.set(unit, { unit, typedefs: d.typedefs, groupings: d.groupings, parent: undefined });
    }
    for (const [s, unit] of topLevel(m, 'typedef')) {
      d.typedefs.set(s.argument ?? '', { statement: s, scope: top.get(unit)!, module: m });
    }
    for (const [s, unit] of topLevel(m, 'grouping')) {
      d.groupings.set(s.argument ?? '', { statement: s, scope: top.get(unit)!, module: m });
    }
    for (const [s, unit] of topLevel(m, 'feature')) d.features.set(s.argument ?? '', [s, unit]);
    for (const [s, unit] of topLevel(m, 'identity')) d.identities.set(s.argument ?? '', [s, unit]);
    for (const [s] of topLevel(m, 'extension')) d.extensions.set(s.argument ?? '', s);
    return d;
  }

  /** The outermost scope of a unit. */
  topScope(unit: Unit): Scope {
    const d = this.defsOf(unit.module);
    return { unit, typedefs: d.typedefs, groupings: d.groupings, parent: undefined };
  }

  /** A nested scope for a statement that defines typedefs or groupings, else the same scope. */
  enter(scope: Scope, statement: YangStatement): Scope {
    let typedefs: Map<string, Definition> | undefined;
    let groupings: Map<string, Definition> | undefined;
    for (const s of statement.substatements) {
      if (s.prefix !== undefined) continue;
      if (s.keyword === 'typedef' || s.keyword === 'grouping') {
        const table = s.keyword === 'typedef' ? (typedefs ??= new Map()) : (groupings ??= new Map());
        table.set(s.argument ?? '', { statement: s, scope, module: scope.unit.module });
      }
    }
    if (!typedefs && !groupings) return scope;
    const inner: Scope = { unit: scope.unit, typedefs, groupings, parent: scope };
    // Definitions see the scope they are written in (so nested groupings can use each other).
    for (const table of [typedefs, groupings]) {
      if (!table) continue;
      for (const [k, v] of table) table.set(k, { ...v, scope: inner });
    }
    return inner;
  }

  /** Resolves a possibly prefixed typedef or grouping name (RFC 7950 7.3, 7.12). */
  lookup(
    kind: 'typedefs' | 'groupings',
    scope: Scope,
    ref: string,
    at: YangStatement,
  ): Definition | undefined {
    const colon = ref.indexOf(':');
    const prefix = colon < 0 ? undefined : ref.slice(0, colon);
    const name = colon < 0 ? ref : ref.slice(colon + 1);
    const m = this.requireModule(scope.unit, prefix, at);
    if (m === scope.unit.module) {
      for (let s: Scope | undefined = scope; s; s = s.parent) {
        const found = s[kind]?.get(name);
        if (found) return found;
      }
      return undefined;
    }
    return this.defsOf(m)[kind].get(name);
  }

  /** True when a feature of a module is enabled (selected and its own if-features hold, RFC 7950 7.20.1). */
  featureEnabled(m: ModuleCtx, name: string): boolean {
    const k = `${m.name}:${name}`;
    const state = this.featureState.get(k);
    if (state === true || state === false) return state;
    if (state === 'busy') return false; // a feature depending on itself can never be enabled
    const entry = this.defsOf(m).features.get(name);
    if (!entry) return false;
    const selection = this.features?.[m.name];
    let enabled =
      selection === undefined
        ? this.unlistedFeatures === 'all'
        : selection === '*' || selection.includes(name);
    if (enabled) {
      this.featureState.set(k, 'busy');
      enabled = this.ifFeaturesHold(entry[0], entry[1]);
    }
    this.featureState.set(k, enabled);
    return enabled;
  }

  /** Evaluates every `if-feature` substatement of a statement (they are ANDed). */
  ifFeaturesHold(statement: YangStatement, unit: Unit): boolean {
    for (const s of statement.substatements) {
      if (s.keyword !== 'if-feature' || s.prefix !== undefined) continue;
      const expr = parseIfFeature(s, unit.parsed.name);
      const ok = evalFeatureExpr(expr, (prefix, name) => {
        const m = this.requireModule(unit, prefix, s);
        if (!this.defsOf(m).features.has(name)) {
          this.fail(`if-feature names unknown feature "${prefix ? `${prefix}:` : ''}${name}"`, s, unit);
        }
        return this.featureEnabled(m, name);
      });
      if (!ok) return false;
    }
    return true;
  }

  /** Resolves a prefixed identity reference to its qualified `module:name`. */
  identityName(unit: Unit, ref: string, at: YangStatement): string {
    const colon = ref.indexOf(':');
    const prefix = colon < 0 ? undefined : ref.slice(0, colon);
    const name = colon < 0 ? ref : ref.slice(colon + 1);
    const m = this.requireModule(unit, prefix, at);
    if (!this.defsOf(m).identities.has(name)) this.fail(`unknown identity "${ref}"`, at, unit);
    return `${m.name}:${name}`;
  }

  /** The module defining an extension keyword used in a unit, or undefined if the prefix is unknown. */
  extensionModule(unit: Unit, s: YangStatement): ModuleCtx | undefined {
    return s.prefix === undefined ? undefined : this.moduleOfPrefix(unit, s.prefix);
  }
}

export { sub, subArg, subs };
