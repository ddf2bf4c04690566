import type { FieldsNode } from '@yangkit/restconf-uri';

/** The RESTCONF encodings: `application/yang-data+json` or `application/yang-data+xml`. */
export type Encoding = 'json' | 'xml';

/** A fetch function: the global one, or one with a TLS agent from `@yangkit/restconf-client/node`. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link RestconfClient}. */
export interface RestconfClientOptions {
  /** Where the server is: `https://host:port`. The RESTCONF root is discovered below it. */
  readonly baseUrl: string | URL;
  /** The `{+restconf}` root path; when given, host-meta discovery is skipped. */
  readonly root?: string;
  /** Encoding of bodies sent and asked for. Default `json` (the spec's default). */
  readonly encoding?: Encoding;
  /** HTTP Basic credentials. */
  readonly auth?: { readonly user: string; readonly password: string };
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use. Default `globalThis.fetch`. */
  readonly fetch?: FetchLike;
  /** Largest response body read, in bytes. Default 16 MiB. */
  readonly maxResponseBytes?: number;
}

/** Options every request takes. */
export interface RequestOptions {
  /** Cancels the request. */
  readonly signal?: AbortSignal;
  /** Overrides the client's encoding for this request. */
  readonly encoding?: Encoding;
  /** Extra headers for this request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Conditional request headers (RFC 8040 section 3.5.2, RFC 7232). */
export interface Conditions {
  /** `If-Match`: act only if the resource's entity-tag matches (an edit collision check). */
  readonly ifMatch?: string;
  /** `If-None-Match`: a GET answers 304 when the entity-tag still matches. */
  readonly ifNoneMatch?: string;
  /** `If-Modified-Since`: a GET answers 304 when unchanged since then. */
  readonly ifModifiedSince?: string | Date;
  /** `If-Unmodified-Since`: an edit fails with 412 when changed since then. */
  readonly ifUnmodifiedSince?: string | Date;
}

/** Confirmed-commit parameters of an edit (spec "Confirmed commit"). */
export interface ConfirmedCommit {
  /** Start a confirmed commit (`confirmed=1`). */
  readonly confirmed?: boolean;
  /** Seconds before an unconfirmed edit rolls back (`confirm-timeout`, default 300 on the server). */
  readonly confirmTimeout?: number;
  /** Token that later confirms or cancels the commit (`persist`). */
  readonly persist?: string;
  /**
   * The token of a pending confirmed commit this edit joins (`persist-id`): with `confirmed` the
   * edit extends it, without it the edit confirms it.
   */
  readonly persistId?: string;
}

/** Options of an edit (POST, PUT, PATCH, DELETE on data). */
export interface EditOptions extends RequestOptions, Conditions, ConfirmedCommit {}

/** Options of {@link RestconfClient.get}: every GET query parameter of RFC 8040 section 4.8. */
export interface GetOptions extends RequestOptions, Conditions {
  /** `content`: `config`, `nonconfig` or `all`. */
  readonly content?: 'config' | 'nonconfig' | 'all';
  /** `depth`: 1..65535 or `unbounded`. */
  readonly depth?: number | 'unbounded';
  /** `fields`: text such as `library/artist(name)` or a parsed tree. */
  readonly fields?: string | readonly FieldsNode[];
  /** `with-defaults`. */
  readonly withDefaults?: 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';
  /** `with-origin` (RFC 8527; operational datastore only). */
  readonly withOrigin?: boolean;
  /** `with-etag`. */
  readonly withEtag?: boolean;
  /** `with-last-modified`. */
  readonly withLastModified?: boolean;
  /** `with-owners`. */
  readonly withOwners?: boolean;
  /** Vendor query parameters named `prefix:name` (RFC 8040 section 4.8); `''` sends a bare name. */
  readonly vendor?: Readonly<Record<string, string>>;
  /** Read an NMDA datastore (RFC 8527), e.g. `ietf-datastores:operational`. */
  readonly datastore?: string;
}

/** Options of {@link RestconfClient.getConfig}: the input of `ietf-netconf:get-config`. */
export interface GetConfigOptions extends RequestOptions {
  /** `source`: the datastore read (RFC 6241 section 7.1), default `running`. */
  readonly source?: 'running' | 'candidate' | 'startup';
  /** `with-defaults` (RFC 6243 section 4.5.1). */
  readonly withDefaults?: 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';
}

/** Where a new entry goes in a user-ordered list (RFC 8040 sections 4.8.5 and 4.8.6). */
export interface InsertOptions extends EditOptions {
  /** The method: `create` (POST), `replace` (PUT) or `merge` (PATCH, as a YANG Patch insert). */
  readonly operation: 'create' | 'replace' | 'merge';
  /** `insert`: first, last, before or after. */
  readonly insert: 'first' | 'last' | 'before' | 'after';
  /** `point`: the api-path of the entry to insert before or after. */
  readonly point?: string;
}

/** A decoded RESTCONF response. */
export interface RestconfResponse {
  /** HTTP status (200, 201, 204, or 304 for an unchanged conditional GET). */
  readonly status: number;
  readonly headers: Headers;
  /** The body: parsed JSON for JSON responses, the text for XML and YANG; undefined when empty. */
  readonly data: unknown;
  /** The raw body text. */
  readonly text: string;
  /** `ETag` header, when sent. */
  readonly etag?: string;
  /** `Last-Modified` header, when sent. */
  readonly lastModified?: string;
  /** `Location` header of a 201, resolved to an absolute URL. */
  readonly location?: string;
  /** True for 304 Not Modified. */
  readonly notModified: boolean;
}
