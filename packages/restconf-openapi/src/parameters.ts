import { allowedQueryParameters, type QueryParameterName, type TargetKind } from '@yangkit/restconf-uri';

type OpenApiObject = Record<string, unknown>;

/** A parameter that is present without a value (`?with-etag`). */
const FLAG = { type: 'string', maxLength: 0 };

/** RFC 8040 section 4.8 (and the server's extras) as OpenAPI query parameters, by name. */
const QUERY: Readonly<Record<QueryParameterName, { schema: OpenApiObject; description: string }>> = {
  content: {
    schema: { type: 'string', enum: ['config', 'nonconfig', 'all'], default: 'all' },
    description: 'RFC 8040 4.8.1: configuration data, state data, or both.',
  },
  depth: {
    schema: { anyOf: [{ const: 'unbounded' }, { type: 'integer', minimum: 1, maximum: 65535 }] },
    description: 'RFC 8040 4.8.2: levels of child nodes returned; 1 is the target alone.',
  },
  fields: {
    schema: { type: 'string' },
    description: 'RFC 8040 4.8.3: the descendants returned, e.g. `name;album(name;year)`.',
  },
  filter: {
    schema: { type: 'string' },
    description: 'RFC 8040 4.8.4: an XPath 1.0 expression; only the events for which it is true are sent.',
  },
  insert: {
    schema: { type: 'string', enum: ['first', 'last', 'before', 'after'], default: 'last' },
    description: 'RFC 8040 4.8.5: where a new entry of a user-ordered list or leaf-list goes.',
  },
  point: {
    schema: { type: 'string' },
    description: 'RFC 8040 4.8.6: the entry (a data resource path) that `insert=before|after` refers to.',
  },
  'start-time': {
    schema: { type: 'string', format: 'date-time' },
    description: 'RFC 8040 4.8.7: replay the events logged since this time.',
  },
  'stop-time': {
    schema: { type: 'string', format: 'date-time' },
    description: 'RFC 8040 4.8.8: end the stream at this time (needs start-time).',
  },
  'with-defaults': {
    schema: { type: 'string', enum: ['report-all', 'report-all-tagged', 'trim', 'explicit'] },
    description: 'RFC 8040 4.8.9: which default values are reported (RFC 6243 modes).',
  },
  'with-origin': {
    schema: FLAG,
    description: 'RFC 8527 3.2.2: annotate the operational data with its origin.',
  },
  'with-etag': { schema: FLAG, description: 'Annotate every node with its entity-tag.' },
  'with-last-modified': { schema: FLAG, description: 'Annotate every node with its last-modified time.' },
  'with-owners': { schema: FLAG, description: 'Annotate every node with its owner.' },
  confirmed: {
    schema: { type: 'string', enum: ['1', 'true'] },
    description: 'Start a confirmed commit of this edit (needs persist).',
  },
  'confirm-timeout': {
    schema: { type: 'integer', minimum: 1, maximum: 4294967295, default: 300 },
    description: 'Seconds before an unconfirmed commit is rolled back.',
  },
  persist: {
    schema: { type: 'string', minLength: 1 },
    description: 'The token that confirms (ietf-netconf:commit) or cancels (cancel-commit) the commit.',
  },
  'persist-id': {
    schema: { type: 'string', minLength: 1 },
    description:
      'The persist token of a pending confirmed commit this edit joins: with confirmed it extends the commit, without it confirms it.',
  },
};

/** The `components.parameters` of every query parameter. */
export function queryParameterComponents(): Record<string, OpenApiObject> {
  const out: Record<string, OpenApiObject> = {};
  for (const [name, { schema, description }] of Object.entries(QUERY)) {
    out[name] = { name, in: 'query', required: false, description, schema };
  }
  return out;
}

/**
 * `$ref`s to the query parameters RFC 8040 allows for `method` on a resource of `kind` (the rule
 * table of @yangkit/restconf-uri), leaving `insert` and `point` out where no user-ordered list
 * or leaf-list entry can be the target (RFC 8040 4.8.5).
 */
export function queryParameters(method: string, kind: TargetKind, userOrdered = false): OpenApiObject[] {
  return allowedQueryParameters(method, kind)
    .filter((n) => n !== 'with-origin' && (userOrdered || (n !== 'insert' && n !== 'point')))
    .map((n) => ({ $ref: `#/components/parameters/${n}` }));
}
