import { type ApiPath, formatQuery, formatTarget, type RequestTarget } from '@yangkit/restconf-uri';
import { encodeBody, jsonValue } from './body.js';
import { RestconfClientError, RestconfResponseError } from './errors.js';
import { readNotifications, type StreamOptions } from './event-stream.js';
import { parseHostMeta } from './host-meta.js';
import { insertPatch } from './insert-edit.js';
import type { RestconfNotification } from './notification.js';
import {
  commitQuery,
  dataTarget,
  getQuery,
  isWrappedInput,
  type Query,
  streamQuery,
} from './request-query.js';
import { parseStreams, type StreamInfo } from './streams.js';
import { subtreeFilter } from './subtree-filter.js';
import { moduleOf, type PathInput, splitQualified, toApiPath, viaUri } from './target.js';
import {
  dataMedia,
  type Exchange,
  MEDIA,
  send,
  type TransportSettings,
  transportSettings,
} from './transport.js';
import type {
  EditOptions,
  Encoding,
  GetConfigOptions,
  GetOptions,
  InsertOptions,
  RequestOptions,
  RestconfClientOptions,
  RestconfResponse,
} from './types.js';

/** Options of {@link RestconfClient.subscribe}: the stream query parameters of RFC 8040 section 4.8. */
export interface SubscribeOptions extends StreamOptions {
  /** `filter`: an XPath 1.0 expression selecting events. */
  readonly filter?: string;
  /** `start-time`: replay from this date-and-time. */
  readonly startTime?: string;
  /** `stop-time`: end the stream at this date-and-time. */
  readonly stopTime?: string;
}

/** The server URL: only `http:` and `https:` reach a RESTCONF server (`host:port` alone is refused). */
function httpUrl(url: string | URL): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new RestconfClientError('INVALID_ARGUMENT', `'${String(url)}' is not an http:// or https:// URL`);
  }
  return parsed;
}

/**
 * A RESTCONF (RFC 8040) client on fetch. Paths are api-paths formatted by
 * `@yangkit/restconf-uri`; failures are {@link RestconfClientError}s, and 4xx/5xx answers
 * {@link RestconfResponseError}s carrying the `ietf-restconf:errors` entries.
 */
export class RestconfClient {
  /** The server URL requests are resolved against. */
  readonly baseUrl: URL;
  /** The default encoding of bodies. */
  readonly encoding: Encoding;
  readonly #settings: TransportSettings;
  #root: string | undefined;
  #discovery: Promise<string> | undefined;

  constructor(options: RestconfClientOptions) {
    this.baseUrl = httpUrl(options.baseUrl);
    this.encoding = options.encoding ?? 'json';
    this.#settings = transportSettings(options);
    this.#root = options.root;
  }

