import { formatApiPath } from './api-path.js';
import { formatFields } from './fields.js';
import type { QueryParameters } from './query.js';

const READABLE = /%(?:2F|3A|3B|40|24|2C)/g;
const CHAR: Readonly<Record<string, string>> = {
  '%2F': '/',
  '%3A': ':',
  '%3B': ';',
  '%40': '@',
  '%24': '$',
  '%2C': ',',
};

/**
 * Percent-encodes a query parameter value: everything `encodeURIComponent` encodes except
 * `/ : ; @ $ ,`, which RFC 3986 section 3.4 allows in a query and which keep `fields` and
 * `point` values readable. `& = + # %` and spaces are always encoded.
 */
function encodeQueryValue(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded.includes('%') ? encoded.replace(READABLE, (m) => CHAR[m] ?? m) : encoded;
}

/**
 * Formats query parameters as a query string without the leading `?` (`""` when there are
 * none), in the order of RFC 8040 section 4.8 followed by the extra and vendor parameters.
 * `point` is formatted with {@link formatApiPath} and then encoded again as a query value, as
 * RFC 8040 section 4.8.6 shows; flags are written bare (`with-etag`).
 *
 * `parseQuery(formatQuery(q), ...)` gives `q` back for any `q` that `parseQuery` returned.
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for a value with no UTF-8 form or an
 *   invalid `point` or `fields` tree
 */
export function formatQuery(query: Partial<QueryParameters>): string {
  const parts: string[] = [];
  const add = (name: string, value: string | undefined) => {
    parts.push(value === undefined ? name : `${name}=${encodeQueryValue(value)}`);
  };
  if (query.content !== undefined) add('content', query.content);
  if (query.depth !== undefined) add('depth', String(query.depth));
  if (query.fields !== undefined) add('fields', formatFields(query.fields));
  if (query.filter !== undefined) add('filter', query.filter);
  if (query.insert !== undefined) add('insert', query.insert);
  if (query.point !== undefined) add('point', formatApiPath(query.point));
  if (query.startTime !== undefined) add('start-time', query.startTime.text);
  if (query.stopTime !== undefined) add('stop-time', query.stopTime.text);
  if (query.withDefaults !== undefined) add('with-defaults', query.withDefaults);
  if (query.withOrigin === true) add('with-origin', undefined);
  if (query.withEtag === true) add('with-etag', undefined);
  if (query.withLastModified === true) add('with-last-modified', undefined);
  if (query.withOwners === true) add('with-owners', undefined);
  if (query.confirmed === true) add('confirmed', '1');
  if (query.confirmTimeout !== undefined) add('confirm-timeout', String(query.confirmTimeout));
  if (query.persist !== undefined) add('persist', query.persist);
  if (query.persistId !== undefined) add('persist-id', query.persistId);
  for (const [name, value] of query.vendor ?? []) add(name, value === '' ? undefined : value);
  return parts.join('&');
}
