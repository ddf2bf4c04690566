/** The kinds of node the engine distinguishes (XPath 1.0 section 5, without comments and PIs). */
export type XPathNodeKind = 'root' | 'element' | 'attribute' | 'text';

/**
 * How the engine walks a data tree. `N` is the caller's node type; the engine never creates nodes
 * and compares them by identity (`===`), so a navigator must return the same object for the same
 * node. Nodes must not be arrays (node-sets are arrays).
 */
export interface XPathNavigator<N> {
  /** The document root: the conceptual root above the top-level data nodes. */
  root(node: N): N;
  /** The parent (the element of an attribute); `undefined` for the root. */
  parent(node: N): N | undefined;
  /** Child nodes in document order: elements, and text nodes where the tree has them. */
  children(node: N): Iterable<N>;
  /** Attribute nodes (e.g. RFC 7952 metadata annotations); omit when the tree has none. */
  attributes?(node: N): Iterable<N>;
  /** The node's kind. */
  kind(node: N): XPathNodeKind;
  /** Local name ('' for the root and text nodes). */
  localName(node: N): string;
  /** Namespace URI ('' for none). */
  namespace(node: N): string;
  /** Leaf value; for interior nodes the concatenation of the descendants' text (XPath 1.0 section 5). */
  stringValue(node: N): string;
  /** Optional fast path: element children with the given namespace and local name, in document order. */
  childrenNamed?(node: N, namespace: string, localName: string): Iterable<N>;
  /**
   * Optional fast path for a key predicate (`list[key = 'v']`): the children named `element` whose child
   * `key` has the string value `value`, in document order, found through the tree's own key index.
   * Returns undefined when the tree has no index for that element and key; the engine then scans.
   */
  childrenByKey?(node: N, element: ElementName, key: ElementName, value: string): Iterable<N> | undefined;
  /** Document order: negative when `a` comes first. Without it the engine derives order from the tree. */
  compareOrder?(a: N, b: N): number;
  /** YANG type information for deref(), enum-value(), bit-is-set() and derived-from(). */
  schemaInfo?(node: N): YangNodeInfo<N> | undefined;
}

/** An element name: namespace URI and local name. */
export interface ElementName {
  readonly namespace: string;
  readonly localName: string;
}

/** A qualified identity name: the defining module's namespace and the identity's name. */
export interface QualifiedName {
  readonly namespace: string;
  readonly name: string;
}

/** A compiled expression as {@link YangNodeInfo.leafrefPath} needs it; see `compileXPath`. */
export interface LeafrefPath<N> {
  /** Evaluates the path with the leaf as context node and as `current()`. */
  evaluateNodes(contextNode: N, nav: XPathNavigator<N>, options: { current: N }): N[];
}

/**
 * What the YANG functions of RFC 7950 section 10 need to know about a data node's type. Every member
 * is optional; a function whose information is missing throws `MISSING_SCHEMA_INFO` instead of
 * guessing.
 */
export interface YangNodeInfo<N> {
  /** The built-in type the leaf's type resolves to: 'enumeration', 'bits', 'identityref', 'leafref', ... */
  readonly baseType?: string;
  /** enum-value(): the integer assigned to an enum name (RFC 7950 section 9.6.4.2). */
  enumValue?(name: string): number | undefined;
  /**
   * derived-from(): whether the identityref value `value` (as found in the data, e.g. `jbox:rock`,
   * its prefix resolved in the data's own context) is derived from `base` (`orSelf`: or equal to it).
   */
  isDerivedFrom?(value: string, base: QualifiedName, orSelf: boolean): boolean;
  /** deref(): the nodes a leafref or instance-identifier value refers to. Takes precedence. */
  deref?(node: N): N[];
  /** deref() for a leafref: its `path`, compiled; nodes whose value equals the leaf's value are the targets. */
  readonly leafrefPath?: LeafrefPath<N>;
  /** deref() for an instance-identifier: prefix to namespace map for the value's prefixes. */
  readonly instanceIdentifierPrefixes?: ReadonlyMap<string, string>;
}
