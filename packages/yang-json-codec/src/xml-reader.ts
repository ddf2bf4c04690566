import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CodecError } from './errors';

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

/** An attribute with its namespace resolved; unprefixed attributes are in no namespace (`ns` is ''). */
export interface XmlAttribute {
  readonly ns: string;
  readonly prefix: string;
  readonly local: string;
  readonly value: string;
}

/** An element with its namespace resolved from the declarations in scope. */
export interface XmlElement {
  readonly ns: string;
  readonly prefix: string;
  readonly local: string;
  readonly attributes: readonly XmlAttribute[];
  /** Child elements and text pieces in document order (entities and character references decoded). */
  readonly children: readonly (XmlElement | string)[];
  readonly scope: NamespaceScope;
}

/** Limits that keep reading bounded on hostile input. */
export interface XmlLimits {
  /** Largest accepted text, in UTF-16 code units (default 256 MiB). */
  readonly maxSize?: number;
  /** Deepest accepted element nesting (default 256). */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_SIZE = 256 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 256;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: false,
  maxNestedTags: Number.MAX_SAFE_INTEGER,
});

type FxpNode = Record<string, unknown>;

/**
 * Reads an XML document or fragment (several top-level elements are allowed, as NETCONF `<data>` content
 * has them) into namespace-resolved elements. Refuses DOCTYPE (and with it every entity declaration),
 * processing instructions other than the XML declaration, undeclared entity references, unbound prefixes,
 * text outside elements, and input over the size or depth limits; throws only {@link CodecError}.
 */
export function readXml(text: string, limits: XmlLimits = {}): XmlElement[] {
  const maxSize = limits.maxSize ?? DEFAULT_MAX_SIZE;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (typeof text !== 'string') {
    throw new CodecError('XML_MALFORMED', 'XML input must be a string', { errorTag: 'malformed-message' });
  }
  if (text.length > maxSize) {
    throw new CodecError(
      'LIMIT_EXCEEDED',
      `XML input of ${text.length} characters exceeds the limit of ${maxSize}`,
      {
        errorTag: 'too-big',
      },
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  refuseMarkupDeclarations(text);
  checkDepth(text, maxDepth);
  // A NETCONF <data> body has several top-level elements; the validator wants one root, so it sees the
  // content inside a synthetic one (after the XML declaration, which must stay first).
  const decl = /^[ \t\r\n]*<\?xml[\s\S]*?\?>/.exec(text);
  const body = decl === null ? text : text.slice(decl[0].length);
  const valid = XMLValidator.validate(`<_>${body}</_>`);
  if (valid !== true) {
    throw new CodecError(
      'XML_MALFORMED',
      `malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`,
      {
        errorTag: 'malformed-message',
      },
    );
  }
  let raw: FxpNode[];
  try {
    raw = parser.parse(text) as FxpNode[];
  } catch (cause) {
    throw new CodecError('XML_MALFORMED', `malformed XML: ${(cause as Error).message}`, {
      errorTag: 'malformed-message',
      cause,
    });
  }
  const root = new NamespaceScope(undefined, new Map());
  const out: XmlElement[] = [];
  for (const item of raw) {
    const el = convert(item, root);
    if (typeof el === 'string') {
      if (el.trim() !== '') {
        throw new CodecError('XML_MALFORMED', 'text outside the document element', {
          errorTag: 'malformed-message',
        });
      }
    } else out.push(el);
  }
  return out;
}

/**
 * Only comments, CDATA sections and a leading XML declaration may start with `<!` or `<?`: a DOCTYPE could
 * declare entities (billion laughs, external entities), and processing instructions have no meaning in
 * NETCONF or RESTCONF bodies.
 */
function refuseMarkupDeclarations(text: string): void {
  const re = /<[!?]/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const i = m.index;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) break; // the validator reports the unclosed comment
      re.lastIndex = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) break;
      re.lastIndex = end + 3;
    } else if (
      text.startsWith('<?xml', i) &&
      /^[ \t\r\n]*$/.test(text.slice(0, i)) &&
      /[\s?]/.test(text[i + 5] ?? '')
    ) {
      const end = text.indexOf('?>', i);
      if (end < 0) break;
      re.lastIndex = end + 2;
    } else if (text[i + 1] === '!') {
      throw new CodecError('XML_FORBIDDEN', 'DOCTYPE and markup declarations are not allowed', {
        errorTag: 'malformed-message',
      });
    } else {
      throw new CodecError('XML_FORBIDDEN', 'processing instructions are not allowed', {
        errorTag: 'malformed-message',
      });
    }
  }
}

/** Counts element nesting in one linear scan so that nothing recursive ever sees a deeper document. */
function checkDepth(text: string, maxDepth: number): void {
  let depth = 0;
  const len = text.length;
  let i = text.indexOf('<');
  outsideText(text, 0, i < 0 ? len : i);
  while (i >= 0 && i < len) {
    const c = text.charCodeAt(i + 1);
    if (c === 0x21 /* ! */) {
      const close = text.startsWith('<!--', i) ? text.indexOf('-->', i) : text.indexOf(']]>', i);
      if (close < 0) return;
      i = text.indexOf('<', close);
      continue;
    }
    if (c === 0x3f /* ? */) {
      const close = text.indexOf('?>', i);
      if (close < 0) return;
      i = text.indexOf('<', close);
      continue;
    }
    const gt = findTagEnd(text, i);
    if (gt < 0) return; // unterminated: the validator reports it
    if (c === 0x2f /* / */) depth--;
    else if (text.charCodeAt(gt - 1) !== 0x2f) {
      if (++depth > maxDepth) {
        throw new CodecError('LIMIT_EXCEEDED', `XML nesting deeper than the limit of ${maxDepth} elements`, {
          errorTag: 'malformed-message',
        });
      }
    }
    i = text.indexOf('<', gt);
    if (depth === 0) outsideText(text, gt + 1, i < 0 ? len : i);
  }
}

