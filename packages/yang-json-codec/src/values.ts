import {
  checkValue,
  type SchemaNode,
  type SchemaTree,
  type ValueContext,
  type YangType,
} from '@yangkit/yang-schema';
import { qualifyNames } from '@yangkit/yang-xpath';
import { instanceIdFromJson, instanceIdFromXml, instanceIdToXml } from './instance-identifier';
import { prefixOfModule } from './schema-view';
import { isXPathType, mapXPathPrefixes } from './xpath-value';

/**
 * Leaf values between XML text, RFC 7951 JSON and the tree's canonical form (RFC 7950 section 9, RFC 7951
 * section 6). The tree keeps the canonical lexical form; identityref values as `module:identity`;
 * instance-identifier values in RFC 7951 form. The union member that matched decides the JSON encoding.
 */

/** A decoded value. */
export interface ValueOk {
  readonly ok: true;
  readonly value: string;
  readonly member: YangType | undefined;
}

/** A rejected value: `message` names the rule; error-app-tag/error-message come from the YANG restriction. */
export interface ValueError {
  readonly ok: false;
  readonly message: string;
  readonly errorAppTag?: string | undefined;
  readonly errorMessage?: string | undefined;
}

const MAX_TYPE_DEPTH = 32;

/** The type a leafref stands for (its target's), following chains. */
export function resolveLeafref(type: YangType): YangType {
  let t = type;
  for (let i = 0; t.base === 'leafref' && i < MAX_TYPE_DEPTH; i++) {
    const target = t.leafrefTarget as SchemaNode | undefined;
    if (target?.type === undefined) break;
    t = target.type;
  }
  return t;
}

function contextFor(tree: SchemaTree, resolveModule: (prefix: string) => string | undefined): ValueContext {
  const qualify = (prefixed: string): string | undefined => {
    const colon = prefixed.indexOf(':');
    const module = resolveModule(colon < 0 ? '' : prefixed.slice(0, colon));
    return module === undefined ? undefined : `${module}:${colon < 0 ? prefixed : prefixed.slice(colon + 1)}`;
  };
  // The identities resolved in this context by their text as written: most documents name a few
  // identities many times (an interface type). Only what resolves is kept, which the schema bounds.
  const resolved = new Map<string, string>();
  return {
    // The identity's own name: one string however many values name it, not a copy per value.
    resolveIdentity(prefixed) {
      const known = resolved.get(prefixed);
      if (known !== undefined) return known;
      const qname = qualify(prefixed);
      const identity = qname === undefined ? undefined : tree.identity(qname)?.qualifiedName;
      if (identity !== undefined) resolved.set(prefixed, identity);
      return identity;
    },
    disabledIdentity(prefixed) {
      const identity = qualify(prefixed);
      const features = identity === undefined ? undefined : tree.disabledIdentity(identity);
      return features === undefined ? undefined : { identity: identity!, features };
    },
    isDerivedFrom: (identity, base) => tree.isDerivedFrom(identity, base),
    typeOf: (target) => (target as SchemaNode).type,
  };
}

/** The base that decides the encoding: the matched member, through leafrefs. */
function effectiveType(type: YangType, member: YangType | undefined): YangType {
  return resolveLeafref(member ?? type);
}

/**
 * The decoded value of a checked one. An instance-identifier is read with the prefixes in scope on its
 * XML element (`lookupNamespace`) or, without it, in its RFC 7951 form.
 */
function finish(
  tree: SchemaTree,
  type: YangType,
  result: { canonical: string; member?: YangType; identity?: string },
  lookupNamespace: ((prefix: string) => string | undefined) | undefined,
): ValueOk | ValueError {
  const member = result.member;
  const eff = effectiveType(type, member);
  if (eff.base === 'identityref') {
    return { ok: true, value: result.identity ?? result.canonical, member };
  }
  if (eff.base === 'instance-identifier') {
    const id =
      lookupNamespace === undefined
        ? instanceIdFromJson(tree, result.canonical)
        : instanceIdFromXml(tree, result.canonical, lookupNamespace);
    if (id === undefined) {
      return {
        ok: false,
        message: `"${result.canonical}" names no node of the schema (instance-identifier)`,
      };
    }
    return { ok: true, value: id, member };
  }
  return { ok: true, value: result.canonical, member };
}

function fail(r: { message: string; errorAppTag?: string; errorMessage?: string }): ValueError {
  return { ok: false, message: r.message, errorAppTag: r.errorAppTag, errorMessage: r.errorMessage };
}

/**
 * Decodes XML text of a leaf of type `type`; `lookupNamespace` resolves prefixes in scope on the element
 * (identityref and instance-identifier values use them, RFC 7950 9.10.3 and 9.13.2).
 */
