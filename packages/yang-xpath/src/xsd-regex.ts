import { translateXsdRegex, YangTypeError } from '@yangkit/yang-schema';
import { XPathEvaluationError } from './errors.js';

const CACHE_SIZE = 256;
const cache = new Map<string, RegExp>();

/**
 * Compiles (and caches) the XSD pattern of a `re-match()` call (RFC 7950 10.2.1). The translation
 * is yang-schema's, the one `pattern` restrictions use, so both read a pattern the same way.
 */
export function compileXsdRegex(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (regex !== undefined) return regex;
  try {
    regex = translateXsdRegex(pattern);
  } catch (error) {
    if (!(error instanceof YangTypeError)) throw error;
    throw new XPathEvaluationError(
      'INVALID_REGEX',
      `invalid XSD pattern '${pattern}': ${error.message}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, regex);
  return regex;
}
