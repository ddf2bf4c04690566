import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import { pathOfSteps } from '@yangkit/yang-json-codec';
import type { DatastoreName } from './backend.js';
import type { Settings } from './context.js';
import { RestconfError } from './errors.js';
import { toPathSteps } from './instances.js';

/**
 * Refuses an edit with 403 access-denied before its body is read when the backend's access
 * control lets the user write nothing at or below the target (RFC 8341 section 3.4.5): a big body
 * from a user who may not write costs neither decoding time nor memory.
 */
export function checkWriteAccess(
  s: Settings,
  user: string | undefined,
  resolved: ResolvedApiPath | undefined,
  datastore?: DatastoreName,
): void {
  if (s.backend.deniesWrite === undefined) return;
  const target = resolved === undefined ? [] : toPathSteps(resolved);
  const request = { user, target, ...(datastore === undefined ? {} : { datastore }) };
  if (!s.backend.deniesWrite(request)) return;
  const errorPath = target.length === 0 ? undefined : pathOfSteps(s.schema, target);
  throw new RestconfError(
    'ACCESS_DENIED',
    `write access to ${errorPath?.json ?? 'the datastore'} is denied`,
    {
      // As the backend's own refusal of a write (RFC 8341 section 3.4.5): an application error.
      errorType: 'application',
      errorTag: 'access-denied',
      errorPath,
    },
  );
}
