import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { XmlInputError } from './errors.js';
import type { XPathNavigator, XPathNodeKind, YangNodeInfo } from './navigator.js';

/**
 * A plain in-memory XML tree. Leaf elements keep their text in `value`; elements with element
 * children keep text only as `text` children (mixed content).
 */
export interface XmlNode {
  readonly kind: XPathNodeKind;
  /** Local name ('' for the root and text). */
  readonly name: string;
  /** Namespace URI ('' for none). */
  readonly namespace: string;
  /** Text of a leaf element, an attribute or a text node. */
  value: string | undefined;
  readonly children: XmlNode[];
  readonly attributes: XmlNode[];
  parent: XmlNode | undefined;
}

function node(kind: XPathNodeKind, name: string, namespace: string, value?: string): XmlNode {
  return { kind, name, namespace, value, children: [], attributes: [], parent: undefined };
}

/** Builds an element; `content` is a leaf value or child elements. Sets the children's `parent`. */
export function xmlElement(
  name: string,
  namespace: string,
  content: string | readonly XmlNode[] = [],
  attributes: Readonly<Record<string, string>> = {},
): XmlNode {
  const element = node('element', name, namespace, typeof content === 'string' ? content : undefined);
  if (typeof content !== 'string') for (const child of content) appendChild(element, child);
  for (const [attr, value] of Object.entries(attributes)) {
    const a = node('attribute', attr, '', value);
    a.parent = element;
    element.attributes.push(a);
  }
  return element;
}

/** Builds a document root above the given top-level elements. */
export function xmlDocument(children: readonly XmlNode[]): XmlNode {
  const root = node('root', '', '');
  for (const child of children) appendChild(root, child);
  return root;
}

/** Appends `child` to `parent` and sets its parent pointer. */
export function appendChild(parent: XmlNode, child: XmlNode): XmlNode {
  child.parent = parent;
  parent.children.push(child);
  return child;
}

function textOf(n: XmlNode): string {
  if (n.kind !== 'element' && n.kind !== 'root') return n.value ?? '';
  if (n.children.length === 0) return n.value ?? '';
  let out = '';
  for (const child of n.children) out += textOf(child);
  return out;
}

/** Options of {@link createXmlNavigator}. */
export interface XmlNavigatorOptions {
  /** YANG type information for the YANG functions, e.g. looked up from a compiled schema. */
  readonly schemaInfo?: (node: XmlNode) => YangNodeInfo<XmlNode> | undefined;
}

/**
 * A navigator over {@link XmlNode} trees. A leaf element shows its value as one text child (created
 * on first access and kept, so node identity holds).
 */
export function createXmlNavigator(options: XmlNavigatorOptions = {}): XPathNavigator<XmlNode> {
  const leafText = new WeakMap<XmlNode, XmlNode[]>();
  const nav: XPathNavigator<XmlNode> = {
    root(n) {
      let r = n;
      while (r.parent !== undefined) r = r.parent;
      return r;
    },
    parent: (n) => n.parent,
    children(n) {
      if (n.children.length > 0 || n.kind !== 'element' || n.value === undefined || n.value === '') {
        return n.children;
      }
      let text = leafText.get(n);
      if (text === undefined) {
        const t = node('text', '', '', n.value);
        t.parent = n;
        leafText.set(n, (text = [t]));
      }
      return text;
    },
    attributes: (n) => n.attributes,
    kind: (n) => n.kind,
    localName: (n) => n.name,
    namespace: (n) => n.namespace,
    stringValue: textOf,
    childrenNamed(n, namespace, localName) {
      const out: XmlNode[] = [];
      for (const c of n.children) {
        if (c.name === localName && c.namespace === namespace && c.kind === 'element') out.push(c);
      }
      return out;
    },
  };
  if (options.schemaInfo) nav.schemaInfo = options.schemaInfo;
  return nav;
}

