import type { ApiPath } from '@yangkit/restconf-uri';
import { RestconfClientError } from './errors.js';

/**
 * The subtree filter (RFC 6241 section 6) that selects the resource at `path`, in the JSON form
 * of the anyxml `filter` (RFC 7951 section 5.5): one containment node per step, module-qualified
 * where the api-path names a module, and an empty selection node at the end. Undefined for the
 * datastore (no filter: everything). A list step with key values is refused: its content match
 * nodes need the key leafs' names, which an api-path does not carry.
 *
 *     /example-jukebox:jukebox/library/artist  ->  {"example-jukebox:jukebox": {"library": {"artist": {}}}}
 */
export function subtreeFilter(path: ApiPath): Record<string, unknown> | undefined {
  let filter: Record<string, unknown> | undefined;
  for (let i = path.segments.length - 1; i >= 0; i--) {
    const segment = path.segments[i]!;
    if (segment.keys !== undefined && segment.keys.length > 0) {
      throw new RestconfClientError(
        'INVALID_ARGUMENT',
        `a get-config filter cannot select the '${segment.name}' entry by its key values without the key names; read the entry with a GET (content=config) instead`,
      );
    }
    const name = segment.module === undefined ? segment.name : `${segment.module}:${segment.name}`;
    filter = { [name]: filter ?? {} };
  }
  return filter;
}
