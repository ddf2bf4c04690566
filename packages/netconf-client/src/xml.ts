import { XMLParser } from 'fast-xml-parser';
import { NetconfError } from './errors.js';
import { parseSimpleXml } from './xml-simple.js';

/** An XML attribute with its namespace resolved (Namespaces in XML 1.0). */
export interface XmlAttribute {
  /** The qualified name as written, e.g. `nc:operation`. */
  readonly name: string;
  readonly local: string;
  /** Namespace URI; `undefined` for unprefixed attributes. */
  readonly namespace: string | undefined;
  /** The decoded value. */
  readonly value: string;
}

/** An element of a parsed NETCONF message. */
export interface XmlElement {
  readonly type: 'element';
  /** The qualified name as written, e.g. `nc:rpc-reply`. */
  readonly name: string;
  readonly local: string;
  /** Namespace URI, or `undefined` when the element is in no namespace. */
  readonly namespace: string | undefined;
  /** Attributes other than namespace declarations. */
  readonly attributes: readonly XmlAttribute[];
  /** Namespace declarations written on this element: prefix (`''` for the default) to URI. */
  readonly declarations: ReadonlyMap<string, string>;
  /** Every namespace in scope on this element, its own declarations included. */
  readonly scope: ReadonlyMap<string, string>;
  readonly children: readonly XmlNode[];
}

/** Character data; `cdata` marks a CDATA section. */
export interface XmlText {
  readonly type: 'text';
  readonly text: string;
  readonly cdata?: boolean;
}

/** A child of an element. */
export type XmlNode = XmlElement | XmlText;

/** Limits of {@link parseXml}. */
export interface XmlLimits {
  /** Deepest element nesting accepted (default 256). */
  maxDepth?: number;
  /** Longest document accepted, in UTF-16 code units (default 64 Mi). */
  maxLength?: number;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** Default of {@link XmlLimits.maxDepth}. */
export const DEFAULT_MAX_DEPTH = 256;
/** Default of {@link XmlLimits.maxLength}. */
export const DEFAULT_MAX_LENGTH = 64 * 1024 * 1024;
// fast-xml-parser refuses names such as `constructor`, which are legal YANG identifiers; every name
// passes through with this marker (no XML name can start with `$`), stripped again below.
const NAME_MARK = /^\$+/;

function xmlError(message: string, cause?: unknown): NetconfError {
  return new NetconfError('XML_PARSE', message, cause === undefined ? undefined : { cause });
}

/**
 * Linear scan before parsing: refuses DOCTYPE, entity declarations and processing instructions
 * (RFC 6241 messages never carry them, and they are the door to entity expansion attacks), and
 * bounds element depth so nothing downstream can recurse too deep.
 */
function preScan(text: string, maxDepth: number): void {
  let depth = 0;
  let i = text.indexOf('<');
  const first = i;
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end === -1) throw xmlError('unterminated CDATA section');
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) throw xmlError('unterminated comment');
      i = text.indexOf('<', end + 3);
      continue;
    }
    if (next === 0x21 /* ! */) {
      throw new NetconfError(
        'XML_FORBIDDEN',
        'DOCTYPE and markup declarations are not allowed in NETCONF messages',
      );
    }
    if (next === 0x3f /* ? */) {
      const isDeclaration =
        i === first && /^<\?xml[ \t\r\n]/.test(text.slice(i, i + 6)) && text.slice(0, i).trim() === '';
      if (!isDeclaration) throw new NetconfError('XML_FORBIDDEN', 'processing instructions are not allowed');
      const end = text.indexOf('?>', i + 2);
      if (end === -1) throw xmlError('unterminated XML declaration');
      i = text.indexOf('<', end + 2);
      continue;
    }
    // Find the end of the tag, skipping quoted attribute values.
    let j = i + 1;
    let quote = 0;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e /* > */) break;
    }
    if (j >= text.length) throw xmlError('unterminated tag');
    if (next === 0x2f /* / */) depth--;
    else if (text.charCodeAt(j - 1) !== 0x2f) {
      depth++;
      if (depth > maxDepth) throw xmlError(`element nesting exceeds ${maxDepth}`);
    }
    i = text.indexOf('<', j + 1);
  }
}

