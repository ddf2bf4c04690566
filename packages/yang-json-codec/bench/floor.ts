/**
 * The floor of a conversion: the same documents read and written without any schema work, by
 * @yangkit/xml and JSON.parse/JSON.stringify, in the generic shapes any XML/JSON library gives.
 */
import { escapeXmlText, readXml, streamXml, type XmlElement, type XmlLimits } from '@yangkit/xml';

type Generic = string | { [name: string]: Generic | Generic[] };

function generic(e: XmlElement): Generic {
  const elements = e.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (elements.length === 0) return e.children.join('');
  const out: { [name: string]: Generic | Generic[] } = {};
  for (const c of elements) {
    const value = generic(c);
    const seen = out[c.local];
    if (seen === undefined) out[c.local] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[c.local] = [seen, value];
  }
  return out;
}

/** XML text to JSON text, element names as member names. */
export function xmlToJsonFloor(xml: string): string {
  return JSON.stringify(
    readXml(xml, { maxSize: xml.length, maxElements: Number.POSITIVE_INFINITY }).map(generic),
  );
}

function write(name: string, value: unknown, out: string[]): void {
  if (Array.isArray(value)) for (const v of value) write(name, v, out);
  else if (value !== null && typeof value === 'object') {
    out.push(`<${name}>`);
    for (const [k, v] of Object.entries(value)) write(k.slice(k.indexOf(':') + 1), v, out);
    out.push(`</${name}>`);
  } else out.push(`<${name}>${escapeXmlText(String(value))}</${name}>`);
}

/** JSON text to XML text, member names (without module) as element names. */
export function jsonToXmlFloor(json: string): string {
  return plainToXmlFloor(JSON.parse(json) as object);
}

/** The XML of parsed JSON (unindented, without namespaces), member names (without module) as element names. */
export function plainToXmlFloor(value: object): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) write(k.slice(k.indexOf(':') + 1), v, out);
  return out.join('');
}

/**
 * A node of a tree with no schema: an element or a member, its text or value, its children in an
 * array. A tree of these is what holding a document costs before any schema work: beside the codec's
 * decode, what is left to its type checks, key checks and lookups.
 */
export interface PlainNode {
  readonly name: string;
  readonly parent: PlainNode | undefined;
  value: string | undefined;
  children: PlainNode[] | undefined;
}

function plainNode(name: string, parent: PlainNode | undefined): PlainNode {
  return { name, parent, value: undefined, children: undefined };
}

function adopt(parent: PlainNode, child: PlainNode): void {
  (parent.children ??= []).push(child);
}

/** The XML read by `@yangkit/xml` as a stream into a tree of plain nodes, one for each element. */
export function xmlToPlainTree(text: Iterable<string>, limits: XmlLimits): PlainNode {
  const root = plainNode('', undefined);
  let open = root;
  streamXml(
    text,
    {
      open(element) {
        open = plainNode(element.local, open);
        return 'stream';
      },
      text(_element, value) {
        open.value = open.value === undefined ? value : open.value + value;
      },
      close() {
        const done = open;
        open = done.parent!;
        adopt(open, done);
      },
    },
    limits,
  );
  return root;
}

/** Parsed JSON as a tree of plain nodes: one for each member, and for each entry of an array member. */
export function jsonToPlainTree(value: object): PlainNode {
  const root = plainNode('', undefined);
  const add = (parent: PlainNode, name: string, v: unknown) => {
    const node = plainNode(name, parent);
    if (v !== null && typeof v === 'object') members(node, v);
    else node.value = String(v);
    adopt(parent, node);
  };
  const members = (parent: PlainNode, object: object) => {
    for (const name in object) {
      const v = (object as Record<string, unknown>)[name];
      if (Array.isArray(v)) for (const entry of v) add(parent, name, entry);
      else add(parent, name, v);
    }
  };
  members(root, value);
  return root;
}
