import type { DataNode } from '@yangkit/yang-json-codec';

const ORIGIN = { module: 'ietf-origin', name: 'origin' } as const;

function hasOrigin(n: DataNode): boolean {
  return n.annotations?.some((x) => x.module === ORIGIN.module && x.name === ORIGIN.name) === true;
}

/** The `ietf-origin:origin` of a node: its own annotation or, as RFC 8342 section 5.3.4 says, its parent's. */
function originOf(node: DataNode | undefined): string | undefined {
  for (let n = node; n !== undefined; n = n.parent) {
    const a = n.annotations?.find((x) => x.module === ORIGIN.module && x.name === ORIGIN.name);
    if (a !== undefined) return a.value;
  }
  return undefined;
}

/**
 * Gives each target node the origin it inherits from ancestors that the response leaves out, so
 * that a data resource's origin is stated on its top node.
 */
export function keepInheritedOrigin(nodes: readonly DataNode[]): void {
  for (const n of nodes) {
    if (hasOrigin(n)) continue;
    const value = originOf(n.parent);
    if (value !== undefined) n.annotations = [...(n.annotations ?? []), { ...ORIGIN, value }];
  }
}

/** Gives origin `system` to `nodes` (RFC 8342 section 5.3.4: state the server itself reports). */
export function markSystemOrigin(nodes: Iterable<DataNode>): void {
  for (const n of nodes) {
    if (!hasOrigin(n)) n.annotations = [...(n.annotations ?? []), { ...ORIGIN, value: 'ietf-origin:system' }];
  }
}

/**
 * Gives origin `default` to the nodes that are not in `before` and have none (RFC 8342 section
 * 5.3.4: values from a schema default, which the with-defaults mode added).
 */
export function markDefaultOrigin(nodes: Iterable<DataNode>, before: ReadonlySet<DataNode>): void {
  for (const n of nodes) {
    if (before.has(n) || hasOrigin(n)) continue;
    n.annotations = [...(n.annotations ?? []), { ...ORIGIN, value: 'ietf-origin:default' }];
  }
}
