import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { compileXPath } from '@yangkit/yang-xpath';
import { allChildren, createNode, type DataNode, lookup, single } from './data-tree.js';
import type { Change } from './datastore.js';
import { pathOfChild, pathOfNode } from './error-path.js';
import type { RpcErrorFields } from './errors.js';
import { activeCase } from './write-xml.js';
import { dataNavigator, schemaXPath } from './xpath-nav.js';

const MAX_ERRORS = 64;

/**
 * Validates configuration as RFC 7950 section 8 asks (types and keys are checked when an edit is
 * parsed): mandatory nodes and choices, min/max-elements, unique, must and when, leafref and
 * instance-identifier require-instance. {@link Validator.validateChanges} checks only what a set of
 * changes can affect: the changed subtrees, their parents' child constraints and their ancestors'
 * `must` expressions; a removal re-checks the leafrefs that may point into it.
 */
export class Validator {
  private readonly nav;
  /** Schema nodes some leafref points to. */
  private readonly leafrefTargets = new Set<SchemaNode>();
  /** Leaves whose type is a leafref (or instance-identifier) with require-instance. */
  private readonly referencing: SchemaNode[] = [];

  constructor(readonly tree: SchemaTree) {
    this.nav = dataNavigator(tree);
    for (const s of tree) {
      if ((s.kind === 'leaf' || s.kind === 'leaf-list') && s.config && requiresInstance(s)) {
        this.referencing.push(s);
        const target = s.type?.leafrefTarget as SchemaNode | undefined;
        if (target) this.leafrefTargets.add(target);
      }
    }
  }

  /** Validates a whole datastore. */
  validateAll(root: DataNode): RpcErrorFields[] {
    const errors: RpcErrorFields[] = [];
    this.subtree(root, errors, 0);
    return errors;
  }

  /** Validates what `changes` (applied to `root`) can affect. */
  validateChanges(root: DataNode, changes: readonly Change[]): RpcErrorFields[] {
    const errors: RpcErrorFields[] = [];
    const subtrees = new Set<DataNode>();
    const parents = new Set<DataNode>();
    let leafrefs = false;
    for (const c of changes) {
      const parent = lookup(root, c.steps.slice(0, -1));
      if (parent) parents.add(parent);
      if (c.op === 'remove') {
        if (this.leafrefTargets.size > 0 && this.holdsTarget(c.node, 0)) leafrefs = true;
        if (c.node.schema && this.instanceIdTargets()) leafrefs = true;
        continue;
      }
      if (c.op === 'move') continue;
      const node = lookup(root, c.steps);
      if (node) subtrees.add(node);
    }
    const covered = (n: DataNode): boolean => {
      for (let p = n.parent; p; p = p.parent) if (subtrees.has(p)) return true;
      return false;
    };
    const ancestorsDone = new Set<DataNode>();
    for (const n of subtrees) {
      if (covered(n)) continue;
      this.subtree(n, errors, 0);
      this.ancestors(n.parent, errors, ancestorsDone);
    }
    for (const p of parents) {
      if (subtrees.has(p) || covered(p)) continue;
      this.children(p, errors);
      if (p.schema) this.node(p, errors);
      this.ancestors(p.parent, errors, ancestorsDone);
    }
    if (leafrefs) this.allReferences(root, errors);
    return errors.slice(0, MAX_ERRORS);
  }

  private instanceIdTargets(): boolean {
    return this.referencing.some((s) => s.type?.base === 'instance-identifier');
  }

  private holdsTarget(node: DataNode, depth: number): boolean {
    if (depth > 64) return true;
    if (node.schema && this.leafrefTargets.has(node.schema)) return true;
    for (const c of allChildren(node)) {
      if (c.kids === undefined && !this.leafrefTargets.has(c.schema!)) continue;
      if (this.holdsTarget(c, depth + 1)) return true;
    }
    return false;
  }

  private ancestors(start: DataNode | undefined, errors: RpcErrorFields[], done: Set<DataNode>): void {
    for (let a = start; a?.schema !== undefined; a = a.parent) {
      if (done.has(a)) return;
      done.add(a);
      this.musts(a, errors);
    }
  }

  private allReferences(root: DataNode, errors: RpcErrorFields[]): void {
    const walk = (n: DataNode, depth: number): void => {
      if (depth > 256 || errors.length >= MAX_ERRORS) return;
      for (const c of allChildren(n)) {
        if (c.kids) walk(c, depth + 1);
        else if (c.schema && this.referencing.includes(c.schema)) this.reference(c, errors);
      }
    };
    walk(root, 0);
  }

  private subtree(node: DataNode, errors: RpcErrorFields[], depth: number): void {
    if (errors.length >= MAX_ERRORS || depth > 256) return;
    if (node.schema) this.node(node, errors);
    if (node.kids === undefined) return;
    this.children(node, errors);
    for (const c of allChildren(node)) this.subtree(c, errors, depth + 1);
  }

