import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full garbage collection that also compacts the heap, without starting Node with
 * `--expose-gc`. The flag is set only while a fresh context is made, whose global `gc` runs on
 * the process's one heap, then unset, so that no other context (the application's, or a `vm`
 * one made later) gets a `gc` global. A plain full collection frees the garbage but compacts
 * only the pages V8 finds fragmented enough, leaving most of the grown heap committed when a
 * datastore's objects are spread over it; compacting every page lets V8 give the emptied pages
 * back. The restconf handler runs it once big request bodies are done (`collectGarbage`).
 */
export function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  let gc: () => void;
  try {
    gc = runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
