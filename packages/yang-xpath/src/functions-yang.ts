import type { AnyNode, AnyValue, EvalContext } from './context.js';
import { XPathEvaluationError } from './errors.js';
import { type FunctionDef, nodeSetArg, type StaticEnv } from './functions-core.js';
import type { QualifiedName, YangNodeInfo } from './navigator.js';
import { toStringValue } from './values.js';
import { compileXsdRegex } from './xsd-regex.js';

function requireInfo(ctx: EvalContext, node: AnyNode, fn: string, site: StaticEnv): YangNodeInfo<AnyNode> {
  const info = ctx.env.nav.schemaInfo?.(node);
  if (info === undefined) {
    throw new XPathEvaluationError(
      'MISSING_SCHEMA_INFO',
      `${fn}() needs YANG type information (navigator.schemaInfo) for node '${ctx.env.nav.localName(node)}'`,
      site.position,
    );
  }
  return info;
}

/** Resolves an identity name `prefix:name` in the expression's prefix context (RFC 7950 section 10.4.1). */
export function resolveIdentity(text: string, site: StaticEnv): QualifiedName | undefined {
  const colon = text.indexOf(':');
  if (colon < 0) return { namespace: site.defaultNamespace, name: text };
  const namespace = site.prefixes.get(text.slice(0, colon));
  return namespace === undefined ? undefined : { namespace, name: text.slice(colon + 1) };
}

function derivedFrom(orSelf: boolean): FunctionDef['call'] {
  const fn = orSelf ? 'derived-from-or-self' : 'derived-from';
  return (ctx, [nodes, identity], site) => {
    const text = toStringValue(identity!, ctx.env.nav);
    const base = resolveIdentity(text, site);
    if (base === undefined) {
      throw new XPathEvaluationError(
        'UNKNOWN_PREFIX',
        `${fn}(): unknown prefix in identity '${text}'`,
        site.position,
      );
    }
    // RFC 7950 section 10.4.1: true if any node in the set is an identityref derived from the identity
    for (const node of nodeSetArg(nodes!, fn, site)) {
      const info = requireInfo(ctx, node, fn, site);
      if (info.baseType !== 'identityref') continue;
      if (!info.isDerivedFrom) {
        throw new XPathEvaluationError(
          'MISSING_SCHEMA_INFO',
          `${fn}() needs schemaInfo().isDerivedFrom`,
          site.position,
        );
      }
      if (info.isDerivedFrom(ctx.env.nav.stringValue(node), base, orSelf)) return true;
    }
    return false;
  };
}

function deref(ctx: EvalContext, args: AnyValue[], site: StaticEnv): AnyValue {
  const node = nodeSetArg(args[0]!, 'deref', site)[0];
  if (node === undefined) return [];
  const info = requireInfo(ctx, node, 'deref', site);
  const env = ctx.env;
  if (info.deref) return sortNodes(ctx, info.deref(node));
  const value = env.nav.stringValue(node);
  // RFC 7950 section 10.3.1: a leafref refers to the nodes its path selects that have its value
  if (info.baseType === 'leafref' && info.leafrefPath) {
    return info.leafrefPath
      .evaluateNodes(node, env.nav, { current: node })
      .filter((target) => env.nav.stringValue(target) === value);
  }
  if (info.baseType === 'instance-identifier') {
    const prefixes = info.instanceIdentifierPrefixes ?? site.prefixes;
    return site.compilePath(value, prefixes)(ctx);
  }
  return [];
}

function sortNodes(ctx: EvalContext, nodes: AnyNode[]): AnyNode[] {
  if (nodes.length < 2) return nodes;
  return [...new Set(nodes)].sort(ctx.env.order());
}

function enumValue(ctx: EvalContext, args: AnyValue[], site: StaticEnv): AnyValue {
  const node = nodeSetArg(args[0]!, 'enum-value', site)[0];
  if (node === undefined) return Number.NaN;
  const info = requireInfo(ctx, node, 'enum-value', site);
  // RFC 7950 section 10.5.1: NaN unless the first node is an enumeration
  if (info.baseType !== 'enumeration') return Number.NaN;
  if (!info.enumValue) {
    throw new XPathEvaluationError(
      'MISSING_SCHEMA_INFO',
      'enum-value() needs schemaInfo().enumValue',
      site.position,
    );
  }
  return info.enumValue(ctx.env.nav.stringValue(node)) ?? Number.NaN;
}

function bitIsSet(ctx: EvalContext, args: AnyValue[], site: StaticEnv): AnyValue {
  const node = nodeSetArg(args[0]!, 'bit-is-set', site)[0];
  if (node === undefined) return false;
  const info = requireInfo(ctx, node, 'bit-is-set', site);
  if (info.baseType !== 'bits') return false;
  // RFC 7950 section 9.7.2: the lexical form is a space-separated list of bit names
  const bit = toStringValue(args[1]!, ctx.env.nav);
  return ctx.env.nav
    .stringValue(node)
    .split(/[\t\n\r ]+/)
    .includes(bit);
}

function reMatch(ctx: EvalContext, args: AnyValue[]): AnyValue {
  const subject = toStringValue(args[0]!, ctx.env.nav);
  const pattern = toStringValue(args[1]!, ctx.env.nav);
  return compileXsdRegex(pattern).test(subject);
}

/** The YANG 1.1 function library of RFC 7950 section 10. */
export const YANG_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map<string, FunctionDef>([
  // 10.1.1: the initial context node
  ['current', { min: 0, max: 0, returns: 'node-set', contextual: false, call: (ctx) => [ctx.env.current] }],
  ['re-match', { min: 2, max: 2, returns: 'boolean', contextual: false, call: reMatch }],
  ['deref', { min: 1, max: 1, returns: 'node-set', contextual: false, call: deref }],
  ['derived-from', { min: 2, max: 2, returns: 'boolean', contextual: false, call: derivedFrom(false) }],
  [
    'derived-from-or-self',
    { min: 2, max: 2, returns: 'boolean', contextual: false, call: derivedFrom(true) },
  ],
  ['enum-value', { min: 1, max: 1, returns: 'number', contextual: false, call: enumValue }],
  ['bit-is-set', { min: 2, max: 2, returns: 'boolean', contextual: false, call: bitIsSet }],
]);
