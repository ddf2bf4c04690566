import { findLongKey, type ResolvedApiPath } from '@yangkit/restconf-uri';
import type { Settings } from './context.js';
import { RestconfError } from './errors.js';

/** Default longest list key value in UTF-8 bytes (`maxKeyLength`). */
export const MAX_KEY_LENGTH = 1024;
/** Default longest leaf or leaf-list value in UTF-8 bytes (`maxStringLength`). */
export const MAX_STRING_LENGTH = 1024 * 1024;

/**
 * Default most data nodes in one request body (`maxBodyNodes`): list entries, containers and
 * leaves each count one. Decoding and applying a body costs time in proportion to its nodes while
 * the event loop serves nothing else, so the count is bounded as well as the bytes.
 */
export const MAX_BODY_NODES = 200_000;

/** The limits of a decoded request body (value lengths, node count), as the codec's decode options take them. */
export function valueLimits(s: Settings): {
  maxKeyLength: number;
  maxStringLength: number;
  maxNodes: number;
} {
  return { maxKeyLength: s.maxKeyLength, maxStringLength: s.maxStringLength, maxNodes: s.maxBodyNodes };
}

/**
 * Refuses a request URI whose list key is longer than `maxKeyLength` (400 invalid-value naming the
 * limit, before any work): keys come back in Location headers and error paths.
 */
export function checkKeyLengths(s: Settings, resolved: ResolvedApiPath | undefined): void {
  const long = resolved === undefined ? undefined : findLongKey(resolved, s.maxKeyLength);
  if (long === undefined) return;
  throw new RestconfError(
    'REQUEST_INVALID',
    `the list key "${long.key.name}" of ${long.step.node.name} is longer than the limit of ${s.maxKeyLength} bytes`,
    { errorType: 'protocol', errorTag: 'invalid-value' },
  );
}
