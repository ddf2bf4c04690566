import {
  cloneNode,
  cloneTree,
  finishInSlices,
  finishSteps,
  type InstanceTree,
  type SharedRead,
  type Steps,
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
  let detach = (): void => {
    for (const [schema, nodes] of tree.children)
      tree.children.set(
        schema,
        nodes.map((n) => cloneNode(n, undefined)),
      );
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
 * (when the datastore is about to change, the rest is encoded at once, see the codec's
 * `snapshotChunks`), the hold released once the reply is written or abandoned.
 */
export function sharedReply(read: SharedRead, chunks: Iterable<string>): ReplyPieces {
  return { pieces: snapshotChunks(chunks, read), release: () => read.release() };
}

/**
 * {@link sharedReply} of a tree made in steps from a held read's tree (what the user may read, a
 * filter's selection: work in proportion to the data), the steps run in slices with the hold kept,
 * so that neither they nor the reply hold the event loop. When the datastore is about to change
 * while they run, the rest runs at once and what it made is copied out of the datastore's nodes: the
 * reply stays one snapshot of the moment the read was held. The reply is made in the run of the last
 * step, so no change comes between. Rejects with what the steps throw (before the reply's first
 * byte, so still an `<rpc-error>`), or when `abandoned` (the session ended) turns true between two
 * steps; the hold is released then.
 */
export async function sharedReplyInSlices(
  read: SharedRead,
  steps: Steps<InstanceTree>,
  chunks: (tree: InstanceTree) => Iterable<string>,
  abandoned: () => boolean,
): Promise<ReplyPieces> {
  let detached: { readonly tree: InstanceTree } | { readonly error: unknown } | undefined;
  read.onDetach(() => {
    // Called within the datastore's change: what the steps throw is rethrown by the reply's run.
    try {
      detached = { tree: cloneTree(finishSteps(steps)) };
    } catch (error) {
      detached = { error };
    }
  });
  const reply = (tree: InstanceTree) => sharedReply({ ...read, tree }, chunks(tree));
  function* run(): Steps<ReplyPieces> {
    for (;;) {
      if (detached !== undefined) {
        if ('error' in detached) throw detached.error;
        return reply(detached.tree);
      }
      if (abandoned()) throw new Error('the read was abandoned');
      const next = steps.next();
      if (next.done === true) return reply(next.value);
      yield;
    }
  }
  try {
    return await finishInSlices(run());
  } catch (error) {
    read.release();
    throw error;
  }
}
