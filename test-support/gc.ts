import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc` as `--expose-gc` gives it: `gc()` a full collection, `gc({ type: 'minor' })` a young one. */
export type Gc = (options?: { type: 'major' | 'minor' }) => void;

/**
 * V8's `gc`, taken without starting the test process with `--expose-gc` (as the gateway takes it):
 * the flag is set only while a fresh context is made, whose global `gc` runs on the process's heap.
 */
export function exposedGc(): Gc {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Gc;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