/** Only whitespace may stand between top-level elements (XML 1.0 section 2.1, "Misc"). */
function outsideText(text: string, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    const c = text.charCodeAt(j);
    if (c !== 0x20 && c !== 0x9 && c !== 0xa && c !== 0xd) {
      throw new CodecError('XML_MALFORMED', 'text outside the document element', {
        errorTag: 'malformed-message',
      });
    }
  }
}

/** The index of the `>` ending the tag that starts at `start`, skipping quoted attribute values. */
function findTagEnd(text: string, start: number): number {
  let quote = 0;
  for (let j = start + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return j;
  }
  return -1;
}

function convert(item: FxpNode, scope: NamespaceScope): XmlElement | string {
  let tag: string | undefined;
  for (const k in item) {
    if (k !== ':@') {
      tag = k;
      break;
    }
  }
  if (tag === '#text') return decodeEntities(item['#text'] as string);
  if (tag === '#cdata') {
    const parts = item['#cdata'] as FxpNode[];
    return parts.map((p) => p['#text'] as string).join('');
  }
  if (tag === undefined) return '';
  const rawAttrs = item[':@'] as Record<string, string> | undefined;
  let elementScope = scope;
  const attrs: XmlAttribute[] = [];
  if (rawAttrs !== undefined) {
    let declared: Map<string, string> | undefined;
    for (const name in rawAttrs) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        declared ??= new Map();
        const value = decodeEntities(rawAttrs[name] as string);
        const prefix = name === 'xmlns' ? '' : name.slice(6);
        if (prefix !== '' && value === '') {
          throw new CodecError('XML_MALFORMED', `prefix "${prefix}" may not be undeclared`, {
            errorTag: 'malformed-message',
          });
        }
        declared.set(prefix, value);
      }
    }
    if (declared !== undefined) elementScope = new NamespaceScope(scope, declared);
    for (const name in rawAttrs) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const colon = name.indexOf(':');
      const prefix = colon < 0 ? '' : name.slice(0, colon);
      const local = colon < 0 ? name : name.slice(colon + 1);
      // Unprefixed attributes are in no namespace, whatever the default namespace is.
      const ns = prefix === '' ? '' : resolvePrefix(elementScope, prefix, name);
      attrs.push({ ns, prefix, local, value: normalizeAttribute(decodeEntities(rawAttrs[name] as string)) });
    }
  }
  const colon = tag.indexOf(':');
  const prefix = colon < 0 ? '' : tag.slice(0, colon);
  const local = colon < 0 ? tag : tag.slice(colon + 1);
  const ns = prefix === '' ? (elementScope.lookup('') ?? '') : resolvePrefix(elementScope, prefix, tag);
  const rawChildren = item[tag] as FxpNode[];
  const children: (XmlElement | string)[] = [];
  for (const child of rawChildren) {
    const c = convert(child, elementScope);
    // Adjacent text and CDATA pieces are one text node to a reader.
    const last = children.length - 1;
    if (typeof c === 'string' && last >= 0 && typeof children[last] === 'string') children[last] += c;
    else children.push(c);
  }
  return { ns, prefix, local, attributes: attrs, children, scope: elementScope };
}

function resolvePrefix(scope: NamespaceScope, prefix: string, name: string): string {
  const ns = scope.lookup(prefix);
  if (ns === undefined) {
    throw new CodecError('XML_MALFORMED', `unbound namespace prefix "${prefix}" in "${name}"`, {
      errorTag: 'malformed-message',
    });
  }
  return ns;
}

/** XML 1.0 section 3.3.3: literal whitespace characters in attribute values read as spaces. */
function normalizeAttribute(value: string): string {
  return /[\t\r\n]/.test(value) ? value.replace(/[\t\r\n]/g, ' ') : value;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references (XML 1.0 section 4.1); refuses others. */
export function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) {
      throw new CodecError('XML_MALFORMED', 'bare "&" in text', { errorTag: 'malformed-message' });
    }
    const named = PREDEFINED[ref];
    if (named !== undefined) return named;
    let code = Number.NaN;
    if (/^#x[0-9a-fA-F]{1,6}$/.test(ref)) code = Number.parseInt(ref.slice(2), 16);
    else if (/^#[0-9]{1,7}$/.test(ref)) code = Number.parseInt(ref.slice(1), 10);
    else {
      throw new CodecError('XML_FORBIDDEN', `undeclared entity "&${ref};"`, {
        errorTag: 'malformed-message',
      });
    }
    if (!isXmlChar(code)) {
      throw new CodecError('XML_MALFORMED', `character reference "&${ref};" is not an XML character`, {
        errorTag: 'malformed-message',
      });
    }
    return String.fromCodePoint(code);
  });
}

function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}
