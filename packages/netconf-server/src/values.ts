import type { NamespaceScope } from '@yangkit/xml';
import type { SchemaNode, SchemaTree, ValueContext } from '@yangkit/yang-schema';
import { checkValue } from '@yangkit/yang-schema';

/** Result of reading a leaf value from XML: the stored form, or the failed check. */
export type ReadValue =
  | { ok: true; value: string }
  | { ok: false; message: string; errorAppTag?: string | undefined; errorMessage?: string | undefined };

const QNAME = /([A-Za-z_][\w.-]*):([A-Za-z_][\w.-]*)/y;

/**
 * Rewrites every `prefix:name` outside quoted literals of an instance-identifier (RFC 7950 9.13) with
 * `map(prefix)`; returns undefined when a prefix is unknown.
 */
export function mapPrefixes(text: string, map: (prefix: string) => string | undefined): string | undefined {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end === -1) return undefined;
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    QNAME.lastIndex = i;
    const m = QNAME.exec(text);
    if (m && (i === 0 || !/[\w.-]/.test(text[i - 1]!))) {
      const mapped = map(m[1]!);
      if (mapped === undefined) return undefined;
      out += `${mapped}:${m[2]}`;
      i += m[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Checks the XML text of a leaf against its type (yang-schema `checkValue`) and returns the stored
 * form: canonical text, identityref as `module:identity`, instance-identifier with module names.
 */
export function readValue(
  tree: SchemaTree,
  schema: SchemaNode,
  text: string,
  scope: NamespaceScope,
): ReadValue {
  const type = schema.type!;
  const moduleOfPrefix = (prefix: string): string | undefined => {
    const ns = scope.lookup(prefix);
    return ns === undefined ? undefined : tree.moduleByNamespace(ns)?.name;
  };
  const context: ValueContext = {
    resolveIdentity(prefixed) {
      const colon = prefixed.indexOf(':');
      const module =
        colon === -1 ? (moduleOfPrefix('') ?? schema.module) : moduleOfPrefix(prefixed.slice(0, colon));
      const name = colon === -1 ? prefixed : prefixed.slice(colon + 1);
      const q = `${module}:${name}`;
      return module !== undefined && tree.identity(q) ? q : undefined;
    },
    isDerivedFrom: (identity, base) => tree.isDerivedFrom(identity, base),
    typeOf: (target) => (target as SchemaNode).type,
  };
  const trimmed = type.base === 'string' || type.base === 'binary' ? text : text.trim();
  const r = checkValue(type, trimmed, context);
  if (!r.ok)
    return { ok: false, message: r.message, errorAppTag: r.errorAppTag, errorMessage: r.errorMessage };
  if (r.identity !== undefined) return { ok: true, value: r.identity };
  const base = (r.member ?? type).base;
  if (base === 'instance-identifier') {
    const mapped = mapPrefixes(r.canonical, moduleOfPrefix);
    if (mapped === undefined)
      return { ok: false, message: `instance-identifier ${JSON.stringify(text)} uses an unknown prefix` };
    return { ok: true, value: mapped };
  }
  return { ok: true, value: r.canonical };
}

/** The XML text of a stored value plus the namespace declarations it needs (identityref, instance-identifier). */
export function writeValue(
  tree: SchemaTree,
  schema: SchemaNode,
  value: string,
): { text: string; ns: Map<string, string> | undefined } {
  const type = schema.type;
  if (type === undefined || !value.includes(':')) return { text: value, ns: undefined };
  const bases = new Set<string>();
  collectBases(type, bases);
  if (!bases.has('identityref') && !bases.has('instance-identifier')) return { text: value, ns: undefined };
  const ns = new Map<string, string>();
  const toPrefix = (module: string): string | undefined => {
    const m = tree.moduleByName(module);
    if (!m) return undefined;
    ns.set(m.prefix, m.namespace);
    return m.prefix;
  };
  if (value.startsWith('/')) {
    const text = mapPrefixes(value, toPrefix);
    return text === undefined ? { text: value, ns: undefined } : { text, ns };
  }
  const colon = value.indexOf(':');
  const prefix = toPrefix(value.slice(0, colon));
  return prefix === undefined
    ? { text: value, ns: undefined }
    : { text: `${prefix}:${value.slice(colon + 1)}`, ns };
}

function collectBases(type: NonNullable<SchemaNode['type']>, into: Set<string>, depth = 0): void {
  if (depth > 16) return;
  into.add(type.base);
  for (const m of type.members ?? []) collectBases(m, into, depth + 1);
  if (type.base === 'leafref' && type.leafrefTarget) {
    const t = (type.leafrefTarget as SchemaNode).type;
    if (t) collectBases(t, into, depth + 1);
  }
}
