import type { SchemaNode } from '@yangkit/yang-schema';
import type { TreeChange } from './change-log';
import { findChild } from './child-index';
import { firstChild, groupAt, instanceOf, pairsOf, sizeOf } from './child-map';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { createNode } from './instance';
import { PathCursor } from './path-cursor';
import { pathOfChild, pathOfNode } from './paths';
import { isDataKind } from './schema-view';
import { finishSteps, ITEMS_PER_STEP, type Steps } from './steps';
import { checkReference, checkReferencesInto, isReferenced, requiresInstance } from './validate-references';
import { checkMust, checkWhen } from './validate-xpath';

/** Options of {@link validate} and {@link validateChanges}. */
export interface ValidateOptions {
  /**
   * Validate as configuration (RFC 7950 8.1: constraints of config true nodes only; state nodes are not
   * checked). Default: true for 'config' documents, false otherwise.
   */
  readonly config?: boolean;
  /**
   * The document is a whole datastore (or whole operation input/output): mandatory nodes and min-elements
   * are checked at the top level too, and a leafref whose target is absent from the document is missing.
   * Default: true for rpc/action/notification kinds, false for data.
   */
  readonly complete?: boolean;
  /** Stop after this many errors (default 100). */
  readonly maxErrors?: number;
}

/**
 * Validates a document as RFC 7950 section 8 asks (types and keys are checked when it is decoded):
 * mandatory leafs and choices, min-elements/max-elements, `unique`, `must` and `when` (through yang-xpath
 * over the tree), and leafref and instance-identifier `require-instance`. Returns every error found (empty
 * when the tree is valid), each naming the node and the rule, with the error-tag and error-app-tag of
 * RFC 7950 section 15.
 */
export function validate(tree: InstanceTree, options: ValidateOptions = {}): CodecError[] {
  return finishSteps(validateSteps(tree, options));
}

/**
 * {@link validate} in steps (see {@link Steps}): a step after each node, so that a server can validate a
 * whole datastore in slices. The tree must not change until it ends.
 */
export function* validateSteps(tree: InstanceTree, options: ValidateOptions = {}): Steps<CodecError[]> {
  const v = new Validator(tree, options);
  yield* v.document();
  return v.errors;
}

/**
 * Validates what `changes` (already applied to `tree`, a whole datastore) can affect, in O(changes x depth)
 * plus the references into removed nodes: each changed subtree, the child constraints of the changed
 * nodes' parents (mandatory, min/max-elements, unique), the `must` of their ancestors, and, when a removal
 * takes away what a leafref or instance-identifier may point to, those references. A `must` or `when`
 * elsewhere that reads the changed nodes is not re-evaluated: {@link validate} checks everything.
 */
export function validateChanges(
  tree: InstanceTree,
  changes: readonly TreeChange[],
  options: ValidateOptions = {},
): CodecError[] {
  return finishSteps(validateChangesSteps(tree, changes, options));
}

/**
 * {@link validateChanges} in steps (see {@link Steps}): a step every few dozen changes and after each
 * node of a changed subtree, so that a server can validate a big edit in slices. The tree must not
 * change until it ends.
 */
export function* validateChangesSteps(
  tree: InstanceTree,
  changes: readonly TreeChange[],
  options: ValidateOptions = {},
): Steps<CodecError[]> {
  const v = new Validator(tree, { complete: true, ...options });
  yield* v.changes(changes);
  return v.errors;
}

class Validator {
  readonly errors: CodecError[] = [];
  private readonly config: boolean;
  private readonly complete: boolean;
  private readonly maxErrors: number;
  /** Nodes walked with nothing of their own to check since the last step (see `subtree`). */
  private unchecked = 0;

  constructor(
    private readonly tree: InstanceTree,
    options: ValidateOptions,
  ) {
    this.config = options.config ?? tree.kind === 'config';
    this.complete =
      options.complete ?? !(tree.kind === 'data' || tree.kind === 'config' || tree.kind === 'resource');
    this.maxErrors = options.maxErrors ?? 100;
  }

