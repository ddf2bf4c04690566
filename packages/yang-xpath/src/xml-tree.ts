import { readXml, type XmlElement, XmlError } from '@yangkit/xml';
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

const DEFAULT_MAX_XML_LENGTH = 16 * 1024 * 1024;
const DEFAULT_MAX_XML_DEPTH = 256;

/** Options of {@link parseXmlForXPath}. */
export interface ParseXmlOptions {
  /** Longest accepted document (default 16 MiB). */
  readonly maxLength?: number;
  /** Deepest accepted element nesting (default 256). */
  readonly maxDepth?: number;
}

/**
 * Reads an XML document (or several top-level elements) into an {@link XmlNode} tree with
 * namespaces resolved, by `@yangkit/xml`: DOCTYPE, entity declarations and everything else that is
 * not well-formed is refused; whitespace-only text beside elements is dropped.
 * Throws {@link XmlInputError} for anything refused.
 */
export function parseXmlForXPath(xml: string, options: ParseXmlOptions = {}): XmlNode {
  let elements: readonly XmlElement[];
  try {
    elements = readXml(xml, {
      maxSize: options.maxLength ?? DEFAULT_MAX_XML_LENGTH,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_XML_DEPTH,
    });
  } catch (error) {
    if (XmlError.isInstance(error)) throw new XmlInputError(`XML refused: ${error.message}`);
    throw error;
  }
  const root = node('root', '', '');
  // Iterative, as the reader is: no document can exhaust the stack.
  const stack: [XmlElement, XmlNode][] = elements.map((e) => [
    e,
    appendChild(root, node('element', e.local, e.ns)),
  ]);
  while (stack.length > 0) {
    const [element, target] = stack.pop()!;
    for (const a of element.attributes) {
      const attribute = node('attribute', a.local, a.ns, a.value);
      attribute.parent = target;
      target.attributes.push(attribute);
    }
    if (!element.children.some((c) => typeof c !== 'string')) {
      // A leaf: its text becomes the value.
      target.value = element.children.join('');
      continue;
    }
    for (const c of element.children) {
      if (typeof c === 'string') appendChild(target, node('text', '', '', c));
      else stack.push([c, appendChild(target, node('element', c.local, c.ns))]);
    }
  }
  return root;
}