  /** Checks on one instance: when, must, require-instance. */
  private node(node: DataNode, errors: RpcErrorFields[]): void {
    const schema = node.schema!;
    for (const w of schema.when) {
      const context = w.origin === 'node' ? node.parent : node.parent;
      if (!context) continue;
      if (!this.evaluate(schema, w, context, node, errors)) {
        const p = pathOfNode(node);
        errors.push({
          errorType: 'application',
          errorTag: 'unknown-element',
          errorAppTag: 'when-violation',
          errorMessage: `${schema.kind} "${schema.name}" exists but its when condition "${w.expression}" is false`,
          errorPath: p.path,
          errorPathNamespaces: p.namespaces,
        });
      }
    }
    this.musts(node, errors);
    if (node.kids === undefined && schema.config && requiresInstance(schema)) this.reference(node, errors);
  }

  private musts(node: DataNode, errors: RpcErrorFields[]): void {
    const schema = node.schema!;
    for (const m of schema.must) {
      if (this.evaluate(schema, m, node, node, errors)) continue;
      const p = pathOfNode(node);
      errors.push({
        errorType: 'application',
        errorTag: 'operation-failed',
        errorAppTag: m.errorAppTag ?? 'must-violation',
        errorMessage:
          m.errorMessage ?? `must condition "${m.expression}" of ${schema.kind} "${schema.name}" is false`,
        errorPath: p.path,
        errorPathNamespaces: p.namespaces,
      });
    }
  }

  private evaluate(
    schema: SchemaNode,
    expr: SchemaNode['must'][number],
    context: DataNode,
    current: DataNode,
    errors: RpcErrorFields[],
  ): boolean {
    try {
      return schemaXPath(this.tree, expr).evaluateBoolean(context, this.nav, { current });
    } catch (error) {
      errors.push({
        errorType: 'application',
        errorTag: 'operation-failed',
        errorMessage: `cannot evaluate "${expr.expression}" of ${schema.kind} "${schema.name}": ${error instanceof Error ? error.message : String(error)}`,
      });
      return true;
    }
  }

  /** RFC 7950 9.9.3 / 9.13.2 require-instance: the referenced instance must exist. */
  private reference(leaf: DataNode, errors: RpcErrorFields[]): void {
    const schema = leaf.schema!;
    const value = leaf.value ?? '';
    let found: boolean;
    if (schema.type?.base === 'instance-identifier') found = this.instanceExists(leaf, value);
    else {
      const target = schema.type?.leafrefTarget as SchemaNode | undefined;
      if (!target) return;
      found = this.targetHas(this.nav.root(leaf), target, value);
    }
    if (found) return;
    const p = pathOfNode(leaf);
    errors.push({
      errorType: 'application',
      errorTag: 'data-missing',
      errorAppTag: 'instance-required',
      errorMessage: `${schema.kind} "${schema.name}" refers to "${value}", which does not exist`,
      errorPath: p.path,
      errorPathNamespaces: p.namespaces,
    });
  }

  private instanceExists(leaf: DataNode, value: string): boolean {
    const prefixes = new Map<string, string>();
    for (const m of this.tree.modules) prefixes.set(m.name, m.namespace);
    try {
      return compileXPath(value, { prefixes }).evaluateNodes(this.nav.root(leaf), this.nav).length > 0;
    } catch {
      return false;
    }
  }

  /** Whether some instance of `target` holds `value`; O(1) for the key of a list under containers. */
  private targetHas(root: DataNode, target: SchemaNode, value: string): boolean {
    const chain: SchemaNode[] = [];
    for (let s: SchemaNode | undefined = target; s; s = s.parent) {
      if (s.kind !== 'choice' && s.kind !== 'case') chain.push(s);
    }
    chain.reverse();
    let level: DataNode[] = [root];
    for (let i = 0; i < chain.length; i++) {
      const s = chain[i]!;
      const next: DataNode[] = [];
      const isLast = i === chain.length - 1;
      const nextIsSingleKey =
        i === chain.length - 2 &&
        s.kind === 'list' &&
        s.keyNodes.length === 1 &&
        s.keyNodes[0] === chain[i + 1];
      for (const n of level) {
        const slot = n.kids?.get(s);
        if (slot === undefined) continue;
        if (nextIsSingleKey && slot instanceof Map) {
          if (slot.has(value)) return true;
          continue;
        }
        if (slot instanceof Map) {
          if (isLast && s.kind === 'leaf-list') {
            if (slot.has(value)) return true;
            continue;
          }
          next.push(...slot.values());
        } else next.push(slot);
      }
      if (nextIsSingleKey) return false;
      level = next;
    }
    return level.some((n) => n.value === value);
  }

