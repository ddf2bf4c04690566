import {
  type ParsedRequest,
  parseRequest,
  type ResolvedApiPath,
  resolveApiPath,
  resolveFields,
} from '@yangkit/restconf-uri';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaTree } from '@yangkit/yang-schema';

/** A request target parsed and, for a data resource (NMDA ones too), resolved against the schema. */
export interface ParsedTarget extends ParsedRequest {
  readonly resolved: ResolvedApiPath | undefined;
}

// Clients poll the same few URLs; parsing and resolving one costs more than the rest of a small
// GET's handling in this process. The results are immutable and depend only on the method, the
// root, the URL and the schema (fixed per handler), so the last few are kept. Failures are not
// kept: they throw afresh.
const MAX_ENTRIES = 256;
const MAX_URL = 2048;

/** A bounded cache of {@link parseRequest} + {@link resolveApiPath} for one handler. */
class RequestCache {
  readonly #schema: SchemaTree;
  readonly #root: string;
  readonly #entries = new Map<string, ParsedTarget>();

  constructor(schema: SchemaTree, root: string) {
    this.#schema = schema;
    this.#root = root;
  }

  /**
   * Parses `url` for `method` (RFC 8040 sections 3 and 4.8) and checks that every node a `fields`
   * parameter selects exists below the target (section 4.8.3: a selection naming no schema node
   * is a bad request, not an empty answer); throws restconf-uri's errors.
   */
  parse(method: string, url: string): ParsedTarget {
    const key = `${method} ${url}`;
    const cached = this.#entries.get(key);
    if (cached !== undefined) return cached;
    const { target, query } = parseRequest(url, { method, root: this.#root });
    const schema = pathSchemaOf(this.#schema);
    const resolved =
      target.kind === 'data' || target.kind === 'nmda-data' ? resolveApiPath(target.path, schema) : undefined;
    const dataResource =
      resolved !== undefined || target.kind === 'datastore' || target.kind === 'nmda-datastore';
    if (query.fields !== undefined && dataResource)
      resolveFields(query.fields, schema, resolved?.steps.at(-1)?.node);
    const parsed: ParsedTarget = { target, query, resolved };
    if (url.length <= MAX_URL) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, parsed);
    }
    return parsed;
  }
}

const caches = new WeakMap<object, RequestCache>();

/**
 * The request target of `url` for `method` under the handler whose settings are `s`, parsed and
 * resolved once per distinct URL.
 */
export function parseTarget(
  s: { readonly schema: SchemaTree; readonly root: string },
  method: string,
  url: string,
): ParsedTarget {
  let cache = caches.get(s);
  if (cache === undefined) {
    cache = new RequestCache(s.schema, s.root);
    caches.set(s, cache);
  }
  return cache.parse(method, url);
}
