import type { InstanceTree } from './instance';
import type { OriginRule } from './origin';
import { finishInSlices, finishSteps, type Steps } from './steps';
import type { NodeFilter } from './view';

/**
 * A reader that shares nodes with a datastore (`ChangeLog.hold`): it is told, synchronously,
 * before the datastore next changes in place, and must then stop using the shared nodes.
 */
export interface DetachableRead {
  /** Sets what to do when the datastore is about to change. */
  onDetach(detach: () => void): void;
}

/**
 * A read whose tree shares nodes with a datastore instead of copying them, written through an
 * encoder's view: the datastore (netconf-server's `LocalSession.readShared`, a RESTCONF `Backend`)
 * calls the reader's detach, synchronously, before it next changes in place, until `release`, so
 * what is written stays one snapshot (see {@link snapshotChunks}).
 */
export interface SharedRead extends DetachableRead {
  /** The data read; the caller must not change it. */
  readonly tree: InstanceTree;
  /**
   * With `withOrigin`: the origin of each node (RFC 8342 section 5.3.4), for the encoders' view
   * (its `origin`), which writes the annotations the tree does not hold; absent: the tree's own
   * `ietf-origin:origin` annotations, inherited below.
   */
  readonly origin?: OriginRule;
  /**
   * Access control (RFC 8341 section 3.4.5): what the user may not read of `tree`, judged from the
   * datastore root, for the encoders' view (its `filter`), which leaves it out as it writes;
   * absent: `tree` holds only what the user may read.
   */
  readonly filter?: NodeFilter;
  /**
   * What to do, synchronously, when the datastore is about to change while the read is held: copy
   * (or write out) what is still to be used.
   */
  onDetach(detach: () => void): void;
  /** The caller is done with `tree` (written, failed, or gone): the datastore forgets the reader. */
  release(): void;
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
    state.rest = textOf(encoder);
  });
  return continued(encoder, state);
}

/**
 * {@link snapshotChunks} of a document made from what `steps` first compute on a held read (a
 * selection, what a user may read, a page: work in proportion to the data): the steps run in slices
 * of a few milliseconds (see `finishInSlices`) with the read held, then `chunks` encodes their
 * result. When the datastore is about to change while they run, the rest of them runs at once and
 * the whole document is encoded then, from the nodes as they still are: it stays one snapshot of the
 * moment the read was held. Rejects with what the steps (or that encoding) throw, or once
 * `abandoned` (the reader is gone) turns true between two steps; the caller releases the read then.
 */
export async function snapshotAfterSteps<T>(
  read: DetachableRead,
  steps: Steps<T>,
  chunks: (result: T) => Iterable<string>,
  abandoned: () => boolean = () => false,
): Promise<Generator<string>> {
  let detached: { readonly rest: string[] } | { readonly error: unknown } | undefined;
  read.onDetach(() => {
    // Within the datastore's change: a failure is rethrown by the run below, not into the change.
    try {
      detached = { rest: textOf(chunks(finishSteps(steps))[Symbol.iterator]()) };
    } catch (error) {
      detached = { error };
    }
  });
  function* run(): Steps<Generator<string>> {
    for (;;) {
      if (detached !== undefined) {
        if ('error' in detached) throw detached.error;
        return given(detached.rest);
      }
      if (abandoned()) throw new Error('the read was abandoned');
      const next = steps.next();
      if (next.done === true) return snapshotChunks(chunks(next.value), read);
      yield;
    }
  }
  return finishInSlices(run());
}

function* continued(encoder: Iterator<string>, state: { rest?: string[] }): Generator<string> {
  for (;;) {
    const rest = state.rest;
    if (rest !== undefined) {
      yield* given(rest);
      return;
    }
    const next = encoder.next();
    if (next.done) return;
    yield next.value;
  }
}

/**
 * The rest of an encoder's chunks, encoded at once: those with text (an empty chunk is a step, of no
 * use to text already made).
 */
function textOf(encoder: Iterator<string>): string[] {
  const rest: string[] = [];
  for (let next = encoder.next(); next.done !== true; next = encoder.next())
    if (next.value !== '') rest.push(next.value);
  return rest;
}

/** The chunks of `rest`, each dropped once given out. */
function* given(rest: string[]): Generator<string> {
  for (let chunk = rest.shift(); chunk !== undefined; chunk = rest.shift()) yield chunk;
}
