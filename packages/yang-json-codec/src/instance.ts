import type { SchemaNode, SchemaTree, YangType } from '@yangkit/yang-schema';
import { hasKeyIndex, indexGroupSteps } from './child-index';
import {
  addChild,
  type ChildPairs,
  CompactChildMap,
  firstChild,
  groupAt,
  instanceOf,
  pairsOf,
  type Slot,
  sizeOf,
} from './child-map';
import { nodeInfo } from './schema-view';
import { finishSteps, ITEMS_PER_STEP, type Steps } from './steps';

/**
 * An RFC 7952 metadata annotation on one instance: `module:name` names the `md:annotation` (for example
 * `ietf-netconf-with-defaults:default`, `ietf-origin:origin`); `value` is its canonical text.
 */
export interface Annotation {
  readonly module: string;
  readonly name: string;
  readonly value: string;
}

/**
 * Content of anydata/anyxml (RFC 7950 7.10, RFC 7951 section 5.5): a schema-less element tree. `module` is
 * the module whose namespace the element is in (undefined for a namespace no module of the schema has;
 * `ns` keeps the URI). Leaf-like elements have `text`; `json` remembers the JSON kind of a scalar read from
 * JSON so that numbers and booleans survive a JSON round trip.
 */
export interface AnyElement {
  readonly name: string;
  readonly module: string | undefined;
  readonly ns: string;
  readonly children: AnyElement[] | undefined;
  readonly text: string | undefined;
  readonly json?: 'number' | 'boolean' | 'null' | 'empty';
  readonly annotations?: Annotation[];
}

/** Children of an inner node or of a document: instances grouped per schema node, entries in order. */
export type ChildMap = Map<SchemaNode, DataNode[]>;

/**
 * One instance of a data node (libyang `lyd_node`): a container, one list entry, a leaf, one leaf-list
 * entry, anydata/anyxml, or an operation's input/output or a notification. Every node points to its schema.
 */
export interface DataNode {
  readonly schema: SchemaNode;
  parent: DataNode | undefined;
  /** Leaf and leaf-list value in canonical form; identityref as `module:identity`, instance-identifier in
   *  RFC 7951 form. */
  value: string | undefined;
  /** The union member type the value matched, for unions (its base decides the JSON encoding). */
  member: YangType | undefined;
  /** anydata/anyxml content. */
  any: AnyElement[] | undefined;
  /** Child instances of containers, list entries, input/output and notifications. */
  children: ChildMap | undefined;
  annotations: Annotation[] | undefined;
}

/** What a document holds (see the package README for each kind's XML and JSON shape). */
export type DocumentKind =
  | 'data'
  | 'config'
  | 'resource'
  | 'rpc-input'
  | 'rpc-output'
  | 'action-input'
  | 'action-output'
  | 'notification'
  | 'yang-data';

/** A decoded document: its top-level instances plus what the document kind adds. */
export interface InstanceTree {
  readonly schema: SchemaTree;
  readonly kind: DocumentKind;
  /** For 'resource': the schema parent of the top-level instances (undefined = datastore top level). */
  readonly parent: SchemaNode | undefined;
  /** For rpc/action kinds: the rpc or action; for notifications: the notification schema node. */
  readonly operation: SchemaNode | undefined;
  /** Notification `eventTime` (RFC 5277 / RFC 8040 section 6.4), canonical date-and-time text. */
  eventTime: string | undefined;
  /** Top-level instances (for rpc/action kinds: the input or output node; for notifications: the event). */
  readonly children: ChildMap;
  /** Annotations on the document itself (JSON `@` of `ietf-restconf:data`). */
  annotations: Annotation[] | undefined;
}

/** Anything that holds children: a document or an inner instance. */
export interface ChildHolder {
  readonly children: ChildMap | undefined;
}

/**
 * The objects behind the nodes the codec makes: a {@link LeafInstance} for a leaf, a leaf-list entry,
 * anydata and anyxml, an {@link InnerInstance} for the others. The fields most instances never set
 * (`member`, of a union's value; `any`, anydata content; `annotations`; and the `children` of a leaf
 * or the `value` of an inner node) stay on the prototype, undefined, until a node sets its own: a
 * node holds three fields rather than seven, which is 32 bytes less per node where V8 keeps 8-byte
 * fields (Node.js builds without pointer compression), ~45 MB for a document of 1.4 million nodes.
 * Assigning any field works as on an object literal.
 */
const RARE_FIELDS = ['member', 'any', 'annotations'] as const;

