import { getHeapStatistics } from 'node:v8';
import {
  BODY_ADMISSION_DEFAULTS,
  IDLE_COLLECTION_DEFAULTS,
  MAX_BODY_NODES,
  MAX_KEY_LENGTH,
  MAX_STRING_LENGTH,
  SMALL_BODY_BYTES,
} from '@yangkit/restconf-server';
import { type Http1Timeouts, MAX_CONCURRENT_STREAMS, SESSION_IDLE_MS } from './http2.js';
import type { GatewayOptions } from './options.js';
import { LOGIN_FAILURES_PER_ADDRESS, LOGIN_FAILURES_PER_USER } from './security/login-throttle.js';
import { MAX_REQUESTS_PER_CLIENT } from './security/request-limit.js';
import { MAX_UNAUTHENTICATED_CONNECTIONS } from './security/unauthenticated-connections.js';
import { CONCURRENT_PASSWORD_CHECKS, QUEUED_PASSWORD_CHECKS } from './security/users-file.js';

/** The limits the gateway itself enforces. */
export interface GatewayLimits {
  readonly requestsPerClient: number;
  readonly unauthenticatedConnections: number;
  readonly failuresPerAddress: number;
  readonly failuresPerUser: number;
  readonly keyLength: number;
  readonly stringLength: number;
  readonly bodyNodes: number;
  readonly bodiesDecoding: number;
  readonly bodiesWaiting: number;
  readonly heapPercent: number;
  readonly idleCollection: boolean;
}

/** The gateway's own limits: the options given, else the defaults. */
export function limitsOf(options: GatewayOptions): GatewayLimits {
  return {
    requestsPerClient: options.maxRequestsPerClient ?? MAX_REQUESTS_PER_CLIENT,
    unauthenticatedConnections: options.maxUnauthenticatedConnections ?? MAX_UNAUTHENTICATED_CONNECTIONS,
    failuresPerAddress: options.loginFailuresPerAddress ?? LOGIN_FAILURES_PER_ADDRESS,
    failuresPerUser: options.loginFailuresPerUser ?? LOGIN_FAILURES_PER_USER,
    keyLength: options.maxKeyLength ?? MAX_KEY_LENGTH,
    stringLength: options.maxStringLength ?? MAX_STRING_LENGTH,
    bodyNodes: options.maxBodyNodes ?? MAX_BODY_NODES,
    bodiesDecoding: options.maxBodiesDecoding ?? BODY_ADMISSION_DEFAULTS.maxDecoding,
    bodiesWaiting: options.maxBodiesWaiting ?? BODY_ADMISSION_DEFAULTS.maxWaiting,
    heapPercent: options.maxHeapPercent ?? BODY_ADMISSION_DEFAULTS.maxHeapPercent,
    idleCollection: options.idleCollection ?? true,
  };
}

/** What the start-up line of limits covers, beside the limits. */
export interface Served {
  readonly http: Http1Timeouts;
  readonly http2: boolean;
  /** With authentication: Basic logins (`basic`), with scrypt checks of a users file (`usersFile`). */
  readonly authenticated: boolean;
  readonly basic: boolean;
  readonly usersFile: boolean;
}

/** The start-up line that says what the HTTP server and the gateway bound, with the values in force. */
export function limitsLine(limits: GatewayLimits, served: Served): string {
  const { http } = served;
  const s = (ms: number) => `${ms / 1000} s`;
  const parts = [
    `${limits.requestsPerClient} requests in progress per client`,
    `list keys of ${limits.keyLength} bytes, values of ${limits.stringLength} bytes, ${limits.bodyNodes} data nodes per body`,
    `${limits.bodiesDecoding} bodies over ${SMALL_BODY_BYTES / 1024} KiB decoded at once and ${limits.bodiesWaiting} waiting, refused above ${limits.heapPercent}% of the ${Math.round(getHeapStatistics().heap_size_limit / 2 ** 20)} MB heap limit`,
    limits.idleCollection
      ? `their memory and a busy period's given back by a full collection once ${IDLE_COLLECTION_DEFAULTS.quietMs / 1000} s quiet`
      : 'no collection after them (--idle-collection=false)',
    `headers within ${s(http.headersTimeout)}, a whole request within ${s(http.requestTimeout)}, idle keep-alive ${s(http.keepAliveTimeout)}`,
  ];
  if (served.http2)
    parts.push(
      `HTTP/2 ${MAX_CONCURRENT_STREAMS} streams per session, idle sessions closed after ${s(SESSION_IDLE_MS)}`,
    );
  if (served.authenticated)
    parts.push(`${limits.unauthenticatedConnections} connections without an authenticated request`);
  if (served.basic)
    parts.push(
      `logins wait after ${limits.failuresPerAddress} failures per address or ${limits.failuresPerUser} per user name`,
    );
  if (served.usersFile)
    parts.push(`${CONCURRENT_PASSWORD_CHECKS} password checks at once and ${QUEUED_PASSWORD_CHECKS} waiting`);
  return `limits: ${parts.join('; ')}`;
}
