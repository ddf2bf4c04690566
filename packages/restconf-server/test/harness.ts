import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, exampleHandlers, loadServerSchema, NetconfServer } from '@yangkit/netconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { createRestconfHandler, type RestconfHandler } from '../src/handler.js';
import { RESTCONF_MODULES, YANGKIT_MODULE_TEXTS, YANGKIT_MODULES } from '../src/modules.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import type { RestconfHandlerOptions } from '../src/options.js';

/** The repository's YANG modules: the RFC 8040 examples and the module corpus. */
export const YANG_DIR = path.resolve(__dirname, '../../../yang');

let cached: Promise<SchemaTree> | undefined;

/** example-jukebox, example-ops, example-actions, example-mod plus the server's and RESTCONF's modules. */
export function exampleSchema(): Promise<SchemaTree> {
  cached ??= loadServerSchema({
    paths: [YANG_DIR],
    texts: [...YANGKIT_MODULE_TEXTS],
    modules: [
      'example-jukebox',
      'example-ops',
      'example-actions',
      'example-mod',
      'ietf-interfaces',
      'iana-if-type',
      ...YANGKIT_MODULES,
      ...RESTCONF_MODULES,
    ],
  });
  return cached;
}

/** A running gateway over an embedded NETCONF server. */
export interface Gateway {
  readonly url: string;
  readonly netconf: NetconfServer;
  readonly handler: RestconfHandler;
  readonly http: Server;
  /** fetch relative to the gateway. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the embedded server and the handler on 127.0.0.1, port 0. */
export async function startGateway(
  options: Partial<RestconfHandlerOptions> & { candidate?: boolean } = {},
): Promise<Gateway> {
  const schema = await exampleSchema();
  const netconf = await NetconfServer.create({
    schema,
    ...(options.candidate === undefined ? {} : { candidate: options.candidate }),
  });
  exampleHandlers(netconf);
  const backend = createNetconfBackend({
    schema,
    openSession: async () => {
      const [a, b] = duplexPair();
      netconf.connect(a, { username: 'restconf' });
      return connectStream(b);
    },
  });
  const handler = createRestconfHandler({ schema, backend, ...options });
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  await handler.ready;
  return {
    url,
    netconf,
    handler,
    http,
    fetch: (p, init) => fetch(url + p, init),
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await handler.close();
      await netconf.close();
    },
  };
}

/** The jukebox of RFC 8040 Appendix B, as JSON. */
export const JUKEBOX = {
  'example-jukebox:jukebox': {
    library: {
      artist: [
        {
          name: 'Foo Fighters',
          album: [
            {
              name: 'Wasting Light',
              genre: 'example-jukebox:alternative',
              year: 2011,
              song: [{ name: 'Rope', location: '/media/rope.ogg', format: 'Ogg', length: 259 }],
            },
          ],
        },
      ],
    },
    playlist: [{ name: 'Foo-One', description: 'example playlist 1' }],
    player: { gap: '0.5' },
  },
};

/** JSON request init. */
export function json(method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { 'Content-Type': 'application/yang-data+json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
}

/** A PATCH body of `count` playlists named `<prefix>-<i>`: 1,000 playlists are about 20 KB. */
export function playlists(prefix: string, count: number): string {
  const playlist = Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i}` }));
  return JSON.stringify({ 'example-jukebox:jukebox': { playlist } });
}

/** The names of the jukebox's playlists (the jukebox must exist). */
export async function playlistNames(gw: Gateway): Promise<string[]> {
  const r = await gw.fetch('/restconf/data/example-jukebox:jukebox/playlist', {
    headers: { Accept: 'application/yang-data+json' },
  });
  const body = (await r.json()) as { 'example-jukebox:playlist': { name: string }[] };
  return body['example-jukebox:playlist'].map((p) => p.name);
}
