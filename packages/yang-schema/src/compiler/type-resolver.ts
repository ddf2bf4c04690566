import type { YangStatement } from '../parser/statement';
import { sub, subArg, subs } from '../parser/statement';
import { YangTypeError } from '../types/errors';
import { createPattern, parseLength, parseRange } from '../types/restrictions';
import type {
  BitItem,
  BuiltinTypeName,
  EnumItem,
  ErrorInfo,
  PatternRestriction,
  YangType,
} from '../types/yang-type';
import { isBuiltinTypeName } from '../types/yang-type';
import type { CompileContext, Definition, Scope } from './context';
import type { Unit } from './module-set';

/** A resolved type with the `default` and `units` its typedef chain supplies (RFC 7950 7.3.4, 7.3.3). */
export interface ResolvedType {
  readonly type: YangType;
  readonly default: string | undefined;
  /** Prefix map of the module whose typedef supplied `default`. */
  readonly defaultPrefixes?: ReadonlyMap<string, string> | undefined;
  readonly units: string | undefined;
}

/** Where a leafref path was written: its prefixes resolve in that unit (RFC 7950 9.9.2). */
export interface LeafrefOrigin {
  readonly unit: Unit;
  readonly statement: YangStatement;
}

/** Leafref types (and unions holding them) -> where their path was written. */
export const leafrefOrigins = new WeakMap<YangType, LeafrefOrigin>();

/** Longest typedef chain followed; real modules stay below 10. */
const MAX_TYPEDEF_DEPTH = 256;

type MutableType = { -readonly [K in keyof YangType]: YangType[K] };

function errorInfo(s: YangStatement): ErrorInfo {
  const info: { errorMessage?: string; errorAppTag?: string } = {};
  const m = subArg(s, 'error-message');
  const t = subArg(s, 'error-app-tag');
  if (m !== undefined) info.errorMessage = m;
  if (t !== undefined) info.errorAppTag = t;
  return info;
}

/** True when a type (or a union member, recursively) is a leafref. */
export function containsLeafref(type: YangType): boolean {
  return type.base === 'leafref' || (type.members?.some(containsLeafref) ?? false);
}

/** Resolves `type` statements, caching each typedef once. */
export class TypeResolver {
  private readonly cache = new Map<Definition, ResolvedType | 'busy'>();
  private depth = 0;

  constructor(private readonly ctx: CompileContext) {}

  /** Resolves a typedef definition to its effective type. */
  typedef(def: Definition): ResolvedType {
    const cached = this.cache.get(def);
    if (cached === 'busy') {
      this.ctx.fail(
        `typedef "${def.statement.argument}" refers to itself`,
        def.statement,
        def.scope.unit,
        'YANG_CYCLE',
      );
    }
    if (cached) return cached;
    this.cache.set(def, 'busy');
    const typeStmt = sub(def.statement, 'type');
    if (!typeStmt)
      this.ctx.fail(`typedef "${def.statement.argument}" has no type`, def.statement, def.scope.unit);
    if (this.depth >= MAX_TYPEDEF_DEPTH) {
      this.ctx.fail(`typedef chain deeper than ${MAX_TYPEDEF_DEPTH}`, def.statement, def.scope.unit);
    }
    this.depth++;
    let inner: ResolvedType;
    try {
      inner = this.resolve(typeStmt, def.scope);
    } finally {
      this.depth--;
    }
    const name = `${def.module.name}:${def.statement.argument}`;
    const type: MutableType = { ...inner.type, name, derivedFrom: [name, ...(inner.type.derivedFrom ?? [])] };
    const origin = leafrefOrigins.get(inner.type);
    if (origin) leafrefOrigins.set(type, origin);
    const own = subArg(def.statement, 'default');
    const result: ResolvedType = {
      type,
      default: own ?? inner.default,
      defaultPrefixes: own !== undefined ? def.scope.unit.prefixes : inner.defaultPrefixes,
      units: subArg(def.statement, 'units') ?? inner.units,
    };
    this.cache.set(def, result);
    return result;
  }