/** See {@link RARE_FIELDS}. */
class LeafInstance {
  declare member: YangType | undefined;
  declare any: AnyElement[] | undefined;
  declare annotations: Annotation[] | undefined;
  declare children: ChildMap | undefined;
  constructor(
    readonly schema: SchemaNode,
    public parent: DataNode | undefined,
    public value: string | undefined,
  ) {}
}

/**
 * A container, a list entry, an operation's input or output, a notification (see {@link RARE_FIELDS}).
 * It is its own children map: `node.children` starts as the node itself, which holds the pairs of a
 * {@link CompactChildMap} in a field of its own. A map apart was one more object per inner node, of
 * 32 bytes, for the young generation to copy while a document is decoded; the field that points to
 * the node costs 8: 12 MB less for a tree of 100,000 interfaces (500,000 inner nodes). `children` is
 * a field as on any node: a map assigned to it (a copy sharing its original's children, say) is read
 * from then on, the node's own pairs left aside.
 */
class InnerInstance extends CompactChildMap implements DataNode {
  declare value: string | undefined;
  declare member: YangType | undefined;
  declare any: AnyElement[] | undefined;
  declare annotations: Annotation[] | undefined;
  children: ChildMap | undefined;

  constructor(
    readonly schema: SchemaNode,
    public parent: DataNode | undefined,
  ) {
    super();
    this.children = this;
  }
}

for (const [prototype, fields] of [
  [LeafInstance.prototype, [...RARE_FIELDS, 'children']],
  [InnerInstance.prototype, [...RARE_FIELDS, 'value']],
] as const) {
  for (const field of fields) Object.defineProperty(prototype, field, { value: undefined, writable: true });
}

/**
 * A node with the fields of `node` other than its children, annotations taken as `annotations`: an
 * object of the codec's two shapes, where a spread of `node` would give V8 a new map for each copy.
 * The copy of an inner node holds no children yet: its `children` is its own map, empty.
 */
export function copyOf(
  node: DataNode,
  parent: DataNode | undefined,
  annotations: Annotation[] | undefined,
): DataNode {
  const copy: DataNode =
    node.children === undefined
      ? new LeafInstance(node.schema, parent, node.value)
      : new InnerInstance(node.schema, parent);
  if (node.children !== undefined && node.value !== undefined) copy.value = node.value;
  if (node.member !== undefined) copy.member = node.member;
  if (node.any !== undefined) copy.any = node.any;
  if (annotations !== undefined) copy.annotations = annotations;
  return copy;
}

/**
 * A copy of a leaf (or any node, sharing its children) with `annotations` in place of its own: what
 * a view writes for a node it annotates without changing the tree.
 */
export function withAnnotations(node: DataNode, annotations: Annotation[]): DataNode {
  const copy = copyOf(node, node.parent, annotations);
  if (node.children !== undefined) copy.children = node.children;
  return copy;
}

/** Creates an instance node (children map only for inner nodes). */
export function createNode(schema: SchemaNode, parent: DataNode | undefined): DataNode {
  const inner =
    schema.kind !== 'leaf' &&
    schema.kind !== 'leaf-list' &&
    schema.kind !== 'anydata' &&
    schema.kind !== 'anyxml';
  return inner ? new InnerInstance(schema, parent) : new LeafInstance(schema, parent, undefined);
}

/**
 * A deep copy of `node` and everything below it, with `parent` as its parent. anydata/anyxml element
 * content is shared: the tree treats it as a value and replaces it whole.
 */
export function cloneNode(node: DataNode, parent: DataNode | undefined): DataNode {
  return finishSteps(cloneNodeSteps(node, parent));
}

/**
 * {@link cloneNode} in steps (see {@link Steps}), a step every few dozen nodes copied, so that a server
 * can copy a big subtree in slices. `node` must not change until it ends.
 */
export function* cloneNodeSteps(node: DataNode, parent: DataNode | undefined): Steps<DataNode> {
  const work = copyWork();
  const copy = copied(node, parent, work.pending);
  yield* copyPending(work);
  return copy;
}

/** The entries of a big group being copied a few dozen at a time (see {@link copyPending}). */
interface GroupCopy {
  readonly nodes: readonly DataNode[];
  readonly group: DataNode[];
  readonly parent: DataNode | undefined;
  /** How many entries are copied. */
  at: number;
}

/** What a copy in steps has still to do (see {@link copyPending}). */
interface CopyWork {
  /** Copies whose children are still to copy: source and copy in turn. */
  readonly pending: DataNode[];
  /** Groups of more entries than a step copies, being copied. */
  readonly groups: GroupCopy[];
  /** With it, the copies of groups that have a key index (see `hasKeyIndex`) go on it. */
  readonly indexed: DataNode[][] | undefined;
}

