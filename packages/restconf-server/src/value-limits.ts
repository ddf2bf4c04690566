import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import type { Settings } from './context.js';
import { RestconfError } from './errors.js';

/** Default longest list key value in UTF-8 bytes (`maxKeyLength`). */
export const MAX_KEY_LENGTH = 1024;
/** Default longest leaf or leaf-list value in UTF-8 bytes (`maxStringLength`). */
export const MAX_STRING_LENGTH = 1024 * 1024;

/** The value length limits, as the codec's decode options take them. */
export function valueLimits(s: Settings): { maxKeyLength: number; maxStringLength: number } {
  return { maxKeyLength: s.maxKeyLength, maxStringLength: s.maxStringLength };
}

/**
 * Refuses a request URI whose list key is longer than `maxKeyLength` (400 invalid-value naming the
 * limit, before any work): keys come back in Location headers and error paths.
 */
export function checkKeyLengths(s: Settings, resolved: ResolvedApiPath | undefined): void {
  for (const step of resolved?.steps ?? []) {
    for (const key of step.keys ?? []) {
      if (key.value.length <= s.maxKeyLength / 3 || Buffer.byteLength(key.value) <= s.maxKeyLength) continue;
      throw new RestconfError(
        'REQUEST_INVALID',
        `the list key "${key.name}" of ${step.node.name} is longer than the limit of ${s.maxKeyLength} bytes`,
        { errorType: 'protocol', errorTag: 'invalid-value' },
      );
    }
  }
}