export function valueFromXml(
  tree: SchemaTree,
  type: YangType,
  text: string,
  scope: { lookup(prefix: string): string | undefined },
): ValueOk | ValueError {
  if (!needsContext(type)) {
    // Most leafs (strings, numbers, enums) need no prefix resolution.
    let plain = checkValue(type, text);
    if (!plain.ok && text.trim() !== text && type.base !== 'string') plain = checkValue(type, text.trim());
    return plain.ok ? { ok: true, value: plain.canonical, member: plain.member } : fail(plain);
  }
  return valueInScope(tree, type, text, scopeContext(tree, scope));
}

/** What reads the prefixes of values in one XML namespace scope. */
interface ScopeContext {
  readonly tree: SchemaTree;
  readonly lookupNamespace: (prefix: string) => string | undefined;
  readonly resolveModule: (prefix: string) => string | undefined;
  readonly context: ValueContext;
}

/**
 * The context of each namespace scope values were read in, made once per scope rather than once per value
 * (seven closures): the elements of a document share their scope unless they declare namespaces.
 */
const scopeContexts = new WeakMap<object, ScopeContext>();

function scopeContext(tree: SchemaTree, scope: { lookup(prefix: string): string | undefined }): ScopeContext {
  const known = scopeContexts.get(scope);
  if (known?.tree === tree) return known;
  const lookupNamespace = (prefix: string) => scope.lookup(prefix);
  const resolveModule = (prefix: string) => {
    const ns = lookupNamespace(prefix);
    return ns === undefined ? undefined : tree.moduleByNamespace(ns)?.name;
  };
  const made = { tree, lookupNamespace, resolveModule, context: contextFor(tree, resolveModule) };
  scopeContexts.set(scope, made);
  return made;
}

/** {@link valueFromXml} of a value whose check may resolve prefixes. */
function valueInScope(
  tree: SchemaTree,
  type: YangType,
  text: string,
  scope: ScopeContext,
): ValueOk | ValueError {
  const { context, resolveModule } = scope;
  let r = checkValue(type, text, context);
  if (!r.ok && text.trim() !== text && type.base !== 'string') {
    // Numbers, enums and the like do not keep surrounding whitespace; pretty-printed XML adds it.
    r = checkValue(type, text.trim(), context);
  }
  if (!r.ok) return fail(r);
  if (isXPathType(effectiveType(type, r.member))) {
    // XML prefixes become module names, the form the tree keeps (see mapXPathPrefixes).
    const value = mapXPathPrefixes(r.canonical, resolveModule);
    return { ok: true, value, member: r.member };
  }
  return finish(tree, type, r, scope.lookupNamespace);
}

const contextCache = new WeakMap<YangType, boolean>();

/** True when checking a value of `type` may resolve prefixes or follow a leafref target. */
function needsContext(type: YangType, depth = 0): boolean {
  const cached = contextCache.get(type);
  if (cached !== undefined) return cached;
  let needs: boolean;
  switch (type.base) {
    case 'identityref':
    case 'instance-identifier':
    case 'leafref':
      needs = true;
      break;
    case 'string':
      needs = isXPathType(type);
      break;
    case 'union':
      needs = depth > MAX_TYPE_DEPTH || (type.members ?? []).some((m) => needsContext(m, depth + 1));
      break;
    default:
      needs = false;
  }
  contextCache.set(type, needs);
  return needs;
}

/** True when XML text of the type may carry namespace prefixes (identityref, instance-identifier). */
export function usesPrefixes(type: YangType): boolean {
  return needsContext(type);
}

/** The lexical text a JSON value stands for when `type` is the member tried, or undefined on a JSON type mismatch. */
function jsonToText(base: string, json: unknown): string | undefined {
  switch (base) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
    case 'uint32':
      return typeof json === 'number' ? String(json) : undefined;
    case 'boolean':
      return typeof json === 'boolean' ? String(json) : undefined;
    case 'empty':
      return Array.isArray(json) && json.length === 1 && json[0] === null ? '' : undefined;
    default:
      // int64, uint64, decimal64 and every other type are JSON strings (RFC 7951 6.1-6.12).
      return typeof json === 'string' ? json : undefined;
  }
}

function describeJson(json: unknown): string {
  const s = JSON.stringify(json) ?? String(json);
  return s.length > 64 ? `${s.slice(0, 61)}...` : s;
}

/**
 * The value contexts of RFC 7951 text, by schema and module: each depends on nothing else, so it is
 * made once rather than for every value decoded (six closures each: a fifth of what a JSON decode of
 * 100,000 interfaces allocated).
 */
const moduleNameContexts = new WeakMap<SchemaTree, Map<string, ValueContext>>();

/** The value context of RFC 7951 text: prefixes are module names, no prefix the leaf's own module. */
function moduleNameContext(tree: SchemaTree, leafModule: string): ValueContext {
  let byModule = moduleNameContexts.get(tree);
  if (byModule === undefined) moduleNameContexts.set(tree, (byModule = new Map()));
  let context = byModule.get(leafModule);
  if (context === undefined) {
    context = contextFor(tree, (prefix) =>
      prefix === '' ? leafModule : tree.moduleByName(prefix) === undefined ? undefined : prefix,
    );
    byModule.set(leafModule, context);
  }
  return context;
}

