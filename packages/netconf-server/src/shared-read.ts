import {
  cloneNode,
  type InstanceTree,
  type NodeFilter,
  type OriginRule,
  snapshotChunks,
} from '@yangkit/yang-json-codec';
import type { Datastore } from './datastore.js';
import type { ReplyPieces } from './reply.js';

/**
 * A read that shares nodes with the datastore instead of copying them (see
 * `LocalSession.readShared`). Until {@link SharedRead.release}, the datastore lets the reader
 * detach before it changes in place.
 */
export interface SharedRead {
  /** The data read; the caller must not change it. */
  readonly tree: InstanceTree;
  /**
   * With `withOrigin`: the origin of each node (RFC 8342 section 5.3.4), for the encoders' view
   * (its `origin`), which writes the annotations the tree does not hold.
   */
  readonly origin?: OriginRule;
  /**
   * RFC 8341 section 3.4.5: what the user may not read of `tree` (from the datastore root), for the
   * encoders' view (its `filter`), which leaves it out as it writes; absent: all is readable.
   */
  readonly filter?: NodeFilter;
  /**
   * What to do, synchronously, when the datastore is about to change while the read is held: copy what
   * is still to be used. By default, `tree` is made a copy of itself in place (its top-level groups
   * replaced by deep copies), which suits a caller that has not started to walk it.
   */
  onDetach(detach: () => void): void;
  /** The caller is done with `tree` (or stops using it): the datastore forgets the reader. */
  release(): void;
}

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
