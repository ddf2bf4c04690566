import type { SchemaTree } from '@yangkit/yang-schema';
import type { Registry } from 'prom-client';
import type { AuditListener } from './audit.js';
import type { Backend } from './backend.js';
import type { ChangeClock } from './change-clock.js';
import type { Encoding } from './media.js';
import type { EventStreamOptions } from './streams/index.js';
import type { SubscriptionOptions } from './subscriptions/index.js';

/** Order of `ordered-by system` entries when `systemSorted` is on. */
export type SystemSortType = 'ascending' | 'descending';

/** RFC 6243 basic modes, for `defaultStyle`. */
export type DefaultStyle = 'report-all' | 'trim' | 'explicit';

/** Where the handler reports what it does; `console` fits. */
export interface Logger {
  /** Detail for operators tracing the server (default: not logged). */
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Options of `createRestconfHandler` (spec names in parentheses). */
export interface RestconfHandlerOptions {
  /**
   * The compiled schema: the backend's modules plus ietf-restconf, ietf-restconf-monitoring,
   * ietf-yang-patch (default and only accepted value: the backend's, whose trees it describes).
   */
  readonly schema?: SchemaTree;
  /** Where the data is: a NETCONF server through `createNetconfBackend`. */
  readonly backend: Backend;
  /** The RESTCONF root path announced in host-meta (default `/restconf`). */
  readonly root?: string;
  /** Start of the URL in Location headers (`--restconf-server-url`, default `http://localhost`). */
  readonly serverUrl?: string;
  /** Encoding when the request does not choose one (`--restconf-default-encoding`, default json). */
  readonly defaultEncoding?: Encoding;
  /** Only RFC 8040 media types in Accept/Content-Type (`--restconf-strict-headers`, default false). */
  readonly strictHeaders?: boolean;
  /** JSON member names without module names (`--simple-json-names`, default false; not RFC 7951). */
  readonly simpleJsonNames?: boolean;
  /** Indentation of response bodies; -1 or 0 writes one line (`--message-indent`, default -1). */
  readonly messageIndent?: number;
  /** with-defaults mode when the query has none (`--default-style`, default explicit). */
  readonly defaultStyle?: DefaultStyle;
  /** Write empty non-presence containers (`--return-empty-npcontainers`, default false). */
  readonly returnEmptyNpContainers?: boolean;
  /** Sort system-ordered lists by key and leaf-lists by value (`--system-sorted`, default false). */
  readonly systemSorted?: boolean;
  /** Direction of that sort (`--system-sort-type`, default ascending). */
  readonly systemSortType?: SystemSortType;
  /** RFC 7952 metadata in JSON output (`--with-json-metadata`, default true); XML is not affected. */
  readonly withJsonMetadata?: boolean;
  /**
   * RFC 7952 metadata annotations in output at all, JSON and XML (`--with-yang-metadata`, default
   * true). When false, `report-all-tagged` and `with-origin` write no annotations.
   */
  readonly withYangMetadata?: boolean;
  /**
   * A list key value of `*` in the last segment of a GET/HEAD data resource path matches every
   * entry (`--wildcard-keys`, default false); other methods answer 400.
   */
  readonly wildcardKeys?: boolean;
  /**
   * Serve RESTCONF at all (`--with-restconf`, default true). When false, the root and host-meta
   * are not served (404, or `next()` as middleware); `/server-status` and `/metrics` still are.
   */
  readonly withRestconf?: boolean;
  /**
   * Serve the RFC 8527 `{root}/ds/<datastore>` resources when the backend implements NMDA
   * (`--with-nmda`, default false).
   */
  readonly withNmda?: boolean;
  /** Extra capability URIs for restconf-state (`--restconf-capability`). */
  readonly capabilities?: readonly string[];
  /**
   * Takes the user name of an HTTP Basic Authorization header as the request's user when nothing
   * in front of the handler recorded one (`req.remoteUser`, `req.user`, `req.auth.user`): for an
   * application that checks Basic credentials before the handler without recording whom it let
   * in. Default false: a name nobody verified is no user, so that on a server without
   * authentication NACM sees no user and every request counts against its client address in the
   * limits per client, whatever user name it makes up.
   */
  readonly trustBasicUser?: boolean;
  /** Where to log (default: nothing). */
  readonly logger?: Logger;
  /** Serve `/server-status` (default false). */
  readonly serverStatus?: boolean;
  /** Serve Prometheus metrics at `/metrics`: true for a registry of the handler's own, or a registry (default false). */
  readonly metrics?: boolean | Registry;
  /** Largest accepted request body in bytes (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /** Longest accepted list key value in UTF-8 bytes, in the URI or a body (default 1024); longer is 400 invalid-value. */
  readonly maxKeyLength?: number;
  /** Longest accepted leaf or leaf-list value of a body in UTF-8 bytes (default 1 MiB); longer is 400 invalid-value. */
  readonly maxStringLength?: number;
  /** Most data nodes in one request body (default 200,000); more is 413 too-big, refused as it is decoded. */
  readonly maxBodyNodes?: number;
  /**
   * Most request bodies read, decoded and applied at once, across all clients (default 2): a body
   * waits for a slot before any of its bytes are read. A body whose Content-Length declares at
   * most 64 KiB does not wait.
   */
  readonly maxBodiesDecoding?: number;
  /** Most bodies waiting for a slot (default 16); past them a request is 503 with `Retry-After: 1`. */
  readonly maxBodiesWaiting?: number;
  /**
   * Percent of V8's heap limit in use (`used_heap_size` of `heap_size_limit`) above which a body
   * over 64 KiB, or of undeclared size, is answered 503 with `Retry-After: 1`, unread (default 70;
   * 100 never refuses). Read only when such a body comes.
   */
  readonly maxHeapPercent?: number;
  /**
   * Runs one full garbage collection (V8's `gc()`; Node exposes it with `--expose-gc`). When
   * given, it runs once no body over 64 KiB has been in progress for 2 s (small requests meanwhile
   * aside), or after a busy period of other requests (and after the start) once none has been
   * answered for 2 s; when the heap has grown past 1.5 times what is live plus 8 MB and its pause
   * would stay under 250 ms (see `IdleCollectionOptions.maxPauseMs`), at most once per 10 s, at a
   * moment no request is being answered (open event streams and RFC 8650 subscription receivers
   * aside; at most 10 s later), so that the memory of big bodies and busy periods goes back to the
   * system rather than staying resident until JavaScript allocates again (default: not run; V8
   * decides alone).
   */
  readonly collectGarbage?: () => void;
  /**
   * Runs one collection of the young generation (V8's `gc({ type: 'minor' })`). With
   * `collectGarbage`, when a quiet time finds the young generation grown (past 4 MB), it runs
   * 5.5 s after the last collection (and right away when the full one was skipped), which lets V8
   * shrink it back to 1 MB if little was allocated meanwhile (it grows to 32 MB under load and
   * keeps that size otherwise; default: not run). The young generation is the process's: a big read
   * after a shrink starts in a young generation of 1 MB, until V8 grows it again.
   */
  readonly collectYoungGeneration?: () => void;
  /** Entity tag and last-modified state of the datastore (default in memory). */
  readonly clock?: ChangeClock;
  /** Seconds of SSE idleness before `:SSE keepalive`: 0 or 5..3600 (`--sse-keepalive`, `SSE_KEEPALIVE`; default 0). */
  readonly sseKeepalive?: number;
  /**
   * Event stream queue bounds and keepalive (RFC 8040 section 6); the queue bounds also hold the
   * notifications of an RFC 8650 subscription until its GET.
   */
  readonly streams?: EventStreamOptions;
  /** How many RFC 8639/8650 subscriptions users may hold, how long one waits for its GET, who sees them all. */
  readonly subscriptions?: SubscriptionOptions;
  /**
   * Called once per request with an unsafe method (POST, PUT, PATCH, DELETE, ...) when its
   * response is done, with what an audit log needs: the YANG Patch `patch-id`, the error-tag of a
   * refusal, the datastore, the status (see `AuditRecord`). Default: none.
   */
  readonly audit?: AuditListener;
}