const ENTITY = /&([^&;]{0,12})(;?)/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; anything else is an error. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY, (_match, name: string, semi: string) => {
    if (semi !== ';') throw xmlError('bare & or unterminated entity reference');
    const predefined = Object.hasOwn(PREDEFINED, name) ? PREDEFINED[name] : undefined;
    if (predefined !== undefined) return predefined;
    const code = /^#x[0-9a-fA-F]{1,6}$/.test(name)
      ? Number.parseInt(name.slice(2), 16)
      : /^#[0-9]{1,7}$/.test(name)
        ? Number.parseInt(name.slice(1), 10)
        : -1;
    if (code < 0) throw xmlError(`undefined entity &${name};`);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      throw xmlError(`invalid character reference &${name};`);
    }
    return String.fromCodePoint(code);
  });
}

type FxpNode = Record<string, unknown>;

function splitName(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  if (colon === -1) return ['', qname];
  const prefix = qname.slice(0, colon);
  const local = qname.slice(colon + 1);
  if (prefix === '' || local === '' || local.includes(':')) throw xmlError(`invalid qualified name ${qname}`);
  return [prefix, local];
}

function convert(node: FxpNode, parentScope: ReadonlyMap<string, string>): XmlElement {
  const key = Object.keys(node).find((k) => k !== ':@');
  if (key === undefined) throw xmlError('empty element node');
  const name = key.replace(NAME_MARK, '');
  const rawAttributes = (node[':@'] ?? {}) as Record<string, string>;
  const declarations = new Map<string, string>();
  const plain: Array<[string, string]> = [];
  for (const [rawName, rawValue] of Object.entries(rawAttributes)) {
    const attrName = rawName.replace(NAME_MARK, '');
    const value = decodeEntities(String(rawValue));
    if (attrName === 'xmlns') declarations.set('', value);
    else if (attrName.startsWith('xmlns:')) {
      const prefix = attrName.slice(6);
      if (value === '') throw xmlError(`empty namespace for prefix ${prefix}`);
      declarations.set(prefix, value);
    } else plain.push([attrName, value]);
  }
  let scope = parentScope;
  if (declarations.size > 0) {
    const merged = new Map(parentScope);
    for (const [prefix, uri] of declarations) merged.set(prefix, uri);
    scope = merged;
  }
  const resolve = (prefix: string, forAttribute: boolean): string | undefined => {
    if (prefix === 'xml') return XML_NS;
    if (prefix === '') return forAttribute ? undefined : scope.get('') || undefined;
    const uri = scope.get(prefix);
    if (uri === undefined) throw xmlError(`unbound namespace prefix ${prefix}`);
    return uri;
  };
  const [prefix, local] = splitName(name);
  const attributes = plain.map(([attrName, value]): XmlAttribute => {
    const [attrPrefix, attrLocal] = splitName(attrName);
    return { name: attrName, local: attrLocal, namespace: resolve(attrPrefix, true), value };
  });
  const children: XmlNode[] = [];
  for (const child of (node[key] ?? []) as FxpNode[]) {
    if ('#text' in child) children.push({ type: 'text', text: decodeEntities(String(child['#text'])) });
    else if ('#cdata' in child) {
      const parts = child['#cdata'] as Array<{ '#text'?: unknown }>;
      children.push({ type: 'text', text: parts.map((p) => String(p['#text'] ?? '')).join(''), cdata: true });
    } else children.push(convert(child, scope));
  }
  return {
    type: 'element',
    name,
    local,
    namespace: resolve(prefix, false),
    attributes,
    declarations,
    scope,
    children,
  };
}

/**
 * Parses one XML document (a NETCONF message) into an element tree with namespaces resolved.
 * Throws `XML_FORBIDDEN` for DOCTYPE/entities/processing instructions and `XML_PARSE` for anything
 * not well-formed, an undefined entity, an unbound prefix or a limit exceeded.
 */
export function parseXml(text: string, limits: XmlLimits = {}): XmlElement {
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxLength = limits.maxLength ?? DEFAULT_MAX_LENGTH;
  if (text.length > maxLength) throw xmlError(`document exceeds ${maxLength} characters`);
  return parseSimpleXml(text, maxDepth) ?? parseXmlFully(text, maxDepth);
}

// One parser per depth limit: building fast-xml-parser's options costs more than parsing a small
// message. Sessions use one or two limits; the cap only guards against callers varying it freely.
const parsers = new Map<number, XMLParser>();

