import { type ApiPath, parseApiPath } from './api-path.js';
import type { DateAndTime } from './date-time.js';
import { RestconfUriError } from './errors.js';
import { type FieldsNode, parseFields } from './fields.js';
import { isIdentifier } from './identifier.js';
import { percentDecode } from './percent-encoding.js';
import {
  describeRule,
  isQueryParameterAllowed,
  isQueryParameterName,
  type QueryParameterName,
} from './query-rules.js';
import { dateTime, flag, integer, invalid, oneOf, required, wrap } from './query-values.js';
import type { RequestTarget, TargetKind } from './request-target.js';

/** Typed RESTCONF query parameters; a member is present only when the request carried it. */
export interface QueryParameters {
  /** RFC 8040 4.8.1. */
  readonly content?: 'config' | 'nonconfig' | 'all';
  /** RFC 8040 4.8.2: 1..65535 or `unbounded`. */
  readonly depth?: number | 'unbounded';
  /** RFC 8040 4.8.3, as a selection tree. */
  readonly fields?: readonly FieldsNode[];
  /** RFC 8040 4.8.4: an XPath 1.0 expression, not evaluated here. */
  readonly filter?: string;
  /** RFC 8040 4.8.5. */
  readonly insert?: 'first' | 'last' | 'before' | 'after';
  /** RFC 8040 4.8.6: the api-path of the insertion point. */
  readonly point?: ApiPath;
  /** RFC 8040 4.8.7. */
  readonly startTime?: DateAndTime;
  /** RFC 8040 4.8.8. */
  readonly stopTime?: DateAndTime;
  /** RFC 8040 4.8.9 (RFC 6243 modes). */
  readonly withDefaults?: 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';
  /** RFC 8527 section 3.2.2. */
  readonly withOrigin?: true;
  /** Include entity-tag metadata. */
  readonly withEtag?: true;
  /** Include last-modified metadata. */
  readonly withLastModified?: true;
  /** Include owner metadata. */
  readonly withOwners?: true;
  /** Start a confirmed commit (`confirmed=1` or `confirmed=true`). */
  readonly confirmed?: true;
  /** Seconds before an unconfirmed commit rolls back (uint32, at least 1). */
  readonly confirmTimeout?: number;
  /** Token that later confirms or cancels the commit (`persist-id`). */
  readonly persist?: string;
  /**
   * The `persist` token of the pending confirmed commit this edit joins (RFC 6241 section 8.4.5.1):
   * with `confirmed` the edit extends it (the timer restarts), without it the edit confirms it.
   */
  readonly persistId?: string;
  /** Vendor parameters written `prefix:name`, decoded, in request order. */
  readonly vendor: ReadonlyMap<string, string>;
}

/** Limits of {@link parseQuery}. */
export interface QueryLimits {
  /** Longest accepted query string. Default 16384. */
  readonly maxLength?: number;
  /** Most parameters. Default 64. */
  readonly maxParameters?: number;
}

/** Options of {@link parseQuery}. */
export interface ParseQueryOptions extends QueryLimits {
  /** The HTTP method of the request (case-insensitive). */
  readonly method: string;
  /** The resource the request targets, as a kind or as {@link classifyTarget} returned it. */
  readonly resource: TargetKind | RequestTarget;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const ENUMS = {
  content: ['config', 'nonconfig', 'all'],
  insert: ['first', 'last', 'before', 'after'],
  'with-defaults': ['report-all', 'report-all-tagged', 'trim', 'explicit'],
} as const;

/**
 * Parses and validates a query string (`?a=b&c`, with or without the `?`) for one request.
 *
 * - Each parameter at most once (RFC 8040 section 4.8); unknown unprefixed names are rejected;
 *   `prefix:name` parameters are kept in `vendor`.
 * - Each parameter only with the methods and resource kinds of {@link QUERY_PARAMETER_RULES}.
 * - Names and values are percent-decoded; `+` is a plus sign, not a space.
 * - Cross checks: `insert=before|after` needs `point` and `point` needs one of them;
 *   `stop-time` needs an earlier `start-time`; `confirmed` needs `persist`;
 *   `confirm-timeout` and `persist` need `confirmed`.
 *
 * @throws {RestconfUriError} 400 naming the parameter and the problem
 */
export function parseQuery(search: string, options: ParseQueryOptions): QueryParameters {
  const maxLength = options.maxLength ?? 16384;
  const maxParameters = options.maxParameters ?? 64;
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text.length > maxLength) {
    throw new RestconfUriError(
      'URI_TOO_LONG',
      `query of ${text.length} characters exceeds the limit of ${maxLength}`,
    );
  }
  const out: Mutable<Omit<QueryParameters, 'vendor'>> = {};
  const vendor = new Map<string, string>();
  const seen = new Set<string>();
  const kind = typeof options.resource === 'string' ? options.resource : options.resource.kind;
  let pos = 0;
  while (pos <= text.length) {
    let amp = text.indexOf('&', pos);
    if (amp === -1) amp = text.length;
    if (amp > pos) {
      if (seen.size === maxParameters) {
        throw new RestconfUriError('URI_TOO_LONG', `query has more than ${maxParameters} parameters`);
      }
      const piece = text.slice(pos, amp);
      const eq = piece.indexOf('=');
      const name = percentDecode(eq === -1 ? piece : piece.slice(0, eq), 'query parameter name', pos);
      const value =
        eq === -1 ? undefined : percentDecode(piece.slice(eq + 1), `query parameter '${name}'`, pos + eq + 1);
      if (seen.has(name)) {
        throw new RestconfUriError(
          'QUERY_DUPLICATE_PARAMETER',
          `query parameter '${name}' appears more than once`,
          {
            badElement: name,
          },
        );
      }
      seen.add(name);
      if (isQueryParameterName(name)) {
        if (!isQueryParameterAllowed(name, options.method, options.resource)) {
          throw new RestconfUriError(
            'QUERY_PARAMETER_NOT_ALLOWED',
            `query parameter '${name}' is not allowed with ${options.method.toUpperCase()} on ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} resource ` +
              `(allowed: ${describeRule(name)})`,
            { badElement: name },
          );
        }
        setParameter(out, name, value);
      } else if (isVendorName(name)) {
        vendor.set(name, value ?? '');
      } else {
        throw new RestconfUriError('QUERY_UNKNOWN_PARAMETER', `unknown query parameter '${name}'`, {
          badElement: name,
        });
      }
    }
    pos = amp + 1;
  }
  crossCheck(out);
  return { ...out, vendor };
}