  private get full(): boolean {
    return this.errors.length >= this.maxErrors;
  }

  private skip(schema: SchemaNode): boolean {
    return this.config && !schema.config && !schema.isOperation;
  }

  *document(): Steps<void> {
    const tree = this.tree;
    if (this.complete && (tree.kind === 'data' || tree.kind === 'config')) this.children(tree, undefined);
    for (const [s, nodes] of tree.children) {
      // Without the whole datastore, the top-level lists present still have unique values.
      if (!this.complete && s.kind === 'list' && s.unique.length > 0 && !this.skip(s)) this.unique(s, nodes);
      for (const n of nodes) yield* this.subtree(n);
    }
    this.errors.splice(this.maxErrors);
  }

  *changes(changes: readonly TreeChange[]): Steps<void> {
    const tree = this.tree;
    const subtrees = new Set<DataNode>();
    const parents = new Set<DataNode | undefined>();
    const removed = new Set<SchemaNode>();
    // The changes of an edit come near each other: each path is followed from the one before.
    const cursor = new PathCursor();
    /** True when `n` or an ancestor of it is a subtree validated whole. */
    const within = (n: DataNode | undefined): boolean => {
      for (let p = n; p !== undefined; p = p.parent) if (subtrees.has(p)) return true;
      return false;
    };
    let seen = 0;
    for (const c of changes) {
      if (++seen % ITEMS_PER_STEP === 0) yield;
      const path = c.path;
      const holder = cursor.find(tree, path, path.length - 1);
      const parent = holder === undefined || path.length === 1 ? undefined : (holder as DataNode);
      if (c.op !== 'remove' && within(parent)) {
        // Inside a subtree validated whole (a node created with its parent, say): nothing to add.
        cursor.at(parent!, path, path.length - 1);
        continue;
      }
      if (holder !== undefined) parents.add(parent);
      if (c.op === 'remove') {
        if (isReferenced(tree.schema, c.node.schema)) removed.add(c.node.schema);
      } else if (c.op !== 'move' && holder !== undefined) {
        const node = findChild(holder, path[path.length - 1]!);
        if (node !== undefined) {
          subtrees.add(node);
          cursor.at(node, path);
        }
      }
    }
    const covered = (n: DataNode): boolean => within(n.parent);
    const ancestorsDone = new Set<DataNode>();
    for (const n of subtrees) {
      if (covered(n)) continue;
      yield* this.subtree(n);
      this.ancestors(n.parent, ancestorsDone);
    }
    for (const p of parents) {
      yield;
      if (p === undefined) {
        this.children(tree, undefined);
        continue;
      }
      if (subtrees.has(p) || covered(p)) continue;
      this.children(p, p);
      this.node(p);
      this.ancestors(p.parent, ancestorsDone);
    }
    for (const schema of removed) checkReferencesInto(tree, schema, this.errors, this.maxErrors);
    this.errors.splice(this.maxErrors);
  }

  /** The `must` of each ancestor (their value may depend on what changed below them). */
  private ancestors(start: DataNode | undefined, done: Set<DataNode>): void {
    for (let a = start; a !== undefined && !done.has(a); a = a.parent) {
      done.add(a);
      if (!this.skip(a.schema)) checkMust(this.tree, a, this.errors);
    }
  }

  /** Checks `root` and its subtree depth first, in document order, a step after each node. */
  private *subtree(root: DataNode): Steps<void> {
    // A stack of the nodes to check rather than a generator per level: a step resumes one
    // generator, not one for each level down to the node (1.4 million nodes in a big document).
    const nodes: DataNode[] = [root];
    const depths: number[] = [0];
    while (nodes.length > 0) {
      const n = nodes.pop()!;
      const depth = depths.pop()!;
      if (this.full) return;
      if (depth > 256 || this.skip(n.schema)) continue;
      // A node with an expression or a reference to check is a step of its own (an XPath expression
      // may walk much of the tree); the others, most nodes, a step every few dozen.
      if (this.node(n) || ++this.unchecked === ITEMS_PER_STEP) {
        this.unchecked = 0;
        yield;
      }
      const kind = n.schema.kind;
      // anydata content is not validated against the schema (RFC 7950 7.10).
      if (n.children === undefined || kind === 'anydata' || kind === 'anyxml') continue;
      this.children(n, n);
      const pairs = pairsOf(n.children);
      // The last child first onto the stack, so that the first comes off it first.
      for (let i = pairs.length - 1; i > 0; i -= 2) {
        if (!worthVisiting(pairs[i - 1] as SchemaNode, this.config)) continue;
        const group = groupAt(pairs, i);
        for (let k = sizeOf(group) - 1; k >= 0; k--) {
          nodes.push(instanceOf(group, k));
          depths.push(depth + 1);
        }
      }
    }
  }