function parserFor(maxDepth: number): XMLParser {
  let parser = parsers.get(maxDepth);
  if (parser === undefined) {
    if (parsers.size >= 8) parsers.clear();
    parser = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      processEntities: false,
      cdataPropName: '#cdata',
      ignoreDeclaration: true,
      maxNestedTags: maxDepth + 1,
      transformTagName: (tag) => `$${tag}`,
      transformAttributeName: (attr) => `$${attr}`,
    });
    parsers.set(maxDepth, parser);
  }
  return parser;
}

/**
 * The full parse: every construct XML 1.0 allows in a NETCONF message (comments, CDATA, entity and
 * character references, non-ASCII names, the XML declaration), with the checks above.
 * Exported for tests that hold the plain-subset reader to the same results.
 */
export function parseXmlFully(text: string, maxDepth: number = DEFAULT_MAX_DEPTH): XmlElement {
  preScan(text, maxDepth);
  let nodes: FxpNode[];
  try {
    nodes = parserFor(maxDepth).parse(text, true) as FxpNode[];
  } catch (error) {
    throw xmlError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  const elements = nodes.filter((n) => !('#text' in n) || String(n['#text']).trim() !== '');
  if (elements.length !== 1 || '#text' in elements[0]! || '#cdata' in elements[0]!) {
    throw xmlError('a document must have exactly one root element');
  }
  return convert(elements[0]!, new Map());
}

const TEXT_SPECIAL = /[&<>]/;
const ATTRIBUTE_SPECIAL = /[&<>"\r\n\t]/;

/** Escapes character data for element content. */
export function escapeXmlText(value: string): string {
  // Testing first is much cheaper than a replace with a callback that finds nothing.
  if (!TEXT_SPECIAL.test(value)) return value;
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Escapes an attribute value for a double-quoted attribute. */
export function escapeXmlAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIAL.test(value)) return value;
  return value.replace(/[&<>"\r\n\t]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function writeElement(el: XmlElement, extra: ReadonlyMap<string, string> | undefined, out: string[]): void {
  out.push('<', el.name);
  let declared = el.declarations;
  if (extra !== undefined && extra.size > 0) {
    const merged = new Map(el.declarations);
    for (const [prefix, uri] of extra) if (!merged.has(prefix)) merged.set(prefix, uri);
    declared = merged;
  }
  for (const [prefix, uri] of declared) {
    out.push(prefix === '' ? ' xmlns="' : ` xmlns:${prefix}="`, escapeXmlAttribute(uri), '"');
  }
  for (const attr of el.attributes) out.push(' ', attr.name, '="', escapeXmlAttribute(attr.value), '"');
  if (el.children.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const child of el.children) {
    if (child.type === 'text') out.push(escapeXmlText(child.text));
    else writeElement(child, undefined, out);
  }
  out.push('</', el.name, '>');
}

/**
 * Serializes an element, declaring on it every namespace in scope (so it stands alone when cut
 * out of its document).
 */
export function outerXml(el: XmlElement): string {
  const out: string[] = [];
  writeElement(el, inheritedScope(el.scope), out);
  return out.join('');
}

function inheritedScope(scope: ReadonlyMap<string, string>): Map<string, string> {
  const inherited = new Map<string, string>();
  // An undeclared default (`xmlns=""`) is carried too, so the content keeps meaning "no namespace".
  for (const [prefix, uri] of scope) if (prefix !== 'xml' && uri !== XMLNS_NS) inherited.set(prefix, uri);
  return inherited;
}

/**
 * The content of an element as XML text, with the namespace declarations in scope on `el`
 * pushed down onto each child element: a prefix declared on `<rpc-reply>` and used inside
 * `<data>` stays bound once the content is cut out.
 */
export function innerXml(el: XmlElement): string {
  const out: string[] = [];
  const inherited = inheritedScope(el.scope);
  for (const child of el.children) {
    if (child.type === 'text') out.push(escapeXmlText(child.text));
    else writeElement(child, inherited, out);
  }
  return out.join('');
}

/** The concatenated character data directly inside `el`. */
export function textOf(el: XmlElement): string {
  let text = '';
  for (const child of el.children) if (child.type === 'text') text += child.text;
  return text;
}

/** Child elements of `el`, optionally only those with the given local name (and namespace). */
export function childElements(el: XmlElement, local?: string, namespace?: string): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (local !== undefined && child.local !== local) continue;
    if (namespace !== undefined && child.namespace !== namespace) continue;
    result.push(child);
  }
  return result;
}

/** The first child element with the given local name (and namespace), if any. */
export function childElement(el: XmlElement, local: string, namespace?: string): XmlElement | undefined {
  return childElements(el, local, namespace)[0];
}
