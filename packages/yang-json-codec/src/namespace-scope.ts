/** Namespace of the `xml` prefix, bound by definition (Namespaces in XML 1.0 section 3). */
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/**
 * In-scope namespace declarations of an element (Namespaces in XML 1.0 section 6): a link to the enclosing
 * scope plus the declarations made on the element itself. Elements without declarations share their
 * parent's scope object, so a document with one declaration at the top allocates one scope.
 */
export class NamespaceScope {
  readonly parent: NamespaceScope | undefined;
  private readonly declared: Map<string, string>;

  constructor(parent: NamespaceScope | undefined, declared: Map<string, string>) {
    this.parent = parent;
    this.declared = declared;
  }

  /** The namespace URI bound to `prefix` ('' = the default namespace), or undefined when unbound. */
  lookup(prefix: string): string | undefined {
    for (let s: NamespaceScope | undefined = this; s !== undefined; s = s.parent) {
      const uri = s.declared.get(prefix);
      if (uri !== undefined) return uri;
    }
    if (prefix === 'xml') return XML_NS;
    return undefined;
  }

  /** Every binding visible here, innermost first wins; '' is the default namespace. */
  bindings(): Map<string, string> {
    const out = new Map<string, string>();
    for (let s: NamespaceScope | undefined = this; s !== undefined; s = s.parent) {
      for (const [p, u] of s.declared) if (!out.has(p)) out.set(p, u);
    }
    return out;
  }
}
