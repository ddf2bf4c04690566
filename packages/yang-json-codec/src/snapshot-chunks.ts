/**
 * A reader that shares nodes with a datastore (`ChangeLog.hold`): it is told, synchronously,
 * before the datastore next changes in place, and must then stop using the shared nodes.
 */
export interface DetachableRead {
  /** Sets what to do when the datastore is about to change. */
  onDetach(detach: () => void): void;
}

/**
 * The chunks of an encoder that walks a tree shared with the datastore, kept one snapshot: when the
 * datastore is about to change in place (between two chunks, as encoding is synchronous), the rest
 * of the document is encoded at once, from the nodes as they still are, and the chunks go on from
 * that text. Until then a chunk is encoded only when it is asked for (by an HTTP response, a NETCONF
 * reply), so memory stays one chunk whatever the size of the document; a detached read holds the
 * rest of its text instead.
 */
export function snapshotChunks(chunks: Iterable<string>, read: DetachableRead): Generator<string> {
  const encoder = chunks[Symbol.iterator]();
  const state: { rest?: string[] } = {};
  // Set now, not when the first chunk is asked for: the tree must not change from here on.
  read.onDetach(() => {
    const rest: string[] = [];
    for (let next = encoder.next(); !next.done; next = encoder.next()) rest.push(next.value);
    state.rest = rest;
  });
  return continued(encoder, state);
}

function* continued(encoder: Iterator<string>, state: { rest?: string[] }): Generator<string> {
  for (;;) {
    const rest = state.rest;
    if (rest !== undefined) {
      // Each chunk is dropped once given out.
      for (let chunk = rest.shift(); chunk !== undefined; chunk = rest.shift()) yield chunk;
      return;
    }
    const next = encoder.next();
    if (next.done) return;
    yield next.value;
  }
}
