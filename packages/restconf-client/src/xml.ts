import { XMLParser } from 'fast-xml-parser';
import { RestconfClientError } from './errors.js';

/** Limits applied to every XML body the client decodes. */
export interface XmlLimits {
  /** Longest accepted document, in characters. Default 1 MiB. */
  readonly maxLength?: number;
  /** Deepest element nesting. Default 64. */
  readonly maxDepth?: number;
}

/** A parsed element: child elements by local name (arrays when repeated), `#text`, `@_attr`. */
export type XmlElement = { readonly [name: string]: unknown };

const parsers = new Map<number, XMLParser>();

/** One parser per depth limit: XMLParser keeps no state between documents. */
function parserFor(maxDepth: number): XMLParser {
  let parser = parsers.get(maxDepth);
  if (parser === undefined) {
    parser = new XMLParser({
      ignoreAttributes: false,
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      maxNestedTags: maxDepth,
    });
    parsers.set(maxDepth, parser);
  }
  return parser;
}

/**
 * Parses an XML document into plain objects, namespace prefixes removed, values kept as
 * text. Any failure, including a limit, becomes `INVALID_RESPONSE`.
 */
export function parseXml(text: string, limits: XmlLimits = {}): XmlElement {
  const maxLength = limits.maxLength ?? 1024 * 1024;
  if (text.length > maxLength) {
    throw new RestconfClientError(
      'INVALID_RESPONSE',
      `XML body of ${text.length} characters exceeds ${maxLength}`,
    );
  }
  const parser = parserFor(limits.maxDepth ?? 64);
  let result: unknown;
  try {
    result = parser.parse(text, true);
  } catch (error) {
    throw new RestconfClientError('INVALID_RESPONSE', `malformed XML body: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof result !== 'object' || result === null) {
    throw new RestconfClientError('INVALID_RESPONSE', 'XML body has no root element');
  }
  return result as XmlElement;
}

/** The children of `parent` named `name`, as an array whatever their count. */
export function xmlChildren(parent: unknown, name: string): unknown[] {
  if (typeof parent !== 'object' || parent === null) return [];
  const value = (parent as XmlElement)[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of an element that fast-xml-parser gave as a string or as `{ '#text': ... }`. */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && value !== null) {
    const text = (value as XmlElement)['#text'];
    if (text !== undefined) return xmlText(text);
    return Object.keys(value).every((k) => k.startsWith('@_')) ? '' : undefined;
  }
  return undefined;
}
