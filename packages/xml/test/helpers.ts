import { XmlError } from '../src/index.js';

/** The XmlError `fn` throws (failing the test when it throws something else or nothing). */
export function xmlErrorOf(fn: () => unknown): XmlError {
  try {
    fn();
  } catch (error) {
    if (XmlError.isInstance(error)) return error;
    throw new Error(`expected an XmlError, got ${String(error)}`);
  }
  throw new Error('expected an XmlError, nothing was thrown');
}
