import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { CompiledXPath } from '@yangkit/yang-xpath';
import { findChild, findEntryByKey, isDocument } from './child-index';
import { CompactChildMap } from './child-map';
import { CodecError } from './errors';
import { type ChildHolder, type ChildMap, copyOf, type DataNode, type InstanceTree } from './instance';
import { pathOf } from './path-step';
import { finishSteps, StepCounter, type Steps } from './steps';
import { valueFromXml } from './values';
import { type TreeNode, treeNavigator } from './xpath-navigator';

/**
 * One element of an RFC 6241 section 6 subtree filter, as read from XML: a containment or selection node
 * (children or none) or a content match node (non-blank text, section 6.2.5).
 */
export interface FilterElement {
  readonly name: string;
  /** The element's namespace; undefined matches a node of that name in any module (section 6.2.1). */
  readonly namespace: string | undefined;
  /** Character content (a content match value when it is not blank and there are no children). */
  readonly text: string;
  readonly children: readonly FilterElement[];
  /** Resolves a namespace prefix used in the text (identityref values), per the element's scope. */
  readonly lookupPrefix?: (prefix: string) => string | undefined;
}

/** What of one instance a selection keeps: all of it, or some of its children. */
type Selected = 'all' | Map<DataNode, Selected>;

function isContentMatch(el: FilterElement): boolean {
  return el.children.length === 0 && el.text.trim() !== '';
}

function names(schema: SchemaNode, el: FilterElement): boolean {
  return schema.name === el.name && (el.namespace === undefined || schema.namespace === el.namespace);
}

const canonical = new WeakMap<FilterElement, Map<SchemaNode, string>>();

/** One subtree filter applied to one schema's documents. */
class SubtreeSelector {
  constructor(
    private readonly schema: SchemaTree,
    private readonly steps: StepCounter,
  ) {}

  /** A content match value in the canonical form of the leaf it is compared with (its text when invalid). */
  private matchValue(schema: SchemaNode, el: FilterElement): string {
    let perSchema = canonical.get(el);
    if (perSchema === undefined) canonical.set(el, (perSchema = new Map()));
    let v = perSchema.get(schema);
    if (v === undefined) {
      const text = el.text.trim();
      const r =
        schema.type === undefined
          ? undefined
          : valueFromXml(this.schema, schema.type, text, { lookup: (p) => el.lookupPrefix?.(p) });
      v = r?.ok ? r.value : text;
      perSchema.set(schema, v);
    }
    return v;
  }

  /** The children of `holder` an element names; one entry in O(1) when a content match names every key. */
  *matching(holder: ChildHolder, el: FilterElement): Generator<DataNode> {
    if (holder.children === undefined) return;
    for (const [schema, nodes] of holder.children) {
      if (!names(schema, el)) continue;
      if (schema.kind === 'list' && schema.keyNodes.length > 0) {
        const values: string[] = [];
        for (const k of schema.keyNodes) {
          const kel = el.children.find((c) => names(k, c) && isContentMatch(c));
          if (kel === undefined) break;
          values.push(this.matchValue(k, kel));
        }
        if (values.length === schema.keyNodes.length) {
          const entry = findEntryByKey(holder, schema, values.join('\u0000'));
          if (entry !== undefined) yield entry;
          continue;
        }
      }
      yield* nodes;
    }
  }

  /** RFC 6241 section 6.2: what one filter element selects of one instance, or undefined; a step every few dozen nodes. */
  *select(node: DataNode, el: FilterElement, depth: number): Steps<Selected | undefined> {
    if (depth > 256) {
      throw new CodecError('LIMIT_EXCEEDED', 'subtree filter nested deeper than 256', {
        errorTag: 'too-big',
      });
    }
    if (el.children.length === 0) return 'all';
    const out = new Map<DataNode, Selected>();
    let contentMatches = 0;
    for (const cm of el.children) {
      if (!isContentMatch(cm)) continue;
      contentMatches++;
      let found = false;
      for (const c of this.matching(node, cm)) {
        if (this.steps.next()) yield;
        if (c.value === undefined) continue;
        if (c.value !== this.matchValue(c.schema, cm) && c.value !== cm.text.trim()) continue;
        found = true;
        out.set(c, 'all');
      }
      // Section 6.2.5: every content match node must match, or the instance is not selected.
      if (!found) return undefined;
    }
    if (contentMatches === el.children.length) return 'all';
    let any = false;
    for (const o of el.children) {
      if (isContentMatch(o)) continue;
      for (const c of this.matching(node, o)) {
        if (out.has(c)) continue;
        if (this.steps.next()) yield;
        // A selection node selects the whole instance: no walk below it.
        const s = o.children.length === 0 && depth < 256 ? 'all' : yield* this.select(c, o, depth + 1);
        if (s === undefined) continue;
        out.set(c, s);
        any = true;
      }
    }
    if (!any && contentMatches === 0) return undefined;
    return out;
  }
}

/**
 * Applies an RFC 6241 section 6 subtree filter to a document and returns the selection as a document of
 * the same kind. Whole selected subtrees are shared with `tree` (treat the result as read-only, or clone
 * it before changing it); the ancestors on the way are new nodes with only the selected children, list
 * entries with their keys (RFC 7950 7.8.5). A content match on every key of a list finds its entry in O(1).
 */
