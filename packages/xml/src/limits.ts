/**
 * Bounds on what one read may cost, checked as the text is read. Every limit has a default, so
 * reading is bounded even when the caller sets none; raise a limit for documents known to be big.
 */
export interface XmlLimits {
  /** Longest accepted text, in UTF-16 code units (default 64 Mi). */
  readonly maxSize?: number;
  /** Deepest accepted element nesting, a top-level element being at depth 1 (default 256). */
  readonly maxDepth?: number;
  /** Most attributes on one element, namespace declarations included (default 256). */
  readonly maxAttributes?: number;
  /** Most elements in the whole text (default 2 Mi). */
  readonly maxElements?: number;
  /** Longest character data of one element (its text and CDATA joined) or attribute value (default 16 Mi). */
  readonly maxTextLength?: number;
}

/** The limits applied when {@link XmlLimits} leaves one out. */
export const DEFAULT_XML_LIMITS: Readonly<Required<XmlLimits>> = Object.freeze({
  maxSize: 64 * 1024 * 1024,
  maxDepth: 256,
  maxAttributes: 256,
  maxElements: 2 * 1024 * 1024,
  maxTextLength: 16 * 1024 * 1024,
});
