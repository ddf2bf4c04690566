/** Namespace of the `xml` prefix, bound by definition (Namespaces in XML 1.0 section 3). */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
/** Namespace of `xmlns` attributes, which no prefix may be bound to. */
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * The namespace declarations in scope on an element (Namespaces in XML 1.0 section 6): those
 * the element makes (`declared`) and a link to the enclosing scope. An element that declares
 * nothing shares its parent's scope object, so a document with its declarations at the top
 * allocates one scope.
 */
export class NamespaceScope {
  /** The scope of the nearest ancestor that declares namespaces; `undefined` at the top. */
  readonly parent: NamespaceScope | undefined;
  /** The declarations made here: prefix (`''` for the default namespace) to URI (`''` undeclares the default). */
  readonly declared: ReadonlyMap<string, string>;

  /** The default namespace here, kept so that unprefixed names resolve without walking the chain. */
  private readonly defaultNamespace: string | undefined;

  constructor(parent: NamespaceScope | undefined, declared: ReadonlyMap<string, string>) {
    this.parent = parent;
    this.declared = declared;
    this.defaultNamespace = declared.get('') ?? parent?.defaultNamespace;
  }

  /** The scope outside every element: only `xml` is bound. */
  static readonly EMPTY = new NamespaceScope(undefined, NONE);

  /** The URI bound to `prefix` (`''` = the default namespace; `''` when it is undeclared), or `undefined` when unbound. */
  lookup(prefix: string): string | undefined {
    if (prefix === '') return this.defaultNamespace;
    for (let s: NamespaceScope | undefined = this; s !== undefined; s = s.parent) {
      const uri = s.declared.get(prefix);
      if (uri !== undefined) return uri;
    }
    return prefix === 'xml' ? XML_NAMESPACE : undefined;
  }

  /**
   * Every binding visible here, in document order: the outermost declarations first, a prefix
   * declared again further in keeping its place with the inner URI (the implicit `xml` binding is
   * not listed).
   */
  bindings(): Map<string, string> {
    const chain: NamespaceScope[] = [];
    for (let s: NamespaceScope | undefined = this; s !== undefined; s = s.parent) chain.push(s);
    const out = new Map<string, string>();
    for (let i = chain.length - 1; i >= 0; i--) for (const [p, u] of chain[i]!.declared) out.set(p, u);
    return out;
  }
}
