import { isTransparent, type NodeImpl } from './schema-node';
import type {
  SchemaAnnotation,
  SchemaIdentity,
  SchemaModule,
  SchemaNode,
  YangDataStructure,
} from './schema-types';
import type { ValueContext } from './types/value';
import { buildYangLibrary, type YangLibraryData, type YangLibraryOptions } from './yang-library';

/** Everything the compiler hands to {@link SchemaTree}. */
export interface SchemaTreeParts {
  readonly modules: readonly SchemaModule[];
  readonly roots: readonly NodeImpl[];
  readonly identities: ReadonlyMap<string, SchemaIdentity>;
  /** Identities left out because an if-feature is false: `module:identity` to the if-feature text. */
  readonly disabledIdentities?: ReadonlyMap<string, string>;
  readonly yangData: ReadonlyMap<string, YangDataStructure>;
  readonly annotations: ReadonlyMap<string, SchemaAnnotation>;
}

function stepOf(list: readonly SchemaNode[], module: string, name: string): SchemaNode | undefined {
  for (const n of list) if (n.name === name && n.module === module) return n;
  for (const n of list) {
    if (isTransparent(n.kind)) {
      const found = stepOf(n.children, module, name);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The compiled, immutable view of a module set: modules, one resolved schema tree, identities,
 * `rc:yang-data` templates, `md:annotation`s and the ietf-yang-library description of it all.
 */
export class SchemaTree implements Iterable<SchemaNode> {
  /** Modules of the set (implemented and import-only), in the order they were given. */
  readonly modules: readonly SchemaModule[];
  /** Top-level schema nodes of all implemented modules in module order (data nodes, rpcs, notifications). */
  readonly children: readonly SchemaNode[];
  /** Identities by qualified name `module:identity`. */
  readonly identities: ReadonlyMap<string, SchemaIdentity>;
  /** `rc:yang-data` and `sx:structure` templates by `module:name`. */
  readonly yangData: ReadonlyMap<string, YangDataStructure>;
  /** `md:annotation`s by `module:name`. */
  readonly annotations: ReadonlyMap<string, SchemaAnnotation>;
  private readonly disabledIdentities: ReadonlyMap<string, string>;
  private readonly byName = new Map<string, SchemaModule>();
  private readonly byNamespace = new Map<string, SchemaModule>();
  private readonly derivedCache = new Map<string, ReadonlySet<string>>();

  /** Built by `compileSchema`; not meant to be constructed directly. */
  constructor(parts: SchemaTreeParts) {
    this.modules = Object.freeze([...parts.modules]);
    this.children = Object.freeze([...parts.roots]);
    this.identities = parts.identities;
    this.disabledIdentities = parts.disabledIdentities ?? new Map();
    this.yangData = parts.yangData;
    this.annotations = parts.annotations;
    for (const m of this.modules) {
      const prev = this.byName.get(m.name);
      // Prefer the implemented revision, then the newest.
      if (
        !prev ||
        (m.implemented && !prev.implemented) ||
        (m.implemented === prev.implemented && (m.revision ?? '') > (prev.revision ?? ''))
      ) {
        this.byName.set(m.name, m);
        this.byNamespace.set(m.namespace, m);
      }
    }
    Object.freeze(this);
  }

  /** The module of this name (the implemented revision when there are several). */
  moduleByName(name: string): SchemaModule | undefined {
    return this.byName.get(name);
  }

  /** The module with this namespace URI. */
  moduleByNamespace(namespace: string): SchemaModule | undefined {
    return this.byNamespace.get(namespace);
  }

  /** The top-level data node, rpc or notification `name` of `module` (choice and case transparent). */
  topLevel(module: string, name: string): SchemaNode | undefined {
    return stepOf(this.children, module, name);
  }

  /** Every rpc of the implemented modules. */
  rpcs(): SchemaNode[] {
    return this.children.filter((n) => n.kind === 'rpc');
  }

  /** Every top-level notification of the implemented modules. */
  notifications(): SchemaNode[] {
    return this.children.filter((n) => n.kind === 'notification');
  }

  /**
   * Finds a node by an RFC 7951-style path: `/module:name/name/other-module:name`; a step without a module
   * belongs to its parent's module. Choice, case, input and output may be written as steps or skipped.
   */
  find(path: string): SchemaNode | undefined {
    if (!path.startsWith('/')) return undefined;
    let module = '';
    let node: SchemaNode | undefined;
    for (const raw of path.slice(1).split('/')) {
      const colon = raw.indexOf(':');
      if (colon >= 0) module = raw.slice(0, colon);
      else if (!node) return undefined;
      const name = colon >= 0 ? raw.slice(colon + 1) : raw;
      node = stepOf(node ? node.children : this.children, module, name);
      if (!node) return undefined;
    }
    return node;
  }

  /** Iterates every schema node depth-first in schema order. */
  *[Symbol.iterator](): Iterator<SchemaNode> {
    const stack: SchemaNode[] = [...this.children].reverse();
    for (let n = stack.pop(); n; n = stack.pop()) {
      yield n;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }

  /** The identity with this qualified name (`module:identity`). */
  identity(qualifiedName: string): SchemaIdentity | undefined {
    return this.identities.get(qualifiedName);
  }

  /**
   * The if-feature expression that leaves the identity `module:identity` out of this set (RFC 7950
   * 7.20.2: an identity whose if-feature is false does not exist), or undefined when the identity
   * is not disabled (it exists, or no module defines it).
   */
  disabledIdentity(qualifiedName: string): string | undefined {
    return this.disabledIdentities.get(qualifiedName);
  }

  /** True when `identity` is derived (directly or not) from `base`, both `module:name` (RFC 7950 10.4.1). */
  isDerivedFrom(identity: string, base: string): boolean {
    return this.ancestors(identity).has(base);
  }

  /** Every identity derived from `base`, directly or not (the values an identityref with that base takes). */
  derivedIdentities(base: string): SchemaIdentity[] {
    return [...this.identities.values()].filter((i) => this.isDerivedFrom(i.qualifiedName, base));
  }

  private ancestors(identity: string): ReadonlySet<string> {
    const cached = this.derivedCache.get(identity);
    if (cached) return cached;
    const out = new Set<string>();
    const stack = [...(this.identities.get(identity)?.bases ?? [])];
    for (let b = stack.pop(); b !== undefined; b = stack.pop()) {
      if (out.has(b)) continue;
      out.add(b);
      stack.push(...(this.identities.get(b)?.bases ?? []));
    }
    this.derivedCache.set(identity, out);
    return out;
  }

  /**
   * A `ValueContext` for `checkValue` that resolves identityref values against this tree. Identity
   * prefixes are looked up in `prefixes` (XML: the namespace prefixes in scope, mapped to module names);
   * without a map, or for a prefix it lacks, the prefix is taken as a module name (RFC 7951 JSON form).
   * Unprefixed identities belong to `defaultModule`, when given.
   */
  valueContext(prefixes?: ReadonlyMap<string, string>, defaultModule?: string): ValueContext {
    const qualify = (prefixed: string): string | undefined => {
      const colon = prefixed.indexOf(':');
      const module =
        colon < 0 ? defaultModule : (prefixes?.get(prefixed.slice(0, colon)) ?? prefixed.slice(0, colon));
      return module === undefined ? undefined : `${module}:${prefixed.slice(colon + 1)}`;
    };
    return {
      resolveIdentity: (prefixed) => {
        const qualified = qualify(prefixed);
        return qualified !== undefined && this.identities.has(qualified) ? qualified : undefined;
      },
      disabledIdentity: (prefixed) => {
        const qualified = qualify(prefixed);
        const features = qualified === undefined ? undefined : this.disabledIdentity(qualified);
        return features === undefined ? undefined : { identity: qualified!, features };
      },
      isDerivedFrom: (identity, base) => this.isDerivedFrom(identity, base),
      typeOf: (target) => (target as SchemaNode | undefined)?.type,
    };
  }

  /** The RFC 8525 `yang-library` and RFC 7895 `modules-state` data describing this set, as RFC 7951 JSON. */
  yangLibrary(options: YangLibraryOptions = {}): YangLibraryData {
    return buildYangLibrary(this.modules, options);
  }
}
