import type { ApiPath, ResolvedApiPath, ResolvedStep } from '@yangkit/restconf-uri';
import { RestconfError } from './errors.js';

/** The key value that matches every entry when wildcard keys are on (`--wildcard-keys`), written bare. */
export const WILDCARD_KEY = '*';

/** True when the segment wrote a key value as a bare `*`; `%2A` is a literal key. */
function hasWildcard(path: ApiPath, index: number): boolean {
  return (path.segments[index]?.wildcards?.length ?? 0) > 0;
}

/**
 * Applies wildcard keys to a resolved data resource path: a list key value (or leaf-list value)
 * written as a bare `*` in the last segment of `path` matches every entry, so that step loses that
 * key and the read selects all matching entries (a subtree filter without the content match node,
 * RFC 6241 section 6.2.5). A `*` written `%2A` is the literal key `*`. Only reads may use it: an
 * edit must name one instance (RFC 8040 section 3.5.3).
 *
 * @throws {RestconfError} `REQUEST_INVALID` (400) for a wildcard in another segment or in a
 *   request other than GET or HEAD
 */
export function applyWildcardKeys(resolved: ResolvedApiPath, path: ApiPath, method: string): ResolvedApiPath {
  const steps = resolved.steps;
  const lastIndex = steps.length - 1;
  if (!steps.some((_, i) => hasWildcard(path, i))) return resolved;
  const bad = (message: string) =>
    new RestconfError('REQUEST_INVALID', message, { errorTag: 'invalid-value' });
  if (steps.slice(0, lastIndex).some((_, i) => hasWildcard(path, i))) {
    throw bad(`a wildcard key "${WILDCARD_KEY}" is allowed only in the last path segment`);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    throw bad(`a wildcard key "${WILDCARD_KEY}" is allowed only in GET and HEAD requests`);
  }
  const last = steps[lastIndex]!;
  const wild = new Set(path.segments[lastIndex]!.wildcards);
  const keys = last.keys?.filter((_, i) => !wild.has(i));
  const step: ResolvedStep = {
    node: last.node,
    ...(keys === undefined || keys.length === 0 ? {} : { keys }),
  };
  return { steps: [...steps.slice(0, lastIndex), step] };
}

/**
 * True when the last step of a resolved path names a list or leaf-list without its key: a
 * wildcard answer, which may hold several instances.
 */
export function selectsSeveral(resolved: ResolvedApiPath): boolean {
  const last = resolved.steps[resolved.steps.length - 1];
  return (
    (last?.node.kind === 'list' || last?.node.kind === 'leaf-list') &&
    last.keys === undefined &&
    last.value === undefined
  );
}
