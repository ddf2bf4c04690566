import type { SchemaNode } from '@yangkit/yang-schema';
import { type ChildPairs, type Group, instanceOf, mapGroups, sizeOf } from './child-map';
import type { Annotation, ChildHolder, DataNode } from './instance';
import { withAnnotations } from './instance';

/** The module of the `origin` metadata annotation (RFC 8342 section 7). */
export const ORIGIN_MODULE = 'ietf-origin';

/** The origin of a value that a schema default gives (RFC 8342 section 5.3.4 `or:default`). */
export const DEFAULT_ORIGIN = 'ietf-origin:default';

/**
 * The RFC 8342 section 5.3.4 origin of a node of the operational datastore, as an `ietf-origin`
 * identity (`ietf-origin:intended`, `ietf-origin:system`, ...), given the origin of its parent
 * (undefined at the top): what a server knows of where its data comes from. Undefined: none.
 */
export type OriginRule = (node: DataNode, parentOrigin: string | undefined) => string | undefined;

/** The node's own `ietf-origin:origin` annotation (as a NETCONF server writes it), if any. */
export function ownOrigin(node: DataNode): string | undefined {
  const anns = node.annotations;
  if (anns === undefined) return undefined;
  for (const a of anns) if (a.module === ORIGIN_MODULE && a.name === 'origin') return a.value;
  return undefined;
}

function originAnnotation(value: string): Annotation {
  return { module: ORIGIN_MODULE, name: 'origin', value };
}

/**
 * The origins of the nodes of one tree under a rule. A node's origin is its own annotation when it
 * has one, `default` at and below a value the view added by with-defaults, and otherwise the rule's.
 */
export class Origins {
  constructor(private readonly rule: OriginRule) {}

  /** The origin of `node`, from its parent's. */
  below(node: DataNode, parentOrigin: string | undefined): string | undefined {
    return (
      ownOrigin(node) ?? (parentOrigin === DEFAULT_ORIGIN ? parentOrigin : this.rule(node, parentOrigin))
    );
  }

  /** The origin of `node` (undefined: the datastore), from its ancestors': a node's parent is the datastore's. */
  of(node: DataNode | undefined): string | undefined {
    return node === undefined ? undefined : this.below(node, this.of(node.parent));
  }

  /**
   * `pairs`, the child groups a view writes of `holder`, with the `origin` annotation on each node
   * whose origin differs from the one written above it (RFC 8342 section 5.3.4: the others inherit
   * theirs): a copy of a node of the tree, or the node itself when the view made it (a default).
   * `inner`: false for a document, above which nothing is written (each top-level node states its
   * origin, the one its ancestors in the datastore give it).
   */
  annotate(holder: ChildHolder, pairs: ChildPairs, inner: boolean): ChildPairs {
    const written = inner ? this.of(holder as DataNode) : undefined;
    let lastParent: DataNode | undefined;
    let parentOrigin: string | undefined;
    return mapGroups(pairs, (schema: SchemaNode, group: Group) => {
      // A group the holder lacks is one with-defaults added: its nodes are new, the view's own.
      const added = holder.children?.has(schema) !== true;
      let copies: DataNode[] | undefined;
      for (let k = 0; k < sizeOf(group); k++) {
        const node = instanceOf(group, k);
        if (!inner && node.parent !== lastParent) {
          lastParent = node.parent;
          parentOrigin = this.of(lastParent);
        }
        const origin = added ? DEFAULT_ORIGIN : this.below(node, inner ? written : parentOrigin);
        if (origin === undefined || origin === written || ownOrigin(node) !== undefined) continue;
        const annotations = [...(node.annotations ?? []), originAnnotation(origin)];
        if (added) {
          node.annotations = annotations;
          continue;
        }
        copies ??= Array.from({ length: sizeOf(group) }, (_, j) => instanceOf(group, j));
        copies[k] = withAnnotations(node, annotations);
      }
      return copies ?? group;
    });
  }
}
