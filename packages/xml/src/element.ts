import type { NamespaceScope } from './namespace-scope.js';

/**
 * An attribute with its namespace resolved. Namespace declarations (`xmlns`, `xmlns:p`) are not
 * attributes here: they are the element's `declarations`.
 */
export interface XmlAttribute {
  /** The qualified name as written, e.g. `nc:operation`. */
  readonly name: string;
  /** The prefix (`''` when there is none). */
  readonly prefix: string;
  readonly local: string;
  /** Namespace URI; `''` for an unprefixed attribute, which is in no namespace whatever the default is. */
  readonly ns: string;
  /** The value, references decoded and whitespace normalized (XML 1.0 section 3.3.3). */
  readonly value: string;
}

/** A child of an element: an element, or character data (text, references and CDATA sections joined). */
export type XmlChild = XmlElement | string;

/** An element with its namespace resolved from the declarations in scope. */
export interface XmlElement {
  /** The qualified name as written, e.g. `nc:rpc-reply`. */
  readonly name: string;
  /** The prefix (`''` when there is none). */
  readonly prefix: string;
  readonly local: string;
  /** Namespace URI; `''` when the element is in no namespace. */
  readonly ns: string;
  /** The attributes other than namespace declarations, in document order. */
  readonly attributes: readonly XmlAttribute[];
  /** Namespace declarations written on this element: prefix (`''` for the default) to URI. */
  readonly declarations: ReadonlyMap<string, string>;
  /** Every namespace declaration in scope on this element, its own included. */
  readonly scope: NamespaceScope;
  /**
   * Child elements and text in document order. The character data between two tags is one string
   * (text, references and CDATA sections joined; comments left out). When it is only whitespace and
   * stands beside a child element, it is layout and left out; otherwise it is kept as written (so
   * the whitespace value of an element without child elements is kept).
   */
  readonly children: readonly XmlChild[];
}
