import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc`, as a context made with `--expose-gc` has it. */
type Gc = (options?: { type: 'major' | 'minor' }) => void;

/** The two collections the restconf handler runs once the gateway is quiet. */
export interface GarbageCollectors {
  /** One full collection that compacts every page (`collectGarbage`). */
  readonly full: () => void;
  /** One collection of the young generation (`collectYoungGeneration`). */
  readonly young: () => void;
}

/**
 * Garbage collections run on demand, without starting Node with `--expose-gc`. The flag is set
 * only while a fresh context is made, whose global `gc` runs on the process's one heap, then
 * unset, so that no other context (the application's, or a `vm` one made later) gets a `gc`
 * global. A plain full collection frees the garbage but compacts only the pages V8 finds
 * fragmented enough, leaving most of the grown heap committed when a datastore's objects are
 * spread over it; compacting every page lets V8 give the emptied pages back. The young generation
 * keeps the size load grew it to (up to 32 MB, resident) until a collection finds little allocated
 * for a while: the handler runs a minor one then, which is what lets V8 shrink it.
 */
export function garbageCollectors(): GarbageCollectors {
  setFlagsFromString('--expose-gc');
  let gc: Gc;
  try {
    gc = runInNewContext('gc') as Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return {
    full: () => {
      setFlagsFromString('--compact-on-every-full-gc');
      try {
        gc();
      } finally {
        setFlagsFromString('--no-compact-on-every-full-gc');
      }
    },
    young: () => gc({ type: 'minor' }),
  };
}
