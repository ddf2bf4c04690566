import { finishInSlices, type InstanceTree, indexTreeSteps, type Steps } from '@yangkit/yang-json-codec';

/**
 * Builds the key indexes of the big lists of `trees` (datastores loaded or replaced whole) in slices
 * of a few milliseconds between other work, from the next turn on, until `stopped()` (the server
 * closed) turns true. Without it the first lookup by key in a list of 500,000 entries (a GET or an
 * edit of one entry, a NACM rule naming keys) builds that list's index in one run, holding every
 * other request for a fraction of a second; a lookup the work has not reached yet still does (see
 * the codec's `indexTreeSteps`).
 */
export function indexInBackground(trees: readonly InstanceTree[], stopped: () => boolean): void {
  function* steps(): Steps<void> {
    for (const tree of trees) {
      const indexing = indexTreeSteps(tree);
      while (!stopped() && indexing.next().done !== true) yield;
    }
  }
  setImmediate(() => {
    finishInSlices(steps()).catch(() => undefined);
  });
}