  /** Checks on one instance: when, must, require-instance; false when it has none of them. */
  private node(n: DataNode): boolean {
    const schema = n.schema;
    if (this.skip(schema)) return false;
    const reference = n.children === undefined && requiresInstance(schema) && (schema.config || !this.config);
    if (schema.when.length === 0 && schema.must.length === 0 && !reference) return false;
    checkWhen(this.tree, n, this.errors);
    checkMust(this.tree, n, this.errors);
    if (reference) checkReference(this.tree, n, this.complete, this.errors);
    return true;
  }

  /** mandatory, choice, element-count and unique checks of the schema children under one instance. */
  private children(holder: ChildHolder, parent: DataNode | undefined): void {
    const schemaChildren =
      parent === undefined
        ? this.tree.schema.children.filter((c) => isDataKind(c.kind) && isConstrained(c, this.config))
        : constrainedChildren(parent.schema, this.config);
    this.schemaChildren(holder, schemaChildren, parent);
  }

  private schemaChildren(
    holder: ChildHolder,
    schemaChildren: readonly SchemaNode[],
    parent: DataNode | undefined,
  ): void {
    // Indexed loops, and no closure here or in hasAny: this runs for every instance walked.
    for (let i = 0; i < schemaChildren.length; i++) {
      const cs = schemaChildren[i]!;
      if (this.full) return;
      if (this.skip(cs)) continue;
      switch (cs.kind) {
        case 'choice': {
          const at = caseWithData(holder, cs, 0);
          const next = at < 0 ? -1 : caseWithData(holder, cs, at + 1);
          const chosen = at < 0 ? undefined : cs.children[at];
          const other = next < 0 ? undefined : cs.children[next];
          if (chosen !== undefined && other !== undefined) this.twoCases(holder, cs, chosen, other);
          if (chosen !== undefined) {
            this.schemaChildren(
              holder,
              chosen.kind === 'case' ? constrainedChildren(chosen, this.config) : [chosen],
              parent,
            );
          } else if (cs.mandatory && cs.when.length === 0) {
            const path = pathOfChild(this.tree.schema, parent, cs);
            this.errors.push(
              new CodecError(
                'MANDATORY_MISSING',
                `mandatory choice "${cs.name}" has no case present (${path.json})`,
                {
                  errorTag: 'data-missing',
                  errorAppTag: 'missing-choice',
                  errorPath: pathOfNode(this.tree.schema, parent),
                  errorInfo: { 'missing-choice': cs.name },
                },
              ),
            );
          }
          break;
        }
        case 'container':
          // RFC 7950 7.6.5: the mandatory nodes of an absent non-presence container still count.
          if (!holder.children?.has(cs) && cs.presence === undefined && cs.when.length === 0) {
            const implied = createNode(cs, parent);
            this.schemaChildren(implied, constrainedChildren(cs, this.config), implied);
          }
          break;
        case 'leaf':
        case 'anydata':
        case 'anyxml':
          if (cs.mandatory && cs.when.length === 0 && !holder.children?.has(cs)) {
            const path = pathOfChild(this.tree.schema, parent, cs);
            this.errors.push(
              new CodecError(
                'MANDATORY_MISSING',
                `mandatory ${cs.kind} "${cs.name}" is missing (${path.json})`,
                {
                  errorTag: 'missing-element',
                  errorPath: path,
                  errorInfo: { 'bad-element': cs.name },
                },
              ),
            );
          }
          break;
        case 'list':
        case 'leaf-list': {
          const entries = holder.children?.get(cs);
          this.counts(cs, entries?.length ?? 0, parent);
          if (cs.kind === 'list' && cs.unique.length > 0 && entries !== undefined) this.unique(cs, entries);
          break;
        }
        default:
          break;
      }
    }
  }

