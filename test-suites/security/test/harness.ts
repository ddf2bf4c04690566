import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-server';
import { type Gateway, type GatewayOptions, startGateway } from '@yangkit/restconf-gateway';
import { pino } from 'pino';
import { basic } from './credentials.js';

/** Media types of RFC 8040 section 11.3 and RFC 8072 section 4.2. */
export const DATA_JSON = 'application/yang-data+json';
export const DATA_XML = 'application/yang-data+xml';
export const PATCH_JSON = 'application/yang-patch+json';
export const PATCH_XML = 'application/yang-patch+xml';

/** Longest any single request may take before the suite calls it a hang. */
export const REQUEST_DEADLINE_MS = 5_000;

/** The gateway under test with a NETCONF session of its own on the embedded server, for snapshots. */
export interface Server {
  readonly gateway: Gateway;
  /** fetch relative to the gateway, aborted (and reported as a hang) after {@link REQUEST_DEADLINE_MS}. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** running and candidate as the embedded NETCONF server has them, read over NETCONF, not HTTP. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

/** Starts the real app on 127.0.0.1, a free port, with the embedded backend, logging nothing. */
export async function startServer(options: GatewayOptions = {}): Promise<Server> {
  const gateway = await startGateway({ port: 0, ...options }, { logger: pino({ level: 'silent' }) });
  const netconf = gateway.backend.netconf;
  if (netconf === undefined) throw new Error('the security suite needs the embedded backend');
  const [a, b] = duplexPair();
  netconf.connect(a, { username: 'snapshot' });
  const session: NetconfSession = await connectStream(b);
  await session.ready;
  const hasCandidate = session.capabilities.protocol.has('candidate');
  return {
    gateway,
    async fetch(path, init) {
      const signal = AbortSignal.timeout(REQUEST_DEADLINE_MS);
      return fetch(gateway.url + path, { ...init, signal });
    },
    async snapshot() {
      const running = await session.getConfig({ source: 'running' });
      const candidate = hasCandidate ? await session.getConfig({ source: 'candidate' }) : '';
      return `${running}\n--candidate--\n${candidate}`;
    },
    async close() {
      await session.close().catch(() => undefined);
      await gateway.close();
    },
  };
}

/** The `ietf-restconf:errors` body of a response, parsed from JSON or checked in XML; undefined if absent. */
export function errorsBody(text: string, contentType: string | null): unknown {
  if (contentType?.includes('json') === true) {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      return body['ietf-restconf:errors'];
    } catch {
      return undefined;
    }
  }
  if (contentType?.includes('xml') === true) {
    return /<errors\s+xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"/.test(text) ? text : undefined;
  }
  return undefined;
}

/**
 * The errors of a `yang-patch-status` body: RFC 8072 section 2.3 has a failed YANG Patch report
 * them there, for the whole patch (`errors`) or for the edit that failed (`edit-status`).
 */
export function patchStatusErrors(text: string, contentType: string | null): unknown {
  if (contentType?.includes('json') === true) {
    type Errors = { error?: unknown[] };
    type Status = { errors?: Errors; 'edit-status'?: { edit?: { errors?: Errors }[] } };
    try {
      const status = (JSON.parse(text) as Record<string, Status | undefined>)[
        'ietf-yang-patch:yang-patch-status'
      ];
      return status?.errors ?? status?.['edit-status']?.edit?.find((e) => e.errors !== undefined)?.errors;
    } catch {
      return undefined;
    }
  }
  if (contentType?.includes('xml') === true) {
    return /<yang-patch-status\s+xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"[\s\S]*<errors>/.test(
      text,
    )
      ? text
      : undefined;
  }
  return undefined;
}

/** `s.fetch` as one of the users of `passwords` (HTTP Basic), asking for JSON unless told otherwise. */
export function fetchAs<User extends string>(
  s: () => Server,
  passwords: Readonly<Record<User, string>>,
): (user: User, path: string, init?: RequestInit) => Promise<Response> {
  return (user, path, init = {}) =>
    s().fetch(path, {
      ...init,
      headers: { Accept: DATA_JSON, Authorization: basic(user, passwords[user]), ...init.headers },
    });
}

/** An NACM rule-list (RFC 8341) hiding the jukebox's playlists from the users of group `users`. */
export const PLAYLISTS_HIDDEN = {
  name: 'users',
  group: ['users'],
  rule: [
    {
      name: 'hide-playlists',
      'module-name': 'example-jukebox',
      path: '/example-jukebox:jukebox/playlist',
      'access-operations': 'read',
      action: 'deny',
    },
  ],
};

/** An NACM rule-list (RFC 8341) letting the users of group `editors` create, update and delete anything of example-jukebox. */
export const JUKEBOX_EDITORS = {
  name: 'editors',
  group: ['editors'],
  rule: [
    {
      name: 'edit-jukebox',
      'module-name': 'example-jukebox',
      'access-operations': 'create update delete',
      action: 'permit',
    },
  ],
};

/** A JSON body of the jukebox with `count` playlists (two data nodes each: the entry and its key). */
export function playlists(count: number): string {
  const entries = Array.from({ length: count }, (_, i) => `{"name":"p${i}"}`);
  return `{"example-jukebox:jukebox":{"playlist":[${entries.join(',')}]}}`;
}
