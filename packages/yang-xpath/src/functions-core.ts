import type { AnyNode, AnyValue, EvalContext } from './context.js';
import { XPathEvaluationError } from './errors.js';
import { toBoolean, toNumber, toStringValue } from './values.js';

/** What a function learns about the expression it was compiled in. */
export interface StaticEnv {
  /** prefix -> namespace */
  readonly prefixes: ReadonlyMap<string, string>;
  /** namespace -> first prefix mapping to it, for name() */
  readonly prefixOf: ReadonlyMap<string, string>;
  /** Namespace of unprefixed names ('' unless the caller set one). */
  readonly defaultNamespace: string;
  /** Offset of the call in the expression, for error positions. */
  readonly position: number;
  /** Compiles an instance-identifier value for deref(). */
  readonly compilePath: (
    value: string,
    prefixes: ReadonlyMap<string, string>,
  ) => (ctx: EvalContext) => AnyNode[];
}

/** The result type of a function, used by static analysis. */
export type ResultType = 'number' | 'string' | 'boolean' | 'node-set' | 'any';

/** A built-in function: arity, result type, and whether zero arguments mean the context node. */
export interface FunctionDef {
  readonly min: number;
  readonly max: number;
  readonly returns: ResultType;
  /** Depends on the context node, position or size (beyond its arguments). */
  readonly contextual: boolean;
  readonly call: (ctx: EvalContext, args: AnyValue[], site: StaticEnv) => AnyValue;
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** Requires a node-set argument: XPath 1.0 has no conversion to node-set (section 3.3). */
export function nodeSetArg(value: AnyValue, fn: string, site: StaticEnv): AnyNode[] {
  if (!Array.isArray(value)) {
    throw new XPathEvaluationError(
      'TYPE',
      `${fn}() expects a node-set argument, got a ${typeof value}`,
      site.position,
    );
  }
  return value;
}

function contextOrFirst(
  ctx: EvalContext,
  args: AnyValue[],
  fn: string,
  site: StaticEnv,
): AnyNode | undefined {
  if (args.length === 0) return ctx.node;
  return nodeSetArg(args[0]!, fn, site)[0];
}

function str(ctx: EvalContext, value: AnyValue): string {
  return toStringValue(value, ctx.env.nav);
}

function num(ctx: EvalContext, value: AnyValue): number {
  return toNumber(value, ctx.env.nav);
}

const WHITESPACE_RUN = /[\t\n\r ]+/g;

/** XPath 1.0 section 4.2 substring(): positions are rounded, characters are code points. */
function substring(text: string, start: number, length: number | undefined): string {
  const chars = Array.from(text);
  const first = Math.round(start);
  const end = length === undefined ? Number.POSITIVE_INFINITY : first + Math.round(length);
  let out = '';
  for (let p = 1; p <= chars.length; p++) {
    if (p >= first && p < end) out += chars[p - 1];
  }
  return out;
}

function translate(text: string, from: string, to: string): string {
  const map = new Map<string, string>();
  const toChars = Array.from(to);
  Array.from(from).forEach((ch, i) => {
    if (!map.has(ch)) map.set(ch, toChars[i] ?? '');
  });
  let out = '';
  for (const ch of text) out += map.get(ch) ?? ch;
  return out;
}

function langMatches(ctx: EvalContext, wanted: string): boolean {
  const nav = ctx.env.nav;
  for (let n: AnyNode | undefined = ctx.node; n !== undefined; n = nav.parent(n)) {
    if (nav.kind(n) !== 'element' || !nav.attributes) continue;
    for (const attr of nav.attributes(n)) {
      if (nav.localName(attr) === 'lang' && nav.namespace(attr) === XML_NAMESPACE) {
        const lang = nav.stringValue(attr).toLowerCase();
        const target = wanted.toLowerCase();
        return lang === target || lang.startsWith(`${target}-`);
      }
    }
  }
  return false;
}

function def(
  min: number,
  max: number,
  returns: ResultType,
  contextual: boolean,
  call: FunctionDef['call'],
): FunctionDef {
  return { min, max, returns, contextual, call };
}

/** The core function library of XPath 1.0 section 4. */
export const CORE_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map([
  // 4.1 node-set functions
  ['last', def(0, 0, 'number', true, (ctx) => ctx.size)],
  ['position', def(0, 0, 'number', true, (ctx) => ctx.position)],
  ['count', def(1, 1, 'number', false, (_ctx, [a], site) => nodeSetArg(a!, 'count', site).length)],
  // YANG data has no ID-typed attributes, so id() selects nothing
  ['id', def(1, 1, 'node-set', false, () => [])],
  [
    'local-name',
    def(0, 1, 'string', true, (ctx, args, site) => {
      const node = contextOrFirst(ctx, args, 'local-name', site);
      return node === undefined ? '' : ctx.env.nav.localName(node);
    }),
  ],
  [
    'namespace-uri',
    def(0, 1, 'string', true, (ctx, args, site) => {
      const node = contextOrFirst(ctx, args, 'namespace-uri', site);
      return node === undefined ? '' : ctx.env.nav.namespace(node);
    }),
  ],
  [
    'name',
    def(0, 1, 'string', true, (ctx, args, site) => {
      const node = contextOrFirst(ctx, args, 'name', site);
      if (node === undefined) return '';
      const local = ctx.env.nav.localName(node);
      const ns = ctx.env.nav.namespace(node);
      // the data carries no prefixes: use the expression's own prefix for the namespace, if any
      const prefix = ns === '' ? undefined : site.prefixOf.get(ns);
      return prefix === undefined ? local : `${prefix}:${local}`;
    }),
  ],
  // 4.2 string functions
  ['string', def(0, 1, 'string', true, (ctx, args) => str(ctx, args.length === 0 ? [ctx.node] : args[0]!))],
  [
    'concat',
    def(2, Number.POSITIVE_INFINITY, 'string', false, (ctx, args) => args.map((a) => str(ctx, a)).join('')),
  ],
  ['starts-with', def(2, 2, 'boolean', false, (ctx, [a, b]) => str(ctx, a!).startsWith(str(ctx, b!)))],
  ['contains', def(2, 2, 'boolean', false, (ctx, [a, b]) => str(ctx, a!).includes(str(ctx, b!)))],
  [
    'substring-before',
    def(2, 2, 'string', false, (ctx, [a, b]) => {
      const s = str(ctx, a!);
      const at = s.indexOf(str(ctx, b!));
      return at < 0 ? '' : s.slice(0, at);
    }),
  ],
  [
    'substring-after',
    def(2, 2, 'string', false, (ctx, [a, b]) => {
      const s = str(ctx, a!);
      const t = str(ctx, b!);
      const at = s.indexOf(t);
      return at < 0 ? '' : s.slice(at + t.length);
    }),
  ],
  [
    'substring',
    def(2, 3, 'string', false, (ctx, [a, b, c]) =>
      substring(str(ctx, a!), num(ctx, b!), c === undefined ? undefined : num(ctx, c)),
    ),
  ],
  [
    'string-length',
    def(0, 1, 'number', true, (ctx, args) => {
      const s = str(ctx, args.length === 0 ? [ctx.node] : args[0]!);
      // characters are code points: a surrogate pair counts once
      let count = 0;
      for (const _ of s) count++;
      return count;
    }),
  ],
  [
    'normalize-space',
    def(0, 1, 'string', true, (ctx, args) =>
      str(ctx, args.length === 0 ? [ctx.node] : args[0]!)
        .replace(WHITESPACE_RUN, ' ')
        .replace(/^ | $/g, ''),
    ),
  ],
  [
    'translate',
    def(3, 3, 'string', false, (ctx, [a, b, c]) => translate(str(ctx, a!), str(ctx, b!), str(ctx, c!))),
  ],
  // 4.3 boolean functions
  ['boolean', def(1, 1, 'boolean', false, (_ctx, [a]) => toBoolean(a!))],
  ['not', def(1, 1, 'boolean', false, (_ctx, [a]) => !toBoolean(a!))],
  ['true', def(0, 0, 'boolean', false, () => true)],
  ['false', def(0, 0, 'boolean', false, () => false)],
  ['lang', def(1, 1, 'boolean', true, (ctx, [a]) => langMatches(ctx, str(ctx, a!)))],
  // 4.4 number functions
  ['number', def(0, 1, 'number', true, (ctx, args) => num(ctx, args.length === 0 ? [ctx.node] : args[0]!))],
  [
    'sum',
    def(1, 1, 'number', false, (ctx, [a], site) => {
      let total = 0;
      for (const node of nodeSetArg(a!, 'sum', site)) total += num(ctx, [node]);
      return total;
    }),
  ],
  ['floor', def(1, 1, 'number', false, (ctx, [a]) => Math.floor(num(ctx, a!)))],
  ['ceiling', def(1, 1, 'number', false, (ctx, [a]) => Math.ceil(num(ctx, a!)))],
  // Math.round rounds halves towards +Infinity and gives -0 on [-0.5, 0), as section 4.4 asks
  ['round', def(1, 1, 'number', false, (ctx, [a]) => Math.round(num(ctx, a!)))],
]);