  private counts(cs: SchemaNode, count: number, parent: DataNode | undefined): void {
    const tooFew = count < cs.minElements && cs.when.length === 0;
    if (!tooFew && count <= cs.maxElements) return;
    const path = pathOfChild(this.tree.schema, parent, cs);
    this.errors.push(
      tooFew
        ? new CodecError(
            'TOO_FEW_ELEMENTS',
            `${cs.kind} "${cs.name}" has ${count} entries, fewer than min-elements ${cs.minElements} (${path.json})`,
            { errorTag: 'operation-failed', errorAppTag: 'too-few-elements', errorPath: path },
          )
        : new CodecError(
            'TOO_MANY_ELEMENTS',
            `${cs.kind} "${cs.name}" has ${count} entries, more than max-elements ${cs.maxElements} (${path.json})`,
            { errorTag: 'operation-failed', errorAppTag: 'too-many-elements', errorPath: path },
          ),
    );
  }

  /** RFC 7950 7.9: the nodes of one case only; `other` is a second case with instances. */
  private twoCases(holder: ChildHolder, choice: SchemaNode, chosen: SchemaNode, other: SchemaNode): void {
    const node = firstInstance(holder, other)!;
    const path = pathOfNode(this.tree.schema, node);
    this.errors.push(
      new CodecError(
        'BAD_ELEMENT',
        `choice "${choice.name}" holds nodes of two cases, "${chosen.name}" and "${other.name}" (${path.json})`,
        { errorTag: 'bad-element', errorPath: path, errorInfo: { 'bad-element': node.schema.name } },
      ),
    );
  }

  /** RFC 7950 7.8.3: entries whose unique descendants all exist may not share their values. */
  private unique(list: SchemaNode, entries: readonly DataNode[]): void {
    for (const paths of list.unique) {
      const seen = new Map<string, DataNode>();
      for (const e of entries) {
        const leaves: DataNode[] = [];
        for (const p of paths) {
          const leaf = descendant(e, p);
          if (leaf?.value === undefined) break;
          leaves.push(leaf);
        }
        if (leaves.length !== paths.length) continue;
        const key = leaves.map((l) => l.value).join('\u0000');
        if (!seen.has(key)) {
          seen.set(key, e);
          continue;
        }
        const path = pathOfNode(this.tree.schema, e);
        this.errors.push(
          new CodecError(
            'UNIQUE_VIOLATION',
            `list "${list.name}" entries share the values of unique "${paths.join(' ')}" (${path.json})`,
            {
              errorTag: 'operation-failed',
              errorAppTag: 'data-not-unique',
              errorPath: path,
              // RFC 7950 15.1: error-info non-unique names a leaf that breaks the constraint.
              errorInfo: { 'non-unique': pathOfNode(this.tree.schema, leaves[0]).json },
            },
          ),
        );
        return;
      }
    }
  }
}

/** {@link constrainedChildren} and {@link worthVisiting} per schema node: as configuration, and as any data. */
const constrainedCache = new WeakMap<
  SchemaNode,
  {
    config?: readonly SchemaNode[];
    all?: readonly SchemaNode[];
    visitConfig?: boolean;
    visitAll?: boolean;
  }
>();

/**
 * Whether the instances of the data node `schema` can hold anything to check: an expression or a
 * reference of its own or below it, or schema children whose presence or count is checked. The
 * others, most leaves and many subtrees, are not walked: of the 1.4 million nodes of 100,000
 * interfaces, the 900,000 leaves are not.
 */
