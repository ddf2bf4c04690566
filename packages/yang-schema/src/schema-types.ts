import type { SourceLocation } from './errors';
import type { YangType } from './types/yang-type';

/** The kinds of compiled schema nodes (RFC 7950 section 3 "schema node" plus choice/case/input/output). */
export type SchemaNodeKind =
  | 'container'
  | 'list'
  | 'leaf'
  | 'leaf-list'
  | 'choice'
  | 'case'
  | 'anydata'
  | 'anyxml'
  | 'rpc'
  | 'action'
  | 'notification'
  | 'input'
  | 'output';

/** `status` of a definition (RFC 7950 7.21.2). */
export type Status = 'current' | 'deprecated' | 'obsolete';

/** An XPath expression of a `must` or `when`, with the prefixes in scope where it was written. */
export interface XPathExpression {
  /** The expression text as written. */
  readonly expression: string;
  /** Prefix -> module NAME map of the module (or submodule) where the statement was written. */
  readonly prefixes: ReadonlyMap<string, string>;
  /** Name of the module the statement was written in (unprefixed names default to it in YANG 1.0). */
  readonly module: string;
}

/** A `must` constraint (RFC 7950 7.5.3). */
export interface MustConstraint extends XPathExpression {
  readonly errorMessage?: string;
  readonly errorAppTag?: string;
  readonly description?: string;
}

/** A `when` condition (RFC 7950 7.21.5). */
export interface WhenCondition extends XPathExpression {
  /**
   * Where the condition was written: on the node itself, on a `uses` that created it, or on an `augment`
   * that added it.
   */
  readonly origin: 'node' | 'uses' | 'augment';
  /**
   * The XPath context node: the node itself for `origin: 'node'`, the parent of the `uses`, or the augment
   * target. Undefined when that is the data tree root (a top-level `uses`).
   */
  readonly contextNode: SchemaNode | undefined;
}

/** An extension statement instance kept on a node (e.g. `nacm:default-deny-write`). */
export interface ExtensionInstance {
  /** Name of the module that defines the extension. */
  readonly module: string;
  readonly name: string;
  readonly argument?: string;
}

/** One compiled schema node. Immutable (frozen) once compilation finishes. */
export interface SchemaNode {
  readonly kind: SchemaNodeKind;
  readonly name: string;
  /** Name of the module whose namespace the node is in (the augmenting module for augmented nodes). */
  readonly module: string;
  readonly namespace: string;
  readonly prefix: string;
  /** Parent schema node (choice, case, input and output included); undefined at the top level. */
  readonly parent: SchemaNode | undefined;
  /** Child schema nodes in schema order (choice, case, input, output included). */
  readonly children: readonly SchemaNode[];
  /** Child data nodes as instance data sees them: choice and case are transparent. */
  dataChildren(): readonly SchemaNode[];
  /** The child data node (choice/case transparent) with this module name and local name. */
  dataChild(module: string, name: string): SchemaNode | undefined;
  /** The direct schema child (choice/case/input/output not skipped) with this module name and name. */
  child(module: string, name: string): SchemaNode | undefined;
  /** Effective `config` (RFC 7950 7.21.1), inherited; false inside rpc, action and notification. */
  readonly config: boolean;
  /** True for nodes inside (or being) an rpc, action or notification. */
  readonly isOperation: boolean;
  /** `mandatory true` of a leaf, choice, anydata or anyxml. */
  readonly mandatory: boolean;
  /** `presence` argument of a presence container. */
  readonly presence?: string;
  /** List key leaf names in order (empty for keyless lists and other kinds). */
  readonly keys: readonly string[];
  /** The key leaf nodes, in key order. */
  readonly keyNodes: readonly SchemaNode[];
  /** True for a leaf that is a key of its parent list. */
  readonly isKey: boolean;
  readonly minElements: number;
  /** `max-elements`; `Infinity` when unbounded. */
  readonly maxElements: number;
  readonly orderedBy: 'system' | 'user';
  /** `unique` constraints: each an array of descendant schema node identifiers as written. */
  readonly unique: readonly (readonly string[])[];
  /** Default of a leaf (own or from its typedef) or the default case name of a choice. */
  readonly default?: string;
  /** Defaults of a leaf-list (own or from its typedef); `[default]` for a leaf with a default. */
  readonly defaults: readonly string[];
  /** Effective type of a leaf or leaf-list. */
  readonly type?: YangType;
  readonly units?: string;
  readonly must: readonly MustConstraint[];
  /** `when` conditions: the node's own and those of the `uses`/`augment` that created it. */
  readonly when: readonly WhenCondition[];
  readonly status: Status;
  /** The node's own `if-feature` expressions as written (all true in this compilation). */
  readonly ifFeatures: readonly string[];
  readonly extensions: readonly ExtensionInstance[];
  readonly description?: string;
  readonly reference?: string;
  /** RFC 7950 6.5 absolute schema node identifier with module prefixes, e.g. `/if:interfaces/if:interface`. */
  readonly schemaPath: string;
  /**
   * RFC 7951-style path with every schema node as a step (choice, case, input, output included), module
   * NAME on the first step and wherever the module changes, e.g. `/ietf-interfaces:interfaces/interface`.
   */
  readonly dataPath: string;
  /**
   * The grouping (`module:name`, the module that defines it) whose `uses` put this node under its
   * parent; the outermost one when groupings use groupings. Undefined for a node written in place
   * or added by an augment.
   */
  readonly grouping?: string;
  /** Where the defining statement was written. */
  readonly location?: SourceLocation;
}

/** A submodule of a compiled module. */
export interface SchemaSubmodule {
  readonly name: string;
  readonly revision?: string;
  readonly source: string;
  readonly file?: string;
}

/** One module of a compiled set. */
export interface SchemaModule {
  readonly name: string;
  readonly revision?: string;
  readonly namespace: string;
  readonly prefix: string;
  readonly yangVersion: '1' | '1.1';
  /** True when the module's data nodes, rpcs, notifications, augments and deviations are in the tree. */
  readonly implemented: boolean;
  /** Every feature the module defines. */
  readonly features: readonly string[];
  /** The features enabled in this compilation. */
  readonly enabledFeatures: readonly string[];
  readonly submodules: readonly SchemaSubmodule[];
  /** Names of modules whose deviations change this module. */
  readonly deviatedBy: readonly string[];
  /** Modules this one imports, with the revision that was picked. */
  readonly imports: readonly { readonly module: string; readonly revision?: string }[];
  /** Top-level schema nodes of this module (data nodes, rpcs, notifications), augments not included. */
  readonly children: readonly SchemaNode[];
  /** The module text, as `<get-schema>` serves it. */
  readonly source: string;
  readonly file?: string;
}

/** A compiled identity (RFC 7950 7.18). */
export interface SchemaIdentity {
  readonly module: string;
  readonly name: string;
  /** `module:name`. */
  readonly qualifiedName: string;
  /** Qualified names of the direct bases. */
  readonly bases: readonly string[];
  readonly status: Status;
  readonly description?: string;
}

/** An `rc:yang-data` (RFC 8040 8) or `sx:structure` (RFC 8791) template. */
export interface YangDataStructure {
  readonly module: string;
  readonly name: string;
  /** The template's top-level schema nodes (their `parent` is undefined). */
  readonly children: readonly SchemaNode[];
  /** Which extension defined it. */
  readonly extension: 'yang-data' | 'structure';
}

/** An `md:annotation` (RFC 7952). */
export interface SchemaAnnotation {
  readonly module: string;
  readonly name: string;
  readonly type: YangType;
  readonly units?: string;
  readonly description?: string;
}