  /** Resolves a `type` statement written in `scope`. */
  resolve(s: YangStatement, scope: Scope): ResolvedType {
    const ref = s.argument ?? '';
    const unit = scope.unit;
    let base: YangType;
    let dflt: string | undefined;
    let dfltPrefixes: ReadonlyMap<string, string> | undefined;
    let units: string | undefined;
    let builtin = false;
    if (!ref.includes(':') && isBuiltinTypeName(ref)) {
      base = { base: ref, name: ref };
      builtin = true;
    } else {
      const def = this.ctx.lookup('typedefs', scope, ref, s);
      if (!def) this.ctx.fail(`unknown type "${ref}"`, s, unit);
      const r = this.typedef(def);
      base = r.type;
      dflt = r.default;
      dfltPrefixes = r.defaultPrefixes;
      units = r.units;
    }
    const restricted = s.substatements.some((x) => x.prefix === undefined && x.keyword !== 'description');
    if (!restricted && !builtin) return { type: base, default: dflt, defaultPrefixes: dfltPrefixes, units };
    try {
      const type = this.restrict(base, s, scope, builtin);
      return { type, default: dflt, defaultPrefixes: dfltPrefixes, units };
    } catch (e) {
      if (YangTypeError.isInstance(e)) this.ctx.fail(e.message, s, unit, 'YANG_TYPE');
      throw e;
    }
  }

  private restrict(parent: YangType, s: YangStatement, scope: Scope, builtin: boolean): YangType {
    const unit = scope.unit;
    const t: MutableType = { ...parent };
    const b: BuiltinTypeName = parent.base;
    const fd = subArg(s, 'fraction-digits');
    if (fd !== undefined) {
      if (!builtin || b !== 'decimal64')
        this.ctx.fail('fraction-digits is allowed only on decimal64', s, unit);
      const n = Number(fd);
      if (!Number.isInteger(n) || n < 1 || n > 18) this.ctx.fail(`invalid fraction-digits "${fd}"`, s, unit);
      t.fractionDigits = n;
    } else if (builtin && b === 'decimal64') {
      this.ctx.fail('decimal64 type needs fraction-digits (RFC 7950 9.3.4)', s, unit);
    }
    const range = sub(s, 'range');
    if (range)
      t.range = parseRange(range.argument ?? '', b, t.fractionDigits, parent.range, errorInfo(range));
    const length = sub(s, 'length');
    if (length) {
      if (b !== 'string' && b !== 'binary') this.ctx.fail(`length is not allowed on type ${b}`, length, unit);
      t.length = parseLength(length.argument ?? '', parent.length, errorInfo(length));
    }
    const patterns = subs(s, 'pattern');
    if (patterns.length > 0) {
      if (b !== 'string') this.ctx.fail(`pattern is not allowed on type ${b}`, s, unit);
      const list: PatternRestriction[] = [...(parent.patterns ?? [])];
      for (const p of patterns) {
        const invert = subArg(p, 'modifier') === 'invert-match';
        list.push(createPattern(p.argument ?? '', invert, errorInfo(p)));
      }
      t.patterns = list;
    }
    const enums = subs(s, 'enum');
    if (enums.length > 0 || (builtin && b === 'enumeration')) {
      if (b !== 'enumeration') this.ctx.fail(`enum is not allowed on type ${b}`, s, unit);
      t.enums = this.enums(enums, parent.enums, builtin, s, unit);
    }
    const bits = subs(s, 'bit');
    if (bits.length > 0 || (builtin && b === 'bits')) {
      if (b !== 'bits') this.ctx.fail(`bit is not allowed on type ${b}`, s, unit);
      t.bits = this.bits(bits, parent.bits, builtin, s, unit);
    }
    const bases = subs(s, 'base');
    if (bases.length > 0 || (builtin && b === 'identityref')) {
      if (!builtin || b !== 'identityref') this.ctx.fail('base is allowed only on identityref', s, unit);
      if (bases.length === 0) this.ctx.fail('identityref type needs a base (RFC 7950 9.10.2)', s, unit);
      t.identityBases = bases.map((x) => this.ctx.identityName(unit, x.argument ?? '', x));
    }
    const path = sub(s, 'path');
    if (path || (builtin && b === 'leafref')) {
      if (!path) return this.ctx.fail('leafref type needs a path (RFC 7950 9.9.2)', s, unit);
      if (!builtin || b !== 'leafref') this.ctx.fail('path is allowed only on leafref', path, unit);
      t.path = path.argument ?? '';
      t.requireInstance = true;
    }
    const ri = subArg(s, 'require-instance');
    if (ri !== undefined) {
      if (b !== 'leafref' && b !== 'instance-identifier')
        this.ctx.fail('require-instance not allowed here', s, unit);
      t.requireInstance = ri === 'true';
    } else if (builtin && b === 'instance-identifier') {
      t.requireInstance = true;
    }
    const members = subs(s, 'type');
    if (members.length > 0 || (builtin && b === 'union')) {
      if (!builtin || b !== 'union') this.ctx.fail('member types are allowed only on union', s, unit);
      if (members.length === 0) this.ctx.fail('union type needs member types', s, unit);
      t.members = members.map((m) => this.resolve(m, scope).type);
    }
    if (t.base === 'leafref' && t.path !== undefined && builtin)
      leafrefOrigins.set(t, { unit, statement: s });
    else {
      const inherited = leafrefOrigins.get(parent);
      if (inherited) leafrefOrigins.set(t, inherited);
    }
    return t;
  }

