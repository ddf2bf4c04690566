import type { MustConstraint, SchemaTree, WhenCondition } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath } from '@yangkit/yang-xpath';
import { CodecError } from './errors';
import type { DataNode, InstanceTree } from './instance';
import { pathOfNode } from './paths';
import { type TreeNode, treeNavigator } from './xpath-navigator';

const compiled = new WeakMap<object, CompiledXPath>();

/**
 * A `must` or `when` expression compiled once: its prefixes map to the namespaces of the modules they name
 * where it was written, and unprefixed names belong to that module (RFC 7950 section 6.4.1).
 */
function expressionOf(tree: SchemaTree, expr: MustConstraint | WhenCondition): CompiledXPath {
  let c = compiled.get(expr);
  if (c !== undefined) return c;
  const prefixes = new Map<string, string>();
  for (const [prefix, module] of expr.prefixes) {
    const m = tree.moduleByName(module);
    if (m !== undefined) prefixes.set(prefix, m.namespace);
  }
  c = compileXPath(expr.expression, {
    prefixes,
    defaultNamespace: tree.moduleByName(expr.module)?.namespace ?? '',
  });
  compiled.set(expr, c);
  return c;
}

/**
 * The context node of a `when` (RFC 7950 section 7.21.5): the node itself for its own `when`; for one of
 * a `uses` or `augment`, the instance of the data node the statement applies to (the document at the top).
 */
function whenContext(tree: InstanceTree, node: DataNode, when: WhenCondition): TreeNode {
  if (when.origin === 'node') return node;
  for (let p = node.parent; p !== undefined; p = p.parent) if (p.schema === when.contextNode) return p;
  return node.parent ?? tree;
}

/** Evaluates a `must` or `when` as a boolean; an expression that fails to evaluate is an error of its own. */
function holds(
  tree: InstanceTree,
  node: DataNode,
  expr: MustConstraint | WhenCondition,
  context: TreeNode,
  errors: CodecError[],
): boolean {
  try {
    return expressionOf(tree.schema, expr).evaluateBoolean(context, treeNavigator(tree), { current: node });
  } catch (error) {
    const path = pathOfNode(tree.schema, node);
    errors.push(
      new CodecError(
        'XPATH_FAILED',
        `cannot evaluate "${expr.expression}" of ${node.schema.kind} "${node.schema.name}" (${path.json}): ${error instanceof Error ? error.message : String(error)}`,
        { errorTag: 'operation-failed', errorPath: path, cause: error },
      ),
    );
    return true;
  }
}

/** RFC 7950 section 8.3.2: a node whose `when` is false may not exist. */
export function checkWhen(tree: InstanceTree, node: DataNode, errors: CodecError[]): void {
  const when = node.schema.when;
  if (when.length === 0) return;
  for (const w of when) {
    if (holds(tree, node, w, whenContext(tree, node, w), errors)) continue;
    const path = pathOfNode(tree.schema, node);
    errors.push(
      new CodecError(
        'WHEN_VIOLATION',
        `${node.schema.kind} "${node.schema.name}" exists but its when condition "${w.expression}" is false (${path.json})`,
        { errorTag: 'unknown-element', errorAppTag: 'when-violation', errorPath: path },
      ),
    );
  }
}

/** RFC 7950 section 7.5.3: every `must` of the node holds, with the node as context. */
export function checkMust(tree: InstanceTree, node: DataNode, errors: CodecError[]): void {
  const must = node.schema.must;
  if (must.length === 0) return;
  for (const m of must) {
    if (holds(tree, node, m, node, errors)) continue;
    const path = pathOfNode(tree.schema, node);
    errors.push(
      new CodecError(
        'MUST_VIOLATION',
        m.errorMessage ??
          `must condition "${m.expression}" of ${node.schema.kind} "${node.schema.name}" is false (${path.json})`,
        { errorTag: 'operation-failed', errorAppTag: m.errorAppTag ?? 'must-violation', errorPath: path },
      ),
    );
  }
}
