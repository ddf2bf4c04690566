// Work in steps (a generator that yields between slices of its work) is defined once, in the XML
// layer, the lowest one that works in steps: netconf-client reads big messages with it too.
export {
  finishInSlices,
  finishSteps,
  ITEMS_PER_STEP,
  joinSteps,
  SLICE_MS,
  type SliceOptions,
  type Steps,
} from '@yangkit/xml';
