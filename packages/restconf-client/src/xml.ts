import { childElements, readXmlDocument, textOf, type XmlElement, XmlError } from '@yangkit/xml';
import { RestconfClientError } from './errors.js';

/** Limits applied to every XML body the client decodes. */
export interface XmlLimits {
  /** Longest accepted document, in characters. Default 1 MiB. */
  readonly maxLength?: number;
  /** Deepest element nesting. Default 64. */
  readonly maxDepth?: number;
}

/**
 * Reads an XML body (one document) with `@yangkit/xml`. Any refusal, a limit included, becomes
 * `INVALID_RESPONSE`, the reader's `XmlError` (with line and column) as its cause.
 */
export function readBodyXml(text: string, limits: XmlLimits = {}): XmlElement {
  try {
    return readXmlDocument(text, {
      maxSize: limits.maxLength ?? 1024 * 1024,
      maxDepth: limits.maxDepth ?? 64,
    });
  } catch (error) {
    if (!XmlError.isInstance(error)) throw error;
    throw new RestconfClientError('INVALID_RESPONSE', `malformed XML body: ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * The content of an element as a plain record, the shape its JSON form would have without module
 * names: each child element by local name (an array when repeated), a child without child
 * elements as its trimmed text.
 */
export function xmlRecord(element: XmlElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const child of childElements(element)) {
    const value = childElements(child).length === 0 ? textOf(child).trim() : xmlRecord(child);
    const seen = out[child.local];
    if (seen === undefined) out[child.local] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[child.local] = [seen, value];
  }
  return out;
}