function worthVisiting(schema: SchemaNode, config: boolean): boolean {
  let cached = constrainedCache.get(schema);
  if (cached === undefined) constrainedCache.set(schema, (cached = {}));
  const which = config ? 'visitConfig' : 'visitAll';
  return (cached[which] ??= visitedFor(schema, config));
}

/** {@link worthVisiting}, worked out. */
function visitedFor(schema: SchemaNode, config: boolean): boolean {
  if (config && !schema.config && !schema.isOperation) return false;
  if (schema.when.length > 0 || schema.must.length > 0 || requiresInstance(schema)) return true;
  if (schema.kind === 'anydata' || schema.kind === 'anyxml') return false;
  return constrainedChildren(schema, config).length > 0 || hasVisitedBelow(schema, config);
}

/** Whether a data node among the children of `schema`, through choices and cases, is worth visiting. */
function hasVisitedBelow(schema: SchemaNode, config: boolean): boolean {
  return schema.children.some((c) =>
    isDataKind(c.kind) ? worthVisiting(c, config) : hasVisitedBelow(c, config),
  );
}

/**
 * The children of `schema` whose presence or count `schemaChildren` checks (most have nothing to check:
 * an optional leaf, a list without min/max-elements or unique, a container with none of those below it),
 * so that the check of each instance walks only those and builds no empty container to look inside.
 */
function constrainedChildren(schema: SchemaNode, config: boolean): readonly SchemaNode[] {
  let cached = constrainedCache.get(schema);
  if (cached === undefined) constrainedCache.set(schema, (cached = {}));
  const which = config ? 'config' : 'all';
  return (cached[which] ??= schema.children.filter((c) => isConstrained(c, config)));
}

/** Whether `schemaChildren` can find an error at the schema child `cs` (the cases it does not skip). */
function isConstrained(cs: SchemaNode, config: boolean): boolean {
  if (config && !cs.config && !cs.isOperation) return false;
  switch (cs.kind) {
    case 'choice':
      return true;
    case 'container':
      return cs.presence === undefined && cs.when.length === 0 && constrainedChildren(cs, config).length > 0;
    case 'leaf':
    case 'anydata':
    case 'anyxml':
      return cs.mandatory && cs.when.length === 0;
    case 'list':
    case 'leaf-list':
      return (
        (cs.minElements > 0 && cs.when.length === 0) ||
        cs.maxElements !== Number.POSITIVE_INFINITY ||
        (cs.kind === 'list' && cs.unique.length > 0)
      );
    default:
      return false;
  }
}

/** True when any instance of `schema` (a case, choice or data node) is among the holder's children. */
function hasAny(holder: ChildHolder, schema: SchemaNode): boolean {
  if (holder.children === undefined) return false;
  if (isDataKind(schema.kind)) return holder.children.has(schema);
  const children = schema.children;
  for (let i = 0; i < children.length; i++) if (hasAny(holder, children[i]!)) return true;
  return false;
}

/** The index of the first case (or shorthand case) of `choice` from `from` on with an instance in the holder, or -1. */
function caseWithData(holder: ChildHolder, choice: SchemaNode, from: number): number {
  const cases = choice.children;
  for (let i = from; i < cases.length; i++) if (hasAny(holder, cases[i]!)) return i;
  return -1;
}

/** The first instance of `schema` (a case, choice or data node) among the holder's children. */
function firstInstance(holder: ChildHolder, schema: SchemaNode): DataNode | undefined {
  if (isDataKind(schema.kind)) return firstChild(holder.children, schema);
  for (const c of schema.children) {
    const found = firstInstance(holder, c);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The descendant leaf a unique argument names ("a/b", prefixes ignored). */
function descendant(entry: DataNode, path: string): DataNode | undefined {
  let node: DataNode | undefined = entry;
  for (const step of path.split('/')) {
    const name = step.includes(':') ? step.slice(step.indexOf(':') + 1) : step;
    if (node?.children === undefined) return undefined;
    let next: DataNode | undefined;
    for (const [s, nodes] of node.children) {
      if (s.name === name) {
        next = nodes[0];
        break;
      }
    }
    node = next;
  }
  return node;
}
