import type { NodeImpl } from '../schema-node';
import { isTransparent } from '../schema-node';
import type { CompileContext } from './context';

/**
 * Computes what depends on the final tree shape: config inheritance (RFC 7950 7.21.1), operation
 * membership, list keys (7.8.2), schema and data paths. Runs after augments and deviations.
 */
export function finalizeTree(
  ctx: CompileContext,
  nodes: readonly NodeImpl[],
  parent: NodeImpl | undefined,
  structure = false,
): void {
  for (const n of nodes) finalizeNode(ctx, n, parent, structure);
  if (!parent) {
    const top: NodeImpl[] = [];
    for (const n of nodes) {
      if (isTransparent(n.kind)) top.push(...n.dataChildren());
      else top.push(n);
    }
    checkDistinct(ctx, top, '/');
  }
}

/**
 * RFC 7950 6.2.1: sibling data nodes (choice and case transparent) need distinct names within a
 * namespace, and so do the cases of a choice.
 */
function checkUniqueNames(ctx: CompileContext, n: NodeImpl): void {
  // input and output of an rpc or action are separate trees, each checked on its own
  if (n.kind === 'rpc' || n.kind === 'action') return;
  checkDistinct(ctx, n.kind === 'choice' ? n.children : n.dataChildren(), n.dataPath);
}

function checkDistinct(ctx: CompileContext, list: readonly NodeImpl[], where: string): void {
  const seen = new Set<string>();
  for (const c of list) {
    const key = `${c.module}:${c.name}`;
    if (seen.has(key)) ctx.failAt(`"${c.name}" is defined twice in "${where}"`, c.location, c.module);
    seen.add(key);
  }
}

/** `structure`: inside rc:yang-data / sx:structure, where lists need no key (RFC 8791 section 3). */
function finalizeNode(
  ctx: CompileContext,
  n: NodeImpl,
  parent: NodeImpl | undefined,
  structure: boolean,
): void {
  n.parent = parent;
  if (n.kind === 'rpc' || n.kind === 'action' || n.kind === 'notification' || parent?.isOperation) {
    n.isOperation = true;
    n.config = false;
  } else {
    const inherited = parent ? parent.config : true;
    if (n.explicitConfig === true && !inherited) {
      ctx.failAt(
        `"${n.name}" has config true under a config false node (RFC 7950 7.21.1)`,
        n.location,
        n.module,
      );
    }
    n.config = n.explicitConfig ?? inherited;
  }
  const step = `${n.prefix}:${n.name}`;
  n.schemaPath = `${parent ? parent.schemaPath : ''}/${step}`;
  n.dataPath = parent
    ? `${parent.dataPath}/${parent.module === n.module ? '' : `${n.module}:`}${n.name}`
    : `/${n.module}:${n.name}`;
  for (const c of n.children) finalizeNode(ctx, c, n, structure);
  checkUniqueNames(ctx, n);
  if (n.minElements > n.maxElements) {
    ctx.failAt(
      `"${n.dataPath}" has min-elements ${n.minElements} above max-elements ${n.maxElements}`,
      n.location,
      n.module,
    );
  }
  if (n.kind === 'list') {
    n.keyNodes = n.keys.map((k) => {
      const leaf = n.children.find((c) => c.kind === 'leaf' && c.name === k);
      if (!leaf) return ctx.failAt(`list "${n.dataPath}" has no key leaf "${k}"`, n.location, n.module);
      leaf.isKey = true;
      // RFC 7950 7.8.2: defaults of key leafs (and their types) are ignored.
      // (delete only when set: deleting a property slows every later access to the object)
      if (leaf.default !== undefined) delete leaf.default;
      if (leaf.defaults.length > 0) leaf.defaults = [];
      return leaf;
    });
    if (n.keys.length === 0 && n.config && !n.isOperation && !structure) {
      ctx.failAt(`configuration list "${n.dataPath}" has no key (RFC 7950 7.8.2)`, n.location, n.module);
    }
  }
  if (n.kind === 'choice' && n.default !== undefined && !n.children.some((c) => c.name === n.default)) {
    const d = n.default;
    // The default may also name a shorthand case by its node's name, which is the same name.
    if (!n.children.some((c) => isTransparent(c.kind) && c.children.some((x) => x.name === d))) {
      ctx.failAt(`choice "${n.dataPath}" has no default case "${d}"`, n.location, n.module);
    }
  }
}