  private enums(
    list: YangStatement[],
    parent: readonly EnumItem[] | undefined,
    builtin: boolean,
    s: YangStatement,
    unit: Unit,
  ): EnumItem[] {
    if (builtin && list.length === 0) this.ctx.fail('enumeration type needs at least one enum', s, unit);
    const out: EnumItem[] = [];
    let next = 0;
    const seen = new Set<string>();
    for (const e of list) {
      const name = e.argument ?? '';
      if (seen.has(name)) this.ctx.fail(`duplicate enum "${name}"`, e, unit);
      seen.add(name);
      const v = subArg(e, 'value');
      let value: number;
      if (builtin) {
        value = v === undefined ? next : Number(v);
        if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
          this.ctx.fail(`invalid enum value "${v ?? value}"`, e, unit);
        }
      } else {
        const from = parent?.find((p) => p.name === name);
        if (!from) return this.ctx.fail(`enum "${name}" is not in the base type`, e, unit);
        if (v !== undefined && Number(v) !== from.value)
          this.ctx.fail(`enum "${name}" changes its value`, e, unit);
        value = from.value;
      }
      if (value >= next) next = value + 1;
      if (this.ctx.ifFeaturesHold(e, unit)) out.push({ name, value });
    }
    return out;
  }

  private bits(
    list: YangStatement[],
    parent: readonly BitItem[] | undefined,
    builtin: boolean,
    s: YangStatement,
    unit: Unit,
  ): BitItem[] {
    if (builtin && list.length === 0) this.ctx.fail('bits type needs at least one bit', s, unit);
    const out: BitItem[] = [];
    let next = 0;
    for (const e of list) {
      const name = e.argument ?? '';
      const p = subArg(e, 'position');
      let position: number;
      if (builtin) {
        position = p === undefined ? next : Number(p);
        if (!Number.isInteger(position) || position < 0 || position > 4294967295) {
          this.ctx.fail(`invalid bit position "${p ?? position}"`, e, unit);
        }
      } else {
        const from = parent?.find((x) => x.name === name);
        if (!from) return this.ctx.fail(`bit "${name}" is not in the base type`, e, unit);
        position = from.position;
      }
      if (position >= next) next = position + 1;
      if (this.ctx.ifFeaturesHold(e, unit)) out.push({ name, position });
    }
    return out.sort((a, b) => a.position - b.position);
  }
}
