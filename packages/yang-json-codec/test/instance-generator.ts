import { checkValue, type SchemaNode, type SchemaTree, type YangType } from '@yangkit/yang-schema';
import { resolveLeafref } from '../src/values';

/** A small deterministic PRNG (mulberry32) so that a fast-check seed reproduces a document. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = [
  'a',
  'eth0',
  'Foo Fighters',
  'x-1',
  'ünïcödé',
  'a <b> & "c"',
  ' lead',
  '192.0.2.1',
  '10.1.2.3',
  '2001:db8::1',
  'fe80::1',
  '10.0.0.0/8',
  '2001:db8::/32',
  'example.com',
  '2013-12-21T00:01:00Z',
  '2016-08-15T12:00:00+02:00',
  '00:11:22:33:44:55',
  '1',
  'ABC',
  '/media/foo/a7/rope.mp3',
  'en-US',
  '255.255.255.0',
  'http://example.com/x',
  'urn:example:x',
  '',
  'MP3',
  'Wasting Light',
];

/** Builds random RFC 7951 JSON documents that the schema accepts. */
export class InstanceGenerator {
  private readonly stringPool = new WeakMap<YangType, string[]>();

  constructor(
    private readonly tree: SchemaTree,
    private readonly rnd: () => number,
  ) {}

  private int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.int(items.length)];
  }

  /** A document with some of the top-level data nodes of `modules`. */
  document(modules: readonly string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const top of this.tree.children) {
      if (!modules.includes(top.module) || !['container', 'list', 'leaf', 'leaf-list'].includes(top.kind))
        continue;
      if (this.rnd() < 0.15) continue;
      const v = this.node(top, 0);
      if (v !== undefined) out[`${top.module}:${top.name}`] = v;
    }
    return out;
  }

  private members(
    schemaChildren: readonly SchemaNode[],
    parent: SchemaNode,
    out: Record<string, unknown>,
    depth: number,
    force: ReadonlySet<SchemaNode>,
  ): void {
    for (const c of schemaChildren) {
      if (c.kind === 'choice') {
        if (this.rnd() < 0.3) continue;
        const chosen = this.pick(c.children);
        if (chosen !== undefined)
          this.members(chosen.kind === 'case' ? chosen.children : [chosen], parent, out, depth, force);
        continue;
      }
      if (!['container', 'list', 'leaf', 'leaf-list'].includes(c.kind)) continue;
      if (!force.has(c) && this.rnd() < 0.35) continue;
      const v = this.node(c, depth + 1);
      if (v !== undefined) out[c.module === parent.module ? c.name : `${c.module}:${c.name}`] = v;
    }
  }

  private node(n: SchemaNode, depth: number): unknown {
    switch (n.kind) {
      case 'container': {
        if (depth > 7) return undefined;
        const out: Record<string, unknown> = {};
        this.members(n.children, n, out, depth, new Set());
        return out;
      }
      case 'list': {
        if (depth > 7) return undefined;
        const entries: Record<string, unknown>[] = [];
        const keys = new Set<string>();
        const count = this.int(4);
        for (let i = 0; i < count; i++) {
          const e: Record<string, unknown> = {};
          this.members(n.children, n, e, depth, new Set(n.keyNodes));
          if (n.keyNodes.some((k) => e[k.name] === undefined)) continue;
          const key = JSON.stringify(n.keyNodes.map((k) => e[k.name]));
          if (keys.has(key)) continue;
          keys.add(key);
          entries.push(e);
        }
        return entries;
      }
      case 'leaf':
        return this.value(n.type!, 0);
      case 'leaf-list': {
        const values: unknown[] = [];
        const seen = new Set<string>();
        for (let i = this.int(4); i > 0; i--) {
          const v = this.value(n.type!, 0);
          if (v === undefined || seen.has(JSON.stringify(v))) continue;
          seen.add(JSON.stringify(v));
          values.push(v);
        }
        return values.length === 0 ? undefined : values;
      }
      default:
        return undefined;
    }
  }

  private inRange(t: YangType, lo: bigint, hi: bigint): bigint {
    const iv = this.pick(t.range?.intervals ?? [{ min: lo, max: hi }])!;
    const span = iv.max - iv.min;
    const choice = this.int(4);
    if (choice === 0) return iv.min;
    if (choice === 1) return iv.max;
    const r = BigInt(Math.floor(this.rnd() * 1e15));
    return span <= 0n ? iv.min : iv.min + (r % (span + 1n));
  }

  /** A JSON value of the type, or undefined when none can be made. */
  value(type: YangType, depth: number): unknown {
    const t = resolveLeafref(type);
    if (depth > 8) return undefined;
    const bounds: Record<string, [bigint, bigint]> = {
      int8: [-128n, 127n],
      int16: [-32768n, 32767n],
      int32: [-2147483648n, 2147483647n],
      int64: [-9223372036854775808n, 9223372036854775807n],
      uint8: [0n, 255n],
      uint16: [0n, 65535n],
      uint32: [0n, 4294967295n],
      uint64: [0n, 18446744073709551615n],
    };
    switch (t.base) {
      case 'int8':
      case 'int16':
      case 'int32':
      case 'uint8':
      case 'uint16':
      case 'uint32':
        return Number(this.inRange(t, ...bounds[t.base]!));
      case 'int64':
      case 'uint64':
        return String(this.inRange(t, ...bounds[t.base]!));
      case 'decimal64': {
        const v = this.inRange(t, -(10n ** 18n), 10n ** 18n);
        const fd = t.fractionDigits ?? 1;
        const neg = v < 0n;
        const s = (neg ? -v : v).toString().padStart(fd + 1, '0');
        return `${neg ? '-' : ''}${s.slice(0, s.length - fd)}.${s.slice(s.length - fd)}`;
      }
      case 'boolean':
        return this.rnd() < 0.5;
      case 'empty':
        return [null];
      case 'enumeration':
        return this.pick(t.enums ?? [])?.name;
      case 'bits':
        return (t.bits ?? [])
          .filter(() => this.rnd() < 0.5)
          .map((b) => b.name)
          .join(' ');
      case 'binary': {
        const bytes = Buffer.from(Array.from({ length: this.int(6) }, () => this.int(256)));
        const s = bytes.toString('base64');
        return checkValue(t, s).ok ? s : undefined;
      }
      case 'identityref': {
        const ids = (t.identityBases ?? []).flatMap((b) => this.tree.derivedIdentities(b));
        return this.pick(ids)?.qualifiedName;
      }
      case 'union': {
        const members = [...(t.members ?? [])];
        while (members.length > 0) {
          const m = members.splice(this.int(members.length), 1)[0]!;
          const v = this.value(m, depth + 1);
          if (v !== undefined) return v;
        }
        return undefined;
      }
      case 'string': {
        let pool = this.stringPool.get(t);
        if (pool === undefined) this.stringPool.set(t, (pool = STRINGS.filter((s) => checkValue(t, s).ok)));
        return this.pick(pool);
      }
      default:
        return undefined;
    }
  }
}
