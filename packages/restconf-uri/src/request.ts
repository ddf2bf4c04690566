import { type ParseQueryOptions, parseQuery, type QueryParameters } from './query.js';
import { type ClassifyTargetOptions, classifyTarget, type RequestTarget } from './request-target.js';

/** A classified request target with its validated query. */
export interface ParsedRequest {
  readonly target: RequestTarget;
  readonly query: QueryParameters;
}

/** Options of {@link parseRequest}. */
export interface ParseRequestOptions
  extends ClassifyTargetOptions,
    Omit<ParseQueryOptions, 'resource' | 'maxLength'> {}

/**
 * Parses an HTTP request target (origin form, `/restconf/data/a:b?depth=1`): classifies the
 * path with {@link classifyTarget}, then validates the query for that resource and `method`
 * with {@link parseQuery}. A `#fragment` is dropped (clients do not send one; RFC 9110 4.2.4).
 *
 * @throws {RestconfUriError} the first problem found, path before query
 */
export function parseRequest(requestTarget: string, options: ParseRequestOptions): ParsedRequest {
  const hash = requestTarget.indexOf('#');
  const withoutFragment = hash === -1 ? requestTarget : requestTarget.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  const pathname = q === -1 ? withoutFragment : withoutFragment.slice(0, q);
  const search = q === -1 ? '' : withoutFragment.slice(q + 1);
  const target = classifyTarget(pathname, options);
  const query = parseQuery(search, {
    method: options.method,
    resource: target,
    ...(options.maxParameters === undefined ? {} : { maxParameters: options.maxParameters }),
  });
  return { target, query };
}