/** The navigator over {@link XmlNode} trees without YANG type information. */
export const xmlNavigator: XPathNavigator<XmlNode> = createXmlNavigator();

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const DEFAULT_MAX_XML_LENGTH = 16 * 1024 * 1024;
const DEFAULT_MAX_XML_DEPTH = 256;

type Ordered = Record<string, unknown>;

/** Options of {@link parseXmlForXPath}. */
export interface ParseXmlOptions {
  /** Longest accepted document (default 16 MiB). */
  readonly maxLength?: number;
  /** Deepest accepted element nesting (default 256). */
  readonly maxDepth?: number;
}

/**
 * Parses an XML document into an {@link XmlNode} tree with namespaces resolved from `xmlns`
 * declarations. Refuses DOCTYPE (and with it entity definitions); whitespace-only text between
 * elements is dropped. Throws {@link XmlInputError} for anything that is not well-formed.
 */
export function parseXmlForXPath(xml: string, options: ParseXmlOptions = {}): XmlNode {
  const maxLength = options.maxLength ?? DEFAULT_MAX_XML_LENGTH;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_XML_DEPTH;
  if (xml.length > maxLength) throw new XmlInputError(`XML document longer than ${maxLength} characters`);
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new XmlInputError('DOCTYPE and entity declarations are refused');
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new XmlInputError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
  });
  let items: Ordered[];
  try {
    items = parser.parse(xml) as Ordered[];
  } catch (error) {
    throw new XmlInputError(`not well-formed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const root = node('root', '', '');
  const scope = new Map<string, string>([['xml', XML_NAMESPACE]]);
  build(root, items, scope, 0, maxDepth);
  return root;
}

function resolve(qname: string, scope: ReadonlyMap<string, string>, isAttribute: boolean): [string, string] {
  const colon = qname.indexOf(':');
  if (colon < 0) return [isAttribute ? '' : (scope.get('') ?? ''), qname];
  const prefix = qname.slice(0, colon);
  const namespace = scope.get(prefix);
  if (namespace === undefined) throw new XmlInputError(`undeclared namespace prefix '${prefix}'`);
  return [namespace, qname.slice(colon + 1)];
}

function build(
  parent: XmlNode,
  items: Ordered[],
  outer: Map<string, string>,
  depth: number,
  maxDepth: number,
) {
  if (depth > maxDepth) throw new XmlInputError(`XML nests deeper than ${maxDepth}`);
  const texts: string[] = [];
  for (const item of items) {
    const key = Object.keys(item).find((k) => k !== ':@');
    if (key === undefined || key.startsWith('?')) continue;
    if (key === '#text') {
      const text = String(item[key]);
      texts.push(text);
      appendChild(parent, node('text', '', '', text));
      continue;
    }
    const attrs = (item[':@'] ?? {}) as Record<string, string>;
    let scope = outer;
    for (const [name, value] of Object.entries(attrs)) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) {
        if (scope === outer) scope = new Map(outer);
        scope.set(name === 'xmlns' ? '' : name.slice(6), value);
      }
    }
    const [namespace, local] = resolve(key, scope, false);
    const element = appendChild(parent, node('element', local, namespace));
    for (const [name, value] of Object.entries(attrs)) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const [ns, attrLocal] = resolve(name, scope, true);
      const attr = node('attribute', attrLocal, ns, value);
      attr.parent = element;
      element.attributes.push(attr);
    }
    build(element, item[key] as Ordered[], scope, depth + 1, maxDepth);
  }
  const hasElements = parent.children.some((c) => c.kind === 'element');
  if (parent.kind === 'element' && !hasElements) {
    // a leaf: its text becomes the value
    parent.children.length = 0;
    parent.value = texts.join('');
  } else if (hasElements) {
    // mixed content keeps text nodes, but whitespace-only runs between elements are layout
    const kept = parent.children.filter((c) => c.kind !== 'text' || (c.value ?? '').trim() !== '');
    parent.children.length = 0;
    parent.children.push(...kept);
  }
}
