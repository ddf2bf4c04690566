import {
  type ApiPath,
  parseDateAndTime,
  parseFields,
  type QueryParameters,
  type RequestTarget,
} from '@yangkit/restconf-uri';
import { RestconfClientError } from './errors.js';
import { viaUri } from './target.js';
import type { EditOptions, GetOptions } from './types.js';

/** Query parameters, as restconf-uri's `formatQuery` takes them. */
export type Query = Partial<QueryParameters>;

/** The GET query parameters of RFC 8040 section 4.8 (and RFC 8527 `with-origin`) of a `get`. */
export function getQuery(options: GetOptions): Query {
  return {
    ...(options.content === undefined ? {} : { content: options.content }),
    ...(options.depth === undefined ? {} : { depth: options.depth }),
    ...(options.fields === undefined
      ? {}
      : {
          fields:
            typeof options.fields === 'string'
              ? viaUri(() => parseFields(options.fields as string))
              : options.fields,
        }),
    ...(options.withDefaults === undefined ? {} : { withDefaults: options.withDefaults }),
    ...(options.withOrigin ? { withOrigin: true } : {}),
    ...(options.withEtag ? { withEtag: true } : {}),
    ...(options.withLastModified ? { withLastModified: true } : {}),
    ...(options.withOwners ? { withOwners: true } : {}),
    ...(options.vendor === undefined ? {} : { vendor: new Map(Object.entries(options.vendor)) }),
  };
}

/** The stream query parameters `filter`, `start-time`, `stop-time` (RFC 8040 sections 4.8.4, 4.8.7, 4.8.8). */
export function streamQuery(options: { filter?: string; startTime?: string; stopTime?: string }): Query {
  return {
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    ...(options.startTime === undefined ? {} : { startTime: dateAndTime(options.startTime, 'start-time') }),
    ...(options.stopTime === undefined ? {} : { stopTime: dateAndTime(options.stopTime, 'stop-time') }),
  };
}

/** The datastore for an empty path, else the data resource. */
export const dataTarget = (path: ApiPath): RequestTarget =>
  path.segments.length === 0 ? { kind: 'datastore' } : { kind: 'data', path };

/** True for JSON operation input already wrapped in its `input` member. */
export const isWrappedInput = (input: unknown) =>
  typeof input === 'object' &&
  input !== null &&
  Object.keys(input).length === 1 &&
  /^(?:[^:]+:)?input$/.test(Object.keys(input)[0] ?? '');

function dateAndTime(text: string, name: string) {
  const value = parseDateAndTime(text);
  if (value === undefined)
    throw new RestconfClientError('INVALID_ARGUMENT', `${name} '${text}' is no date-and-time`);
  return value;
}

/** The confirmed-commit parameters of an edit. */
export function commitQuery(options: EditOptions): Query {
  return {
    ...(options.confirmed ? { confirmed: true } : {}),
    ...(options.confirmTimeout === undefined ? {} : { confirmTimeout: options.confirmTimeout }),
    ...(options.persist === undefined ? {} : { persist: options.persist }),
    ...(options.persistId === undefined ? {} : { persistId: options.persistId }),
  };
}
