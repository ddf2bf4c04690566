import { RestconfUriError } from '../../src/index.js';

/** Runs `fn` and returns the RestconfUriError it throws (fails on anything else). */
export function errorOf(fn: () => unknown): RestconfUriError {
  try {
    fn();
  } catch (error) {
    if (RestconfUriError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a RestconfUriError, nothing was thrown');
}
