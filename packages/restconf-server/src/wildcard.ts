import type { ResolvedApiPath, ResolvedStep } from '@yangkit/restconf-uri';
import { RestconfError } from './errors.js';

/** The key value that matches every entry when wildcard keys are on (`--wildcard-keys`). */
export const WILDCARD_KEY = '*';

function hasWildcard(step: ResolvedStep): boolean {
  return step.value === WILDCARD_KEY || (step.keys?.some((k) => k.value === WILDCARD_KEY) ?? false);
}

/**
 * Applies wildcard keys to a resolved data resource path: a list key value of `*` (or a leaf-list
 * value of `*`) in the last segment matches every entry, so that step loses that key and the read
 * selects all matching entries (a subtree filter without the content match node, RFC 6241 section
 * 6.2.5). Only reads may use it: an edit must name one instance (RFC 8040 section 3.5.3).
 *
 * @throws {RestconfError} `REQUEST_INVALID` (400) for a wildcard in another segment or in a
 *   request other than GET or HEAD
 */
export function applyWildcardKeys(resolved: ResolvedApiPath, method: string): ResolvedApiPath {
  const steps = resolved.steps;
  const lastIndex = steps.length - 1;
  if (!steps.some(hasWildcard)) return resolved;
  const bad = (message: string) =>
    new RestconfError('REQUEST_INVALID', message, { errorTag: 'invalid-value', status: 400 });
  if (steps.slice(0, lastIndex).some(hasWildcard)) {
    throw bad(`a wildcard key "${WILDCARD_KEY}" is allowed only in the last path segment`);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    throw bad(`a wildcard key "${WILDCARD_KEY}" is allowed only in GET and HEAD requests`);
  }
  const last = steps[lastIndex]!;
  const keys = last.keys?.filter((k) => k.value !== WILDCARD_KEY);
  const step: ResolvedStep = {
    node: last.node,
    ...(keys === undefined || keys.length === 0 ? {} : { keys }),
  };
  return { steps: [...steps.slice(0, lastIndex), step] };
}