  /**
   * The `{+restconf}` root: the `href` of host-meta's `restconf` link (RFC 8040 section 3.1),
   * fetched once; the `root` option skips the request.
   */
  async root(options: RequestOptions = {}): Promise<string> {
    if (this.#root !== undefined) return this.#root;
    this.#discovery ??= this.#discover(options).catch((error: unknown) => {
      this.#discovery = undefined;
      throw error;
    });
    return this.#discovery;
  }

  async #discover(options: RequestOptions): Promise<string> {
    const url = new URL(formatTarget({ kind: 'well-known-host-meta', format: 'xrd' }), this.baseUrl);
    const response = await this.#exchange({ method: 'GET', url, accept: MEDIA.xrd }, options);
    const href = parseHostMeta(response.text, response.headers.get('content-type') ?? MEDIA.xrd);
    const root = new URL(href, this.baseUrl).pathname.replace(/\/$/, '');
    this.#root = root;
    return root;
  }

  /** The URL of a resource, built by `formatTarget` under the discovered root. */
  async url(target: RequestTarget, query: Query = {}, options: RequestOptions = {}): Promise<URL> {
    const root = (await this.root(options)) || '/';
    const path = viaUri(() => formatTarget(target, { root }));
    const search = viaUri(() => formatQuery(query));
    return new URL(search === '' ? path : `${path}?${search}`, this.baseUrl);
  }

  /** GET on the datastore, a data resource or an NMDA datastore, with every GET query parameter. */
  async get(path: PathInput = '', options: GetOptions = {}): Promise<RestconfResponse> {
    const apiPath = toApiPath(path);
    const query = getQuery(options);
    let target: RequestTarget;
    if (options.datastore !== undefined) {
      const { module, name } = splitQualified(options.datastore);
      const datastore = { module: module ?? 'ietf-datastores', name };
      target =
        apiPath.segments.length === 0
          ? { kind: 'nmda-datastore', datastore }
          : { kind: 'nmda-data', datastore, path: apiPath };
    } else {
      target = dataTarget(apiPath);
    }
    const encoding = options.encoding ?? this.encoding;
    const url = await this.url(target, query, options);
    return this.#exchange({ method: 'GET', url, accept: dataMedia(encoding), conditions: options }, options);
  }

  /**
   * The NETCONF `get-config` operation (RFC 6241 section 7.1) on the operations resource: the
   * configuration in `source` (default running), below `path` when one is given, selected by a
   * subtree filter (see {@link subtreeFilter}: no list key values). The input goes as JSON, since
   * an XML filter would need the modules' namespaces; the output comes in the encoding asked for.
   */
  async getConfig(path: PathInput = '', options: GetConfigOptions = {}): Promise<RestconfResponse> {
    const filter = subtreeFilter(toApiPath(path));
    const input = {
      source: { [options.source ?? 'running']: [null] },
      ...(filter === undefined ? {} : { filter }),
      ...(options.withDefaults === undefined
        ? {}
        : { 'ietf-netconf-with-defaults:with-defaults': options.withDefaults }),
    };
    const url = await this.url(
      { kind: 'operation', module: 'ietf-netconf', name: 'get-config' },
      {},
      options,
    );
    return this.#exchange(
      {
        method: 'POST',
        url,
        accept: dataMedia(options.encoding ?? this.encoding),
        contentType: MEDIA.json,
        body: JSON.stringify({ 'ietf-netconf:input': input }),
      },
      options,
    );
  }

  /** POST: creates `value` as a child of `parent` (RFC 8040 section 4.4.1); 409 if it exists. */
  create(parent: PathInput, value: unknown, options: EditOptions = {}): Promise<RestconfResponse> {
    return this.#edit('POST', toApiPath(parent), value, options, {});
  }

  /** PUT: creates or replaces the resource at `path` (RFC 8040 section 4.5). */
  replace(path: PathInput, value: unknown, options: EditOptions = {}): Promise<RestconfResponse> {
    return this.#edit('PUT', toApiPath(path), value, options, {});
  }

  /** PATCH: merges `value` into the resource at `path` (RFC 8040 section 4.6.1). */
  merge(path: PathInput, value: unknown, options: EditOptions = {}): Promise<RestconfResponse> {
    return this.#edit('PATCH', toApiPath(path), value, options, {});
  }

  /**
   * Places a new entry of a user-ordered list: `create` POSTs to the parent and `replace` PUTs
   * the entry, both with `insert`/`point` (RFC 8040 sections 4.8.5, 4.8.6); `merge` sends a
   * YANG Patch `insert` edit, as PATCH takes no `insert` parameter.
   */
  insert(path: PathInput, value: unknown, options: InsertOptions): Promise<RestconfResponse> {
    const apiPath = toApiPath(path);
    const point = options.point === undefined ? undefined : toApiPath(options.point);
    const position: Query = { insert: options.insert, ...(point ? { point } : {}) };
    if (options.operation === 'replace') return this.#edit('PUT', apiPath, value, options, position);
    if (options.operation === 'create') {
      return this.#edit('POST', { segments: apiPath.segments.slice(0, -1) }, value, options, position);
    }
    const encoding = options.encoding ?? this.encoding;
    const { parent, body } = insertPatch(apiPath, value, options.insert, point, encoding);
    return this.yangPatch(parent, body, options);
  }

  /**
   * PATCH with a YANG Patch (RFC 8072): `patch` is the `ietf-yang-patch:yang-patch` object (or
   * its JSON text), or the `<yang-patch>` XML text. Resolves with the `yang-patch-status`.
   */
  async yangPatch(path: PathInput, patch: unknown, options: EditOptions = {}): Promise<RestconfResponse> {
    const encoding = options.encoding ?? this.encoding;
    const url = await this.url(dataTarget(toApiPath(path)), commitQuery(options), options);
    return this.#exchange(
      {
        method: 'PATCH',
        url,
        accept: dataMedia(encoding),
        contentType: encoding === 'xml' ? MEDIA.patchXml : MEDIA.patchJson,
        body: encodeBody(patch, encoding),
        conditions: options,
      },
      options,
    );
  }

  /** DELETE: deletes the resource; 404 if it does not exist (RFC 8040 section 4.7). */
  delete(path: PathInput, options: EditOptions = {}): Promise<RestconfResponse> {
    return this.#delete(toApiPath(path), options, []);
  }

  /** DELETE that succeeds when the resource is already absent (the YANG Patch `remove`). */
  remove(path: PathInput, options: EditOptions = {}): Promise<RestconfResponse> {
    return this.#delete(toApiPath(path), options, [404]);
  }

  async #delete(path: ApiPath, options: EditOptions, allow: readonly number[]): Promise<RestconfResponse> {
    const encoding = options.encoding ?? this.encoding;
    const url = await this.url(dataTarget(path), commitQuery(options), options);
    return this.#exchange(
      { method: 'DELETE', url, accept: dataMedia(encoding), conditions: options, allow },
      options,
    );
  }

  /**
   * Invokes an RPC (RFC 8040 section 4.4.2): POST `{+restconf}/operations/<module>:<name>`.
   * `input` is the content of `input` (wrapped as `<module>:input` in JSON) or, for XML, the
   * whole `<input xmlns=...>` text; no input sends no body.
   */
  async invoke(operation: string, input?: unknown, options: RequestOptions = {}): Promise<RestconfResponse> {
    const { module, name } = splitQualified(operation);
    const url = await this.url(
      { kind: 'operation', name, ...(module === undefined ? {} : { module }) },
      {},
      options,
    );
    return this.#operation(url, module, input, options);
  }

  /** Invokes a YANG action: POST on the data resource of the action (RFC 8040 section 3.6). */
  async invokeAction(
    path: PathInput,
    input?: unknown,
    options: RequestOptions = {},
  ): Promise<RestconfResponse> {
    const apiPath = toApiPath(path);
    const url = await this.url(dataTarget(apiPath), {}, options);
    return this.#operation(url, moduleOf(apiPath), input, options);
  }

  #operation(url: URL, module: string | undefined, input: unknown, options: RequestOptions) {
    const encoding = options.encoding ?? this.encoding;
    let body: string | undefined;
    if (input !== undefined && encoding === 'json') {
      const value = jsonValue(input);
      body = encodeBody(
        isWrappedInput(value) ? value : { [module ? `${module}:input` : 'input']: value },
        'json',
      );
    } else if (input !== undefined) {
      body = encodeBody(input, encoding);
    }
    return this.#exchange(
      {
        method: 'POST',
        url,
        accept: dataMedia(encoding),
        // RFC 8040 section 4.4.2: the output comes in the input's encoding, so an empty body says it too.
        contentType: dataMedia(encoding),
        ...(body === undefined ? {} : { body }),
      },
      options,
    );
  }

  /** Confirms a pending confirmed commit (`ietf-netconf:commit` with `persist-id`). */
  commit(persistId?: string, options: RequestOptions = {}): Promise<RestconfResponse> {
    return this.invoke(
      'ietf-netconf:commit',
      persistId === undefined ? undefined : { 'persist-id': persistId },
      options,
    );
  }

  /** Rolls back a pending confirmed commit (`ietf-netconf:cancel-commit` with `persist-id`). */
  cancelCommit(persistId?: string, options: RequestOptions = {}): Promise<RestconfResponse> {
    const input = persistId === undefined ? undefined : { 'persist-id': persistId };
    return this.invoke('ietf-netconf:cancel-commit', input, options);
  }

  /** The YANG source of a module (`{+restconf}/yang/<module>[@<revision>]`, `application/yang`). */
  async schema(module: string, revision?: string, options: RequestOptions = {}): Promise<string> {
    const target: RequestTarget = { kind: 'schema', module, ...(revision === undefined ? {} : { revision }) };
    const url = await this.url(target, {}, options);
    return (await this.#exchange({ method: 'GET', url, accept: MEDIA.yang }, options)).text;
  }

  /** The YANG library (RFC 8525 `ietf-yang-library:yang-library`). */
  yangLibrary(options: RequestOptions = {}): Promise<RestconfResponse> {
    return this.get('/ietf-yang-library:yang-library', options);
  }

  /** The `yang-library-version` resource (RFC 8040 section 3.3.3), e.g. `2019-01-04`. */
  async yangLibraryVersion(options: RequestOptions = {}): Promise<string> {
    const url = await this.url({ kind: 'yang-library-version' }, {}, options);
    const response = await this.#exchange({ method: 'GET', url, accept: MEDIA.json }, options);
    const value = (response.data as Record<string, unknown> | undefined)?.[
      'ietf-restconf:yang-library-version'
    ];
    if (typeof value !== 'string')
      throw new RestconfClientError('INVALID_RESPONSE', 'no yang-library-version');
    return value;
  }

  /** The event streams the server announces (RFC 8040 section 9.2.3). */
  async streams(options: RequestOptions = {}): Promise<StreamInfo[]> {
    const response = await this.get('/ietf-restconf-monitoring:restconf-state/streams', {
      ...options,
      encoding: 'json',
    });
    return parseStreams(response.data);
  }

  /**
   * Reads the notifications of an event stream: its location is looked up in the stream list
   * (the entry of the client's encoding first; `{+restconf}/streams/<encoding>-<name>` when the
   * list does not name it), then read with {@link readNotifications}.
   */
  async *subscribe(stream: string, options: SubscribeOptions = {}): AsyncGenerator<RestconfNotification> {
    const listed = await this.streams(options).catch((error: unknown) => {
      // A server without ietf-restconf-monitoring streams: fall back to the RFC 8040 location form.
      if (RestconfResponseError.isInstance(error) && error.status === 404) return [];
      throw error;
    });
    const info = listed.find((s) => s.name === stream);
    const access = info?.access.find((a) => a.encoding === this.encoding) ?? info?.access[0];
    const url =
      access === undefined
        ? await this.url({ kind: 'stream', encoding: this.encoding, name: stream }, {}, options)
        : new URL(access.location, this.baseUrl);
    url.search = viaUri(() => formatQuery(streamQuery(options)));
    yield* readNotifications(this.#settings, url, options);
  }

  /**
   * Establishes an RFC 8639 dynamic subscription over RESTCONF (RFC 8650 section 3.4):
   * resolves with its `id` and the `uri` to read with {@link subscription}.
   */
  async establishSubscription(input: Record<string, unknown>, options: RequestOptions = {}) {
    const response = await this.invoke('ietf-subscribed-notifications:establish-subscription', input, {
      ...options,
      encoding: 'json',
    });
    const output = (response.data as Record<string, Record<string, unknown>> | undefined)?.[
      'ietf-subscribed-notifications:output'
    ];
    const id = output?.id;
    const uri = output?.['ietf-restconf-subscribed-notifications:uri'] ?? output?.uri;
    if (typeof id !== 'number' || typeof uri !== 'string') {
      throw new RestconfClientError('INVALID_RESPONSE', 'establish-subscription output lacks id or uri');
    }
    return { id, uri: new URL(uri, this.baseUrl).href, output };
  }

  /** Reads the notifications of an established subscription from its `uri`. */
  subscription(uri: string, options: StreamOptions = {}): AsyncGenerator<RestconfNotification> {
    return readNotifications(this.#settings, new URL(uri, this.baseUrl), options);
  }

  async #edit(method: string, path: ApiPath, value: unknown, options: EditOptions, extra: Query) {
    const encoding = options.encoding ?? this.encoding;
    const url = await this.url(dataTarget(path), { ...extra, ...commitQuery(options) }, options);
    const media = dataMedia(encoding);
    const body = encodeBody(value, encoding);
    return this.#exchange(
      { method, url, accept: media, contentType: media, body, conditions: options },
      options,
    );
  }

  #exchange(exchange: Exchange, options: RequestOptions): Promise<RestconfResponse> {
    return send(this.#settings, {
      ...exchange,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });
  }
}