/**
 * Decodes an RFC 7951 JSON value of a leaf of type `type` in module `leafModule`: the JSON type must be the
 * one RFC 7951 section 6 gives the type; union members are tried in order, each only with a value of its
 * JSON type (RFC 7951 6.10).
 */
export function valueFromJson(
  tree: SchemaTree,
  type: YangType,
  json: unknown,
  leafModule: string,
): ValueOk | ValueError {
  const r = fromJson(type, json, moduleNameContext(tree, leafModule), 0);
  if (!r.ok) return fail(r);
  if (isXPathType(effectiveType(type, r.member))) {
    // JSON writes a module name where it changes (RFC 7951 section 4); the tree keeps it on every name.
    return { ok: true, value: qualifyNames(r.canonical), member: r.member };
  }
  return finish(tree, type, r, undefined);
}

/**
 * Re-reads a value in the canonical form the tree keeps (identityref `module:identity`, instance-identifier
 * and xpath1.0 in RFC 7951 form; a journal or a change record stores values so), recovering the union
 * member it matched.
 */
export function valueFromCanonical(
  tree: SchemaTree,
  type: YangType,
  text: string,
  leafModule: string,
): ValueOk | ValueError {
  const r = checkValue(type, text, moduleNameContext(tree, leafModule));
  if (!r.ok) return fail(r);
  if (isXPathType(effectiveType(type, r.member))) return { ok: true, value: r.canonical, member: r.member };
  return finish(tree, type, r, undefined);
}

type Checked =
  | { ok: true; canonical: string; member?: YangType; identity?: string }
  | { ok: false; message: string; errorAppTag?: string; errorMessage?: string };

function fromJson(type: YangType, json: unknown, context: ValueContext, depth: number): Checked {
  if (depth > MAX_TYPE_DEPTH) return { ok: false, message: 'type nesting too deep' };
  const t = resolveLeafref(type);
  if (t.base === 'union') {
    const reasons: string[] = [];
    for (const m of t.members ?? []) {
      const r = fromJson(m, json, context, depth + 1);
      if (r.ok) return r.member === undefined ? { ...r, member: m } : r;
      reasons.push(r.message);
    }
    return {
      ok: false,
      message: `${describeJson(json)} matches no member of union type ${t.name}: ${reasons.join('; ')}`,
    };
  }
  const text = jsonToText(t.base, json);
  if (text === undefined) {
    return {
      ok: false,
      message: `${describeJson(json)} is not the JSON encoding of type ${t.name} (RFC 7951 section 6)`,
    };
  }
  const r = checkValue(t, text, context);
  if (!r.ok) return r;
  return r;
}

/** The RFC 7951 JSON text of a canonical value of a leaf in `leafModule`. */
export function valueToJson(
  type: YangType,
  member: YangType | undefined,
  value: string,
  leafModule: string,
): string {
  switch (effectiveType(type, member).base) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'boolean':
      return value;
    case 'empty':
      return '[null]';
    case 'identityref': {
      // RFC 7951 6.8: the module name is left out when the identity is in the leaf's own module.
      const colon = value.indexOf(':');
      return JSON.stringify(
        colon >= 0 && value.slice(0, colon) === leafModule ? value.slice(colon + 1) : value,
      );
    }
    default:
      return JSON.stringify(value);
  }
}

/**
 * The XML text (not yet escaped) of a canonical value; `declare` receives every prefix/namespace binding the
 * text relies on (identityref, instance-identifier), to be declared on the element.
 */
export function valueToXml(
  tree: SchemaTree,
  type: YangType,
  member: YangType | undefined,
  value: string,
  declare: (prefix: string, namespace: string) => void,
): string {
  const base = effectiveType(type, member).base;
  if (base === 'identityref') {
    const colon = value.indexOf(':');
    if (colon < 0) return value;
    const module = value.slice(0, colon);
    const ns = tree.moduleByName(module)?.namespace;
    if (ns === undefined) return value;
    const prefix = prefixOfModule(tree, module);
    declare(prefix, ns);
    return `${prefix}:${value.slice(colon + 1)}`;
  }
  if (base === 'instance-identifier') return instanceIdToXml(tree, value, declare);
  if (isXPathType(effectiveType(type, member))) return xpathToXml(tree, value, declare);
  return value;
}

/** An XPath expression with module names (the tree's form) with the modules' XML prefixes, declared through `declare`. */
export function xpathToXml(
  tree: SchemaTree,
  value: string,
  declare: (prefix: string, namespace: string) => void,
): string {
  return mapXPathPrefixes(value, (module) => {
    const m = tree.moduleByName(module);
    if (m === undefined) return undefined;
    declare(m.prefix, m.namespace);
    return m.prefix;
  });
}
