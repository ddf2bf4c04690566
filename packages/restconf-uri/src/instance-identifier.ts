import { namespaceDeclarations } from '@yangkit/xml';
import { RestconfUriError } from './errors.js';
import { isIdentifier } from './identifier.js';
import type { ResolvedApiPath, ResolvedStep } from './resolve.js';

/** A namespace declaration needed by an XML instance-identifier. */
export interface NamespaceDeclaration {
  readonly prefix: string;
  readonly namespace: string;
}

/** An instance-identifier in the XML encoding (RFC 7950 section 9.13) with its namespaces. */
export interface XmlInstanceIdentifier {
  /** The path, e.g. `/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo']`. */
  readonly path: string;
  /** Prefix bindings the path uses, in first-use order. */
  readonly namespaces: readonly NamespaceDeclaration[];
  /** The bindings as attributes, e.g. ` xmlns:jbox="http://example.com/ns/example-jukebox"`. */
  readonly xmlns: string;
}

/** Options of {@link toInstanceIdentifier}. */
export interface InstanceIdentifierOptions {
  /** Prefix per module name (e.g. the modules' own `prefix` statements); default: the module name. */
  readonly prefixes?: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
}

/**
 * Quotes a string as an XPath 1.0 literal: `'v'`, else `"v"` when it holds `'`, else (both quote
 * kinds) `concat('…', "'", '…')`. The `concat` form is valid XPath 1.0 (usable in filters and
 * `error-path`) but outside the narrower YANG instance-identifier grammar, which has no escape
 * for a value holding both quotes.
 */
export function xpathLiteral(value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  const parts = value.split("'").map((p) => `'${p}'`);
  return `concat(${parts.join(`, "'", `)})`;
}

function predicates(step: ResolvedStep, qualify: (name: string) => string): string {
  if (step.value !== undefined) return `[.=${xpathLiteral(step.value)}]`;
  let out = '';
  for (const key of step.keys ?? []) out += `[${qualify(key.name)}=${xpathLiteral(key.value)}]`;
  return out;
}

function lookupPrefix(prefixes: InstanceIdentifierOptions['prefixes'], module: string): string {
  if (prefixes === undefined) return module;
  const found =
    prefixes instanceof Map
      ? prefixes.get(module)
      : Object.hasOwn(prefixes, module)
        ? (prefixes as Record<string, string>)[module]
        : undefined;
  return found ?? module;
}

/**
 * Formats a resolved path as an XML instance-identifier: every node prefixed, key leafs too
 * (they live in their list's namespace), leaf-list entries as `[.='v']`.
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` when one prefix is bound to two namespaces
 *   or is not a valid prefix
 */
export function toInstanceIdentifier(
  resolved: ResolvedApiPath,
  options: InstanceIdentifierOptions = {},
): XmlInstanceIdentifier {
  const byPrefix = new Map<string, string>();
  let path = '';
  for (const step of resolved.steps) {
    const { module, namespace, name } = step.node;
    const prefix = lookupPrefix(options.prefixes, module);
    if (!isIdentifier(prefix)) {
      throw new RestconfUriError(
        'FORMAT_UNREPRESENTABLE',
        `prefix '${prefix}' for module '${module}' is not valid`,
        {
          badValue: prefix,
        },
      );
    }
    const bound = byPrefix.get(prefix);
    if (bound !== undefined && bound !== namespace) {
      throw new RestconfUriError(
        'FORMAT_UNREPRESENTABLE',
        `prefix '${prefix}' would be bound to both '${bound}' and '${namespace}'`,
        { badValue: prefix },
      );
    }
    byPrefix.set(prefix, namespace);
    path += `/${prefix}:${name}${predicates(step, (key) => `${prefix}:${key}`)}`;
  }
  const namespaces = [...byPrefix].map(([prefix, namespace]) => ({ prefix, namespace }));
  const xmlns = namespaceDeclarations(namespaces.map((d) => [d.prefix, d.namespace] as const));
  return { path, namespaces, xmlns };
}

/**
 * Formats a resolved path as an RFC 7951 section 6.11 instance-identifier: a node is qualified
 * with its module name when it is the first one or its module differs from its parent's; key
 * names in predicates follow the same rule (they share the list's module, so stay bare).
 */
export function toJsonInstanceIdentifier(resolved: ResolvedApiPath): string {
  let path = '';
  let parentModule: string | undefined;
  for (const step of resolved.steps) {
    const { module, name } = step.node;
    const head = module === parentModule ? name : `${module}:${name}`;
    path += `/${head}${predicates(step, (key) => key)}`;
    parentModule = module;
  }
  return path;
}