function copyWork(indexed?: DataNode[][]): CopyWork {
  return { pending: [], groups: [], indexed };
}

/** A copy of `node` without its children; `node` and its copy go on `pending` when it has some. */
function copied(node: DataNode, parent: DataNode | undefined, pending: DataNode[]): DataNode {
  const copy = copyOf(node, parent, node.annotations === undefined ? undefined : [...node.annotations]);
  if (node.children !== undefined) pending.push(node, copy);
  return copy;
}

/**
 * Copies of the groups of `children` (see {@link copied}), with `parent` as the parent of each copy; a
 * group of more entries than a step copies is left to `work.groups`, which fills it.
 */
function copiedPairs(children: ChildMap, parent: DataNode | undefined, work: CopyWork): Slot[] {
  const source = pairsOf(children);
  const pairs: Slot[] = new Array(source.length);
  for (let p = 0; p < source.length; p += 2) {
    pairs[p] = source[p]!;
    const nodes = source[p + 1]!;
    if (!Array.isArray(nodes)) {
      pairs[p + 1] = copied(nodes as DataNode, parent, work.pending); // one instance held alone stays alone
      continue;
    }
    const group: DataNode[] = new Array(nodes.length);
    if (nodes.length > ITEMS_PER_STEP) work.groups.push({ nodes, group, parent, at: 0 });
    else for (let i = 0; i < nodes.length; i++) group[i] = copied(nodes[i]!, parent, work.pending);
    pairs[p + 1] = group;
    if (work.indexed !== undefined && hasKeyIndex(nodes)) work.indexed.push(group);
  }
  return pairs;
}

/**
 * Copies what `work` holds, down to the leaves: a few dozen entries of a big group, or the children of a
 * few dozen copies, per step; stacks rather than recursion, so that a copy goes in steps whatever the
 * depth and however many entries a list has.
 */
function* copyPending(work: CopyWork): Steps<void> {
  let copies = 0;
  for (;;) {
    const big = work.groups[work.groups.length - 1];
    if (big !== undefined) {
      const end = Math.min(big.at + ITEMS_PER_STEP, big.nodes.length);
      for (; big.at < end; big.at++) big.group[big.at] = copied(big.nodes[big.at]!, big.parent, work.pending);
      if (big.at === big.nodes.length) work.groups.pop();
      yield;
      continue;
    }
    const copy = work.pending.pop();
    if (copy === undefined) return;
    const source = work.pending.pop()!;
    CompactChildMap.adopt(copy.children as CompactChildMap, copiedPairs(source.children!, copy, work));
    if (++copies % ITEMS_PER_STEP === 0) yield;
  }
}

/**
 * A detached copy of `node` without its children, except a list entry's keys and anydata/anyxml
 * content (the node a create adds to a tree, or logs). Annotations are shared: a tree replaces them
 * whole, never changes them in place.
 */
export function shallowCopy(node: DataNode): DataNode {
  return copyWithKeys(node, undefined, node.annotations);
}

/**
 * A copy of `node` below `parent` with `annotations`, without its children except a list entry's keys
 * and anydata/anyxml content: {@link shallowCopy}, or an ancestor a selection copies on its way.
 */
export function copyWithKeys(
  node: DataNode,
  parent: DataNode | undefined,
  annotations: Annotation[] | undefined,
): DataNode {
  const copy = copyOf(node, parent, annotations);
  const children = node.children;
  if (children === undefined) return copy;
  const copied = copy.children!;
  const kind = node.schema.kind;
  if (kind === 'anydata' || kind === 'anyxml') {
    for (const [s, nodes] of children)
      copied.set(
        s,
        nodes.map((n) => cloneNode(n, copy)),
      );
  } else if (kind === 'list') {
    for (const k of node.schema.keyNodes) {
      const key = firstChild(children, k);
      if (key !== undefined) addChild(copied, copyWithKeys(key, copy, key.annotations));
    }
  }
  return copy;
}

/**
 * A deep copy of a document (see {@link cloneNode}); the original is left untouched. The copy has no key
 * index (a copy for a reply, or an edit's, is looked up in a few lists at most): see {@link cloneTreeSteps}.
 */
export function cloneTree(tree: InstanceTree): InstanceTree {
  const work = copyWork();
  const copy = { ...tree, children: CompactChildMap.ofPairs(copiedPairs(tree.children, undefined, work)) };
  finishSteps(copyPending(work));
  return copy;
}

