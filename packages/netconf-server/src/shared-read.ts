import {
  cloneNode,
  type Detach,
  type InstanceTree,
  type SharedRead,
  type Steps,
  snapshotAfterSteps,
  snapshotChunks,
} from '@yangkit/yang-json-codec';
import type { Datastore } from './datastore.js';
import type { ReplyPieces } from './reply.js';

export type { SharedRead };

/**
 * Holds `datastore` for a reader of `tree`, which shares nodes with it: call it in the same
 * synchronous run as the read of `datastore.tree` that made `tree` (a commit may give a datastore
 * another tree), after every check that can fail (a failure would leave the hold). `view`: the
 * read's `origin` and `filter`.
 */
export function holdRead(
  datastore: Datastore,
  tree: InstanceTree,
  view: Pick<SharedRead, 'origin' | 'filter'> = {},
): SharedRead {
  // Until the reader says what it does (with its first chunk, see `sharedReply`): go on from a copy
  // of what was read, made at once, as the reader may start from any node of it at any time.
  let detach: Detach = () => {
    for (const [schema, nodes] of tree.children)
      tree.children.set(
        schema,
        nodes.map((n) => cloneNode(n, undefined)),
      );
    return undefined;
  };
  const release = datastore.hold(() => detach());
  return {
    tree,
    ...view,
    onDetach: (d) => {
      detach = d;
    },
    release,
  };
}

/**
 * A reply written in pieces from the chunks of an encoder walking a held read's tree: one snapshot
 * (when the datastore is about to change, the rest is encoded first, in slices when the change waits
 * for it, see the codec's `snapshotChunks`), the hold released once the reply is written or abandoned.
 */
export function sharedReply(read: SharedRead, chunks: Iterable<string>): ReplyPieces {
  return { pieces: snapshotChunks(chunks, read), release: () => read.release() };
}

/**
 * {@link sharedReply} of a tree made in steps from a held read's tree (what the user may read, a
 * filter's selection: work in proportion to the data), the steps run in slices with the hold kept,
 * so that neither they nor the reply hold the event loop; one snapshot of the moment the read was
 * held, whatever changes meanwhile (see the codec's `snapshotAfterSteps`). Rejects with what the
 * steps throw (before the reply's first byte, so still an `<rpc-error>`), or when `abandoned` (the
 * session ended) turns true between two steps; the hold is released then.
 */
export async function sharedReplyInSlices(
  read: SharedRead,
  steps: Steps<InstanceTree>,
  chunks: (tree: InstanceTree) => Iterable<string>,
  abandoned: () => boolean,
): Promise<ReplyPieces> {
  try {
    return {
      pieces: await snapshotAfterSteps(read, steps, chunks, abandoned),
      release: () => read.release(),
    };
  } catch (error) {
    read.release();
    throw error;
  }
}
