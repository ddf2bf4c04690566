import { type DataNode, ownOrigin } from '@yangkit/yang-json-codec';

/**
 * Gives origin `system` to `nodes`, state the handler itself adds to a read (RFC 8342 section
 * 5.3.4: state the server itself reports); the view writes it as the node's own.
 */
export function markSystemOrigin(nodes: Iterable<DataNode>): void {
  for (const n of nodes) {
    if (ownOrigin(n) === undefined)
      n.annotations = [
        ...(n.annotations ?? []),
        { module: 'ietf-origin', name: 'origin', value: 'ietf-origin:system' },
      ];
  }
}
