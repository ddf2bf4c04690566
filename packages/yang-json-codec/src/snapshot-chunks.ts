import type { Detach } from './change-log';
import type { InstanceTree } from './instance';
import type { OriginRule } from './origin';
import { SharedSteps } from './shared-steps';
import { finishInSlices, type Steps } from './steps';
import type { NodeFilter } from './view';

/**
 * A reader that shares nodes with a datastore (`ChangeLog.hold`): it is told before the datastore next
 * changes in place, and must then stop using the shared nodes.
 */
export interface DetachableRead {
  /**
   * Sets what to do when the datastore is about to change: copy or write out what is still to be
   * used, at once or in the steps returned, which the datastore runs in slices when it changes in
   * steps (the candidate catching up with running, an edit), else at once.
   */
  onDetach(detach: Detach): void;
}

/**
 * A read whose tree shares nodes with a datastore instead of copying them, written through an
 * encoder's view: the datastore (netconf-server's `LocalSession.readShared`, a RESTCONF `Backend`)
 * has the reader detach before it next changes in place, until `release`, so what is written stays
 * one snapshot (see {@link snapshotChunks}).
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
  /** The caller is done with `tree` (written, failed, or gone): the datastore forgets the reader. */
  release(): void;
}

/**
 * The chunks of an encoder that walks a tree shared with the datastore, kept one snapshot: when the
 * datastore is about to change in place (between two chunks, as encoding is synchronous), the rest
 * of the document is encoded from the nodes as they still are, in steps of a chunk when the change
 * waits for them, and the chunks go on from that text. Until then a chunk is encoded only when it is
 * asked for (by an HTTP response, a NETCONF reply), so memory stays one chunk whatever the size of
 * the document; a detached read holds the rest of its text instead.
 */
export function snapshotChunks(chunks: Iterable<string>, read: DetachableRead): Generator<string> {
  const document = new HeldDocument(chunks);
  // Set now, not when the first chunk is asked for: the tree must not change from here on.
  read.onDetach(() => document.detachSteps());
  return document.chunks();
}

/**
 * {@link snapshotChunks} of a document made from what `steps` first compute on a held read (a
 * selection, what a user may read, a page: work in proportion to the data): the steps run in slices
 * of a few milliseconds (see `finishInSlices`) with the read held, then `chunks` encodes their
 * result. When the datastore is about to change while they run, the rest of them and the whole
 * document are made from the nodes as they still are, in slices of their own when the change waits
 * for them (at once when it does not): it stays one snapshot of the moment the read was held.
 * Rejects with what the steps (or that encoding) throw, or once `abandoned` (the reader is gone)
 * turns true between two steps; the caller releases the read then.
 */
export async function snapshotAfterSteps<T>(
  read: DetachableRead,
  steps: Steps<T>,
  chunks: (result: T) => Iterable<string>,
  abandoned: () => boolean = () => false,
): Promise<Generator<string>> {
  const held = new HeldComputation(steps, chunks);
  read.onDetach(() => held.detachSteps());
  return finishInSlices(held.readerSteps(abandoned));
}

/**
 * What {@link snapshotAfterSteps} computes on a held read, then its document, taken a step at a time
 * by the reader or, once the datastore is about to change, by the detach. Its generators are methods,
 * not closures made for each read: V8 gives the objects of each generator closure called a map of
 * their own, kept in the old generation until a full collection, and every object of the read
 * reachable from it then outlives the minor collections too (at a few thousand reads a second, all
 * of each read's garbage is promoted).
 */
class HeldComputation<T> {
  readonly #computed: SharedSteps<T>;
  readonly #chunks: (result: T) => Iterable<string>;
  #document: HeldDocument | undefined;

  constructor(steps: Steps<T>, chunks: (result: T) => Iterable<string>) {
    this.#computed = new SharedSteps(steps);
    this.#chunks = chunks;
  }

  #documentOf(result: T): HeldDocument {
    this.#document ??= new HeldDocument(this.#chunks(result));
    return this.#document;
  }

  /** The rest of the computation and of the document, from the nodes as they still are. */
  *detachSteps(): Steps<void> {
    // A failure is the reader's, rethrown by readerSteps, not the datastore change's.
    const result = yield* this.#computed.restSteps();
    if (result !== undefined) yield* this.#documentOf(result.value).detachSteps();
  }

  /** The computation, then the document's chunks for the writer. */
  *readerSteps(abandoned: () => boolean): Steps<Generator<string>> {
    for (;;) {
      const result = this.#computed.result();
      if (result !== undefined) return this.#documentOf(result.value).chunks();
      if (abandoned()) throw new Error('the read was abandoned');
      this.#computed.step();
      yield;
    }
  }
}

/**
 * A document encoded from a held tree one chunk at a time as its writer asks, whose rest a detach
 * encodes, a chunk a step, from the tree as it still is: the writer then takes the chunks made, in
 * order, each dropped once given out. An encoding error is the writer's, thrown where it would have
 * met it.
 */
class HeldDocument {
  readonly #encoder: Iterator<string>;
  /** The chunks a detach has made and the writer not yet taken, oldest first. */
  readonly #made: string[] = [];
  #end: { readonly error: unknown } | true | undefined;

  constructor(chunks: Iterable<string>) {
    this.#encoder = chunks[Symbol.iterator]();
  }

  /** The next chunk from the encoder, or the end (kept). */
  #encode(): string | undefined {
    if (this.#end !== undefined) return undefined;
    try {
      const next = this.#encoder.next();
      if (next.done !== true) return next.value;
      this.#end = true;
    } catch (error) {
      this.#end = { error };
    }
    return undefined;
  }

  /** The rest of the document encoded, a chunk a step (an empty chunk, a step of no text, is dropped). */
  *detachSteps(): Steps<void> {
    for (;;) {
      const chunk = this.#encode();
      if (chunk === undefined) return;
      if (chunk !== '') this.#made.push(chunk);
      yield;
    }
  }

  /** The chunks for the writer: those a detach made first, then the encoder's. */
  *chunks(): Generator<string> {
    for (;;) {
      const chunk = this.#made.shift() ?? this.#encode();
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      if (this.#end !== true && this.#end !== undefined) throw this.#end.error;
      return;
    }
  }
}
