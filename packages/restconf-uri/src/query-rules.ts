import type { RequestTarget, TargetKind } from './request-target.js';

/** Query parameter names RESTCONF defines (RFC 8040 section 4.8, RFC 8527, and the server's extras). */
export type QueryParameterName =
  | 'content'
  | 'depth'
  | 'fields'
  | 'filter'
  | 'insert'
  | 'point'
  | 'start-time'
  | 'stop-time'
  | 'with-defaults'
  | 'with-origin'
  | 'with-etag'
  | 'with-last-modified'
  | 'with-owners'
  | 'confirmed'
  | 'confirm-timeout'
  | 'persist'
  | 'persist-id';

/** Where one parameter may appear: each entry allows its methods on its resource kinds. */
export type QueryParameterRule = readonly {
  readonly methods: readonly string[];
  readonly resources: readonly TargetKind[];
}[];

const READ = ['GET', 'HEAD'] as const;
const EDIT = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const API: readonly TargetKind[] = ['api-root', 'operations', 'yang-library-version', 'version'];
const DATASTORE_DATA: readonly TargetKind[] = ['datastore', 'data'];
const NMDA: readonly TargetKind[] = ['nmda-datastore', 'nmda-data'];
const ALL_DATA: readonly TargetKind[] = [...DATASTORE_DATA, ...NMDA];

/**
 * Which method may carry which parameter on which resource kind. HEAD is allowed wherever GET
 * is (RFC 8040 section 4.2). Sources: RFC 8040 sections 4.8.1-4.8.9, RFC 8527 section 3.2
 * (with-origin), and the spec's query parameter table (with-etag, with-last-modified,
 * with-owners, confirmed, confirm-timeout, persist; persist-id as RFC 6241 section 8.4 names it).
 */
export const QUERY_PARAMETER_RULES: Readonly<Record<QueryParameterName, QueryParameterRule>> = {
  // 4.8.1: GET on datastore and data resources. With NMDA the datastore in the path already
  // decides between configuration and state, so content is not taken on /ds resources.
  content: [{ methods: READ, resources: DATASTORE_DATA }],
  // 4.8.2, 4.8.3: GET on API, datastore and data resources.
  depth: [{ methods: READ, resources: [...API, ...ALL_DATA] }],
  fields: [{ methods: READ, resources: [...API, ...ALL_DATA] }],
  // 4.8.4, 4.8.7, 4.8.8: GET on a text/event-stream resource.
  filter: [{ methods: READ, resources: ['stream'] }],
  'start-time': [{ methods: READ, resources: ['stream'] }],
  'stop-time': [{ methods: READ, resources: ['stream'] }],
  // 4.8.5, 4.8.6: POST creates a child (of the datastore or a data resource); PUT targets a data resource.
  insert: [
    { methods: ['POST'], resources: DATASTORE_DATA },
    { methods: ['PUT'], resources: ['data'] },
  ],
  point: [
    { methods: ['POST'], resources: DATASTORE_DATA },
    { methods: ['PUT'], resources: ['data'] },
  ],
  // 4.8.9 and RFC 8527 section 3.2.
  'with-defaults': [{ methods: READ, resources: ALL_DATA }],
  // RFC 8527 section 3.2.2: only on the operational datastore (checked on the datastore name too).
  'with-origin': [{ methods: READ, resources: NMDA }],
  'with-etag': [{ methods: READ, resources: ALL_DATA }],
  'with-last-modified': [{ methods: READ, resources: ALL_DATA }],
  'with-owners': [{ methods: READ, resources: ALL_DATA }],
  // Confirmed commit of an edit (spec "Confirmed commit" state table).
  confirmed: [{ methods: EDIT, resources: DATASTORE_DATA }],
  'confirm-timeout': [{ methods: EDIT, resources: DATASTORE_DATA }],
  persist: [{ methods: EDIT, resources: DATASTORE_DATA }],
  'persist-id': [{ methods: EDIT, resources: DATASTORE_DATA }],
};

/** True when `name` is a parameter this package knows. */
export function isQueryParameterName(name: string): name is QueryParameterName {
  return Object.hasOwn(QUERY_PARAMETER_RULES, name);
}

const OPERATIONAL = 'ietf-datastores:operational';

/**
 * True when `name` may be used with `method` on `resource`. A full {@link RequestTarget} lets
 * the datastore-specific rule of `with-origin` be checked; a bare kind cannot be.
 */
export function isQueryParameterAllowed(
  name: QueryParameterName,
  method: string,
  resource: TargetKind | RequestTarget,
): boolean {
  const kind = typeof resource === 'string' ? resource : resource.kind;
  const m = method.toUpperCase();
  const ok = QUERY_PARAMETER_RULES[name].some((r) => r.methods.includes(m) && r.resources.includes(kind));
  if (!ok || name !== 'with-origin' || typeof resource === 'string') return ok;
  if (resource.kind !== 'nmda-datastore' && resource.kind !== 'nmda-data') return false;
  return `${resource.datastore.module}:${resource.datastore.name}` === OPERATIONAL;
}

/** The parameters allowed for `method` on `resource`, in the order of the rule table. */
export function allowedQueryParameters(
  method: string,
  resource: TargetKind | RequestTarget,
): QueryParameterName[] {
  return (Object.keys(QUERY_PARAMETER_RULES) as QueryParameterName[]).filter((n) =>
    isQueryParameterAllowed(n, method, resource),
  );
}

/** A readable summary of a rule, for error messages: `GET, HEAD on datastore, data`. */
export function describeRule(name: QueryParameterName): string {
  const parts = QUERY_PARAMETER_RULES[name].map(
    (r) => `${r.methods.join(', ')} on ${r.resources.join(', ')}`,
  );
  return name === 'with-origin' ? `${parts.join('; ')} (operational datastore)` : parts.join('; ');
}