/**
 * {@link cloneTree} in steps (see {@link Steps}), a step every few dozen nodes with children, so that a
 * server can copy a big datastore in slices. `tree` must not change until it ends. The copy of a list
 * whose entries `tree` has indexed by key (see `indexTreeSteps`) gets its own index, in steps too: a copy
 * made to become a datastore answers its first lookup as fast as its source.
 */
export function* cloneTreeSteps(tree: InstanceTree): Steps<InstanceTree> {
  const indexed: DataNode[][] = [];
  const work = copyWork(indexed);
  const copy = { ...tree, children: CompactChildMap.ofPairs(copiedPairs(tree.children, undefined, work)) };
  yield* copyPending(work);
  for (const group of indexed) yield* indexGroupSteps(group);
  return copy;
}

/** An empty document of `kind` (default 'data') over `schema`. */
export function emptyTree(schema: SchemaTree, kind: DocumentKind = 'data'): InstanceTree {
  return {
    schema,
    kind,
    parent: undefined,
    operation: undefined,
    eventTime: undefined,
    children: new CompactChildMap(),
    annotations: undefined,
  };
}

/** The instances of the data child `module:name` of `holder` (empty when none). */
export function childrenNamed(holder: ChildHolder, module: string, name: string): readonly DataNode[] {
  if (holder.children === undefined) return [];
  for (const [schema, nodes] of holder.children) {
    if (schema.name === name && schema.module === module) return nodes;
  }
  return [];
}

/** The first instance of the data child `module:name` (a container or leaf), or undefined. */
export function child(node: DataNode, module: string, name: string): DataNode | undefined {
  const schema = nodeInfo(node.schema).byQName.get(`${module}:${name}`);
  return schema === undefined ? undefined : firstChild(node.children, schema);
}

/** The value of leaf child `name` of the node's own module (e.g. a list key), or undefined. */
export function leafValue(
  node: DataNode,
  name: string,
  module: string = node.schema.module,
): string | undefined {
  return child(node, module, name)?.value;
}

/** True when the groups of `children` are in the order of `schemaParent`'s children (as they usually are). */
export function inSchemaOrder(children: ChildMap, schemaParent: SchemaNode | undefined): boolean {
  return pairsInSchemaOrder(pairsOf(children), schemaParent);
}

/** True when the groups of `pairs` (see `pairsOf`) are in the order of `schemaParent`'s children. */
export function pairsInSchemaOrder(pairs: ChildPairs, schemaParent: SchemaNode | undefined): boolean {
  if (pairs.length < 4 || schemaParent === undefined) return true;
  const index = nodeInfo(schemaParent).index;
  let last = -1;
  for (let p = 0; p < pairs.length; p += 2) {
    const i = index.get(pairs[p] as SchemaNode) ?? Number.MAX_SAFE_INTEGER;
    if (i < last) return false;
    last = i;
  }
  return true;
}

/** The pairs of `pairs` in the order of `schemaParent`'s children (groups it does not know last). */
export function pairsSorted(pairs: ChildPairs, schemaParent: SchemaNode): Slot[] {
  const index = nodeInfo(schemaParent).index;
  const at = (p: number) => index.get(pairs[p] as SchemaNode) ?? Number.MAX_SAFE_INTEGER;
  const order: number[] = [];
  for (let p = 0; p < pairs.length; p += 2) order.push(p);
  order.sort((a, b) => at(a) - at(b));
  return order.flatMap((p) => [pairs[p]!, pairs[p + 1]!]);
}

/** Child groups of `holder` in schema order (the order both encoders write). */
export function orderedChildren(
  holder: ChildHolder,
  schemaParent: SchemaNode | undefined,
): [SchemaNode, DataNode[]][] {
  const children = holder.children;
  if (children === undefined || children.size === 0) return [];
  const groups = [...children];
  if (!inSchemaOrder(children, schemaParent)) {
    const index = nodeInfo(schemaParent!).index;
    groups.sort(
      (a, b) => (index.get(a[0]) ?? Number.MAX_SAFE_INTEGER) - (index.get(b[0]) ?? Number.MAX_SAFE_INTEGER),
    );
  }
  return groups;
}

/** Visits every instance below `holder` depth first (document order within each group). */
export function* walk(holder: ChildHolder): Generator<DataNode> {
  if (holder.children === undefined) return;
  const pairs = pairsOf(holder.children);
  for (let i = 1; i < pairs.length; i += 2) {
    const group = groupAt(pairs, i);
    for (let k = 0; k < sizeOf(group); k++) {
      const n = instanceOf(group, k);
      yield n;
      yield* walk(n);
    }
  }
}