export function selectSubtree(tree: InstanceTree, filter: readonly FilterElement[]): InstanceTree {
  return finishSteps(selectSubtreeSteps(tree, filter));
}

/**
 * {@link selectSubtree} in steps (see {@link Steps}), a step every few dozen nodes looked at or
 * written, so that a server can select from a big datastore in slices. `tree` must not change until it
 * ends.
 */
export function* selectSubtreeSteps(
  tree: InstanceTree,
  filter: readonly FilterElement[],
): Steps<InstanceTree> {
  const steps = new StepCounter();
  const selector = new SubtreeSelector(tree.schema, steps);
  const top = new Map<DataNode, Selected>();
  for (const el of filter) {
    for (const c of selector.matching(tree, el)) {
      if (top.has(c)) continue;
      if (steps.next()) yield;
      const s = yield* selector.select(c, el, 0);
      if (s !== undefined) top.set(c, s);
    }
  }
  return yield* materialize(tree, top, steps);
}

/**
 * Applies an XPath selection (RFC 6241 section 8.9, RFC 8639/8641 filters) to a document: the nodes the
 * expression selects come with their subtrees, their ancestors with list keys; sharing as
 * {@link selectSubtree}. An expression that selects the document selects everything.
 */
export function selectXPath(
  tree: InstanceTree,
  expression: CompiledXPath,
  options: SelectXPathOptions = {},
): InstanceTree {
  return finishSteps(selectXPathSteps(tree, expression, options));
}

/** Options of {@link selectXPath}. */
export interface SelectXPathOptions {
  /**
   * Most units of work of the expression's evaluation (yang-xpath's `maxWork`): past it the
   * selection throws yang-xpath's `WORK_LIMIT` error. Default: no limit.
   */
  readonly maxWork?: number;
}

/**
 * {@link selectXPath} in steps (see {@link Steps}): the expression is evaluated in steps (see yang-xpath's
 * `evaluateNodesSteps`: location paths node by node, a predicate for one node or an expression that is no
 * path in one step), then the selection is built from the nodes it selects with a step every few dozen
 * nodes. `tree` must not change until it ends.
 */
export function* selectXPathSteps(
  tree: InstanceTree,
  expression: CompiledXPath,
  options: SelectXPathOptions = {},
): Steps<InstanceTree> {
  const nodes = yield* expression.evaluateNodesSteps<TreeNode>(tree, treeNavigator(tree), options);
  const steps = new StepCounter();
  const top = new Map<DataNode, Selected>();
  for (const n of nodes) {
    if (isDocument(n)) return tree;
    if (steps.next()) yield;
    const chain = ancestry(tree, n);
    if (chain.length === 0) continue;
    let level: Map<DataNode, Selected> | undefined = top;
    for (let i = chain.length - 1; i > 0 && level !== undefined; i--) {
      const x = chain[i]!;
      const next: Selected | undefined = level.get(x);
      // An ancestor selected whole already holds this node.
      if (next === 'all') level = undefined;
      else if (next === undefined) level.set(x, (level = new Map()));
      else level = next;
    }
    level?.set(chain[0]!, 'all');
  }
  return yield* materialize(tree, top, steps);
}

/**
 * `node` and its ancestors in `tree`, the node first. A node shared with another tree (an overlay shares
 * the subtrees it did not change) has its parents there: then its path is followed down from `tree`.
 */
function ancestry(tree: InstanceTree, node: DataNode): DataNode[] {
  const chain: DataNode[] = [];
  for (let x: DataNode | undefined = node; x !== undefined; x = x.parent) chain.push(x);
  const top = chain[chain.length - 1]!;
  if (tree.children.get(top.schema)?.includes(top)) return chain;
  chain.length = 0;
  let holder: ChildHolder = tree;
  for (const step of pathOf(node)) {
    const x = findChild(holder, step);
    if (x === undefined) return [];
    chain.push(x);
    holder = x;
  }
  return chain.reverse();
}

/** Builds the selection's document: the selected instances in their original order, keys kept. */
function* materialize(
  tree: InstanceTree,
  top: Map<DataNode, Selected>,
  steps: StepCounter,
): Steps<InstanceTree> {
  const children = new CompactChildMap();
  yield* selectedChildren(tree, top, undefined, steps, children);
  return { ...tree, children, annotations: tree.annotations };
}

/** Puts the selected children of `holder` into `out` (the children of its copy, `parent`). */
function* selectedChildren(
  holder: ChildHolder,
  selected: Map<DataNode, Selected>,
  parent: DataNode | undefined,
  steps: StepCounter,
  out: ChildMap,
): Steps<void> {
  if (holder.children === undefined || selected.size === 0) return;
  const keys = parent?.schema.kind === 'list' ? parent.schema.keyNodes : undefined;
  for (const [schema, nodes] of holder.children) {
    const group: DataNode[] = [];
    const isKey = keys?.includes(schema) === true;
    for (const n of nodes) {
      if (steps.next()) yield;
      const s = isKey ? 'all' : selected.get(n);
      if (s === undefined) continue;
      if (s === 'all') {
        group.push(n);
        continue;
      }
      const copy = copyOf(n, parent, n.annotations);
      group.push(copy);
      if (copy.children !== undefined) yield* selectedChildren(n, s, copy, steps, copy.children);
    }
    if (group.length > 0) out.set(schema, group);
  }
}