  /** Constraints on the children of one inner node: mandatory, min/max-elements, unique. */
  private children(node: DataNode, errors: RpcErrorFields[]): void {
    const parentSchema = node.schema;
    const kids =
      parentSchema === undefined ? this.tree.children.filter((c) => c.config) : parentSchema.dataChildren();
    for (const c of kids) {
      if (!c.config || errors.length >= MAX_ERRORS) continue;
      if (!inActive(node, c)) continue;
      const slot = node.kids?.get(c);
      if (c.kind === 'list' || c.kind === 'leaf-list') {
        const count = slot instanceof Map ? slot.size : 0;
        if (count < c.minElements && c.when.length === 0) {
          const p = pathOfChild(node.schema ? node : undefined, c);
          errors.push({
            errorType: 'application',
            errorTag: 'operation-failed',
            errorAppTag: 'too-few-elements',
            errorMessage: `${c.kind} "${c.name}" has ${count} entries; min-elements is ${c.minElements}`,
            errorPath: p.path,
            errorPathNamespaces: p.namespaces,
          });
        }
        if (count > c.maxElements) {
          const p = pathOfChild(node.schema ? node : undefined, c);
          errors.push({
            errorType: 'application',
            errorTag: 'operation-failed',
            errorAppTag: 'too-many-elements',
            errorMessage: `${c.kind} "${c.name}" has ${count} entries; max-elements is ${c.maxElements}`,
            errorPath: p.path,
            errorPathNamespaces: p.namespaces,
          });
        }
        if (c.kind === 'list' && c.unique.length > 0 && slot instanceof Map)
          this.unique(node, c, slot, errors);
        continue;
      }
      if (slot !== undefined) continue;
      if (c.mandatory && c.when.length === 0) {
        const p = pathOfChild(node.schema ? node : undefined, c);
        errors.push({
          errorType: 'protocol',
          errorTag: 'missing-element',
          errorMessage: `mandatory ${c.kind} "${c.name}" is missing`,
          errorPath: p.path,
          errorPathNamespaces: p.namespaces,
          errorInfo: { 'bad-element': c.name },
        });
      } else if (c.kind === 'container' && c.presence === undefined && parentSchema !== undefined) {
        // A non-presence container exists whenever its parent does (RFC 7950 7.5.1): check inside it.
        const virtual = createNode(c);
        virtual.parent = node;
        this.children(virtual, errors);
      }
    }
    if (parentSchema) {
      for (const choice of choicesOf(parentSchema)) {
        if (choice.mandatory && activeCase(node, choice) === undefined && inActive(node, choice)) {
          const p = pathOfNode(node);
          errors.push({
            errorType: 'protocol',
            errorTag: 'data-missing',
            errorAppTag: 'missing-choice',
            errorMessage: `mandatory choice "${choice.name}" has no case`,
            errorPath: p.path,
            errorPathNamespaces: p.namespaces,
            errorInfo: { 'missing-choice': choice.name },
          });
        }
      }
    }
  }

  /** RFC 7950 7.8.3: unique combinations over the entries where all the leaves exist. */
  private unique(
    parent: DataNode,
    list: SchemaNode,
    map: Map<string, DataNode>,
    errors: RpcErrorFields[],
  ): void {
    for (const spec of list.unique) {
      const seen = new Map<string, DataNode>();
      for (const entry of map.values()) {
        const values: string[] = [];
        for (const path of spec) {
          let n: DataNode | undefined = entry;
          for (const part of path.split('/')) {
            const name = part.includes(':') ? part.slice(part.indexOf(':') + 1) : part;
            const s: SchemaNode | undefined = n?.schema?.dataChildren().find((d) => d.name === name);
            n = n && s ? single(n, s) : undefined;
          }
          if (n?.value === undefined) break;
          values.push(n.value);
        }
        if (values.length !== spec.length) continue;
        const k = values.join('\u0000');
        const other = seen.get(k);
        if (other) {
          const p = pathOfNode(entry);
          errors.push({
            errorType: 'application',
            errorTag: 'operation-failed',
            errorAppTag: 'data-not-unique',
            errorMessage: `entries of list "${list.name}" share the unique values ${spec.join(' ')}`,
            errorPath: p.path,
            errorPathNamespaces: p.namespaces,
            errorInfo: { 'non-unique': pathOfNode(other).path },
          });
          return;
        }
        seen.set(k, entry);
      }
    }
    void parent;
  }
}

function requiresInstance(s: SchemaNode): boolean {
  const t = s.type;
  if (!t) return false;
  if (t.base === 'leafref') return t.requireInstance !== false;
  if (t.base === 'instance-identifier') return t.requireInstance !== false;
  return false;
}

function* choicesOf(schema: SchemaNode): Generator<SchemaNode> {
  for (const c of schema.children) {
    if (c.kind === 'choice') {
      yield c;
      for (const cs of c.children) if (cs.kind === 'case') yield* choicesOf(cs);
    }
  }
}

/** Whether a schema child sits in the active (or, with none active, the default) case of its choices. */
function inActive(node: DataNode, child: SchemaNode): boolean {
  for (let s: SchemaNode | undefined = child.parent; s && s !== node.schema; s = s.parent) {
    if (s.kind !== 'case') continue;
    const active = activeCase(node, s.parent!);
    if (active !== s) return false;
  }
  return true;
}
