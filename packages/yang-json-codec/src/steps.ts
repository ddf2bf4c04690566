// Work in steps (a generator that yields between slices of its work) is defined once, in the XML
// layer, the lowest one that works in steps: netconf-client reads big messages with it too.
import { ITEMS_PER_STEP, type Slices } from '@yangkit/xml';

export {
  finishInSlices,
  finishSteps,
  ITEMS_PER_STEP,
  joinSteps,
  oneStep,
  SLICE_MS,
  type SliceOptions,
  Slices,
  type Steps,
  StepsQueue,
} from '@yangkit/xml';

/** Counts the items a piece of work in steps handles: a step every {@link ITEMS_PER_STEP}. */
export class StepCounter {
  #seen = 0;

  /** Counts one item; true when a step is due. */
  next(): boolean {
    return ++this.#seen % ITEMS_PER_STEP === 0;
  }
}

/**
 * The next chunk of `chunks` (a chunked encoder's, or pieces made from them) that holds text, or the
 * end. An encoder yields an empty chunk at each step of work that writes nothing yet (judging a big
 * list ahead of its first entry, see `encodeJsonChunks`): those are skipped here, the event loop
 * getting a turn whenever `slices` says the slice is over, so that a consumer pulling chunks never
 * holds it for the whole of that work.
 */
export async function nextText(chunks: Iterator<string>, slices: Slices): Promise<IteratorResult<string>> {
  for (;;) {
    const next = chunks.next();
    if (next.done === true || next.value !== '') return next;
    if (slices.due) await slices.turn();
  }
}