function isVendorName(name: string): boolean {
  const colon = name.indexOf(':');
  return colon !== -1 && isIdentifier(name.slice(0, colon)) && isIdentifier(name.slice(colon + 1));
}

function setParameter(
  out: Mutable<Omit<QueryParameters, 'vendor'>>,
  name: QueryParameterName,
  value?: string,
): void {
  switch (name) {
    case 'content':
      out.content = oneOf(name, value, ENUMS.content);
      return;
    case 'depth':
      out.depth =
        value === 'unbounded' ? 'unbounded' : integer(name, value, 65535, "expected 1..65535 or 'unbounded'");
      return;
    case 'fields': {
      const v = required(name, value);
      out.fields = wrap(name, v, () => parseFields(v));
      return;
    }
    case 'filter':
      out.filter = required(name, value);
      return;
    case 'insert':
      out.insert = oneOf(name, value, ENUMS.insert);
      return;
    case 'point': {
      const v = required(name, value);
      const path = wrap(name, v, () => parseApiPath(v));
      if (path.segments.length === 0)
        throw invalid(name, v, 'expected the api-path of a list or leaf-list entry');
      out.point = path;
      return;
    }
    case 'start-time':
      out.startTime = dateTime(name, value);
      return;
    case 'stop-time':
      out.stopTime = dateTime(name, value);
      return;
    case 'with-defaults':
      out.withDefaults = oneOf(name, value, ENUMS['with-defaults']);
      return;
    case 'with-origin':
      out.withOrigin = flag(name, value);
      return;
    case 'with-etag':
      out.withEtag = flag(name, value);
      return;
    case 'with-last-modified':
      out.withLastModified = flag(name, value);
      return;
    case 'with-owners':
      out.withOwners = flag(name, value);
      return;
    case 'confirmed':
      // The spec gives `1`; `true` is accepted as its boolean spelling. Nothing else: a
      // confirmed commit must never start by accident.
      if (value !== '1' && value !== 'true') throw invalid(name, value, "expected '1' or 'true'");
      out.confirmed = true;
      return;
    case 'confirm-timeout':
      out.confirmTimeout = integer(name, value, 4294967295, 'expected seconds, 1..4294967295');
      return;
    case 'persist':
      out.persist = required(name, value);
      return;
    case 'persist-id':
      out.persistId = required(name, value);
      return;
  }
}

function missing(name: string, why: string): RestconfUriError {
  return new RestconfUriError('QUERY_MISSING_PARAMETER', `query parameter '${name}' is missing: ${why}`, {
    badElement: name,
  });
}

function crossCheck(q: Mutable<Omit<QueryParameters, 'vendor'>>): void {
  const needsPoint = q.insert === 'before' || q.insert === 'after';
  // RFC 8040 4.8.6: point only with insert=before|after, and those need a point.
  if (needsPoint && q.point === undefined)
    throw missing('point', `insert=${q.insert} needs an insertion point`);
  if (q.point !== undefined && !needsPoint) {
    throw new RestconfUriError(
      'QUERY_INVALID_VALUE',
      "query parameter 'point' is only allowed with insert=before or insert=after",
      { badElement: 'point' },
    );
  }
  // RFC 8040 4.8.8: stop-time is used with, and is later than, start-time.
  if (q.stopTime !== undefined) {
    if (q.startTime === undefined) throw missing('start-time', 'stop-time needs a start-time');
    if (q.stopTime.epochNs <= q.startTime.epochNs) {
      throw invalid('stop-time', q.stopTime.text, `it must be later than start-time ${q.startTime.text}`);
    }
  }
  if (q.confirmed === true && q.persist === undefined)
    throw missing('persist', 'confirmed needs a persist token');
  if (q.confirmed === undefined) {
    if (q.confirmTimeout !== undefined)
      throw missing('confirmed', 'confirm-timeout is only used with confirmed');
    if (q.persist !== undefined) throw missing('confirmed', 'persist is only used with confirmed');
  }
}
