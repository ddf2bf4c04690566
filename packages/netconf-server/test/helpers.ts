import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connectStream, duplexPair, type NetconfSession } from '@yangkit/netconf-client';
import { decodeJson, instanceIdSteps, stepOf, type TreeEdit } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { RpcError } from '../src/errors.js';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer, type NetconfServerOptions } from '../src/server.js';

/** The repository's YANG modules: the RFC 8040 examples and the module corpus. */
export const YANG_DIR = path.resolve(__dirname, '../../../yang');

let cached: Promise<SchemaTree> | undefined;

/** example-jukebox, ietf-interfaces, ietf-ip, example-ops, example-actions plus the server's modules. */
export function testSchema(): Promise<SchemaTree> {
  cached ??= loadServerSchema({
    paths: [YANG_DIR],
    modules: [
      'example-jukebox',
      'ietf-interfaces',
      'ietf-ip',
      'iana-if-type',
      'example-ops',
      'example-actions',
      'example-mod',
    ],
  });
  return cached;
}

/** The modules netconfd serves: RFC 7223/7277 ietf-interfaces and ietf-ip, with example-jukebox. */
export async function rfc7223Schema(): Promise<SchemaTree> {
  const dir = path.join(YANG_DIR, 'rfc7223');
  const texts = readdirSync(dir).map((file) => readFileSync(path.join(dir, file), 'utf8'));
  return loadServerSchema({
    paths: [YANG_DIR],
    texts,
    modules: ['example-jukebox', 'ietf-interfaces', 'ietf-ip', 'iana-if-type'],
  });
}

/** A server on the test schema. */
export async function testServer(options: Partial<NetconfServerOptions> = {}): Promise<NetconfServer> {
  return NetconfServer.create({ schema: await testSchema(), ...options });
}

/** A server on the test schema whose running datastore holds `count` artists (`artist-0`, ...). */
export async function serverWithArtists(
  count: number,
  options: Partial<NetconfServerOptions> = {},
): Promise<NetconfServer> {
  const server = await testServer(options);
  const artist = Array.from({ length: count }, (_, i) => ({ name: `artist-${i}` }));
  server
    .localSession('admin')
    .editConfig(
      'running',
      configMerges(server.schema, { 'example-jukebox:jukebox': { library: { artist } } }),
    );
  return server;
}

/** A netconf-client session connected in-process. */
export async function client(server: NetconfServer, username = 'tester'): Promise<NetconfSession> {
  const [a, b] = duplexPair();
  server.connect(a, { username });
  return connectStream(b);
}

export const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
export const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
export const IANAIFT = 'urn:ietf:params:xml:ns:yang:iana-if-type';
export const JB = 'http://example.com/ns/example-jukebox';

/** An ietf-interfaces config with one interface. */
export function iface(name: string, extra = '', op?: string): string {
  const attr = op ? ` xmlns:nc="${NC}" nc:operation="${op}"` : '';
  const body =
    op === 'delete' || op === 'remove'
      ? `<name>${name}</name>`
      : `<name>${name}</name><type xmlns:ianaift="${IANAIFT}">ianaift:ethernetCsmacd</type>${extra}`;
  return `<interfaces xmlns="${IF}"><interface${attr}>${body}</interface></interfaces>`;
}

/** Merges (codec edits) of the top-level nodes of a JSON configuration. */
export function configMerges(schema: SchemaTree, json: object): TreeEdit[] {
  const tree = decodeJson(schema, json, { kind: 'config' });
  return [...tree.children.values()]
    .flat()
    .map((node) => ({ operation: 'merge', target: [stepOf(node)], node }));
}

/** A playlist song: every one plays the library's only song of {@link JUKEBOX} (`id` is an instance-identifier). */
export function song(index: number): { index: number; id: string } {
  return { index, id: "/example-jukebox:jukebox/library/artist[name='A']/album[name='A1']/song[name='s']" };
}

/** A jukebox configuration (JSON) with a library song, two playlists and a player setting. */
export const JUKEBOX = {
  'example-jukebox:jukebox': {
    library: { artist: [{ name: 'A', album: [{ name: 'A1', song: [{ name: 's', location: 'l' }] }] }] },
    playlist: [
      { name: 'p1', description: 'one', song: [song(1), song(2), song(3)] },
      { name: 'p2', song: [song(1)] },
    ],
    player: { gap: '1.5' },
  },
};

/** Edits of every kind on {@link JUKEBOX}: creates, a leaf set, a removal, a move of a user-ordered entry. */
export function mixedEdits(schema: SchemaTree): TreeEdit[] {
  const at = (id: string) => instanceIdSteps(schema, id)!;
  return [
    ...configMerges(schema, {
      'example-jukebox:jukebox': {
        playlist: [
          { name: 'p1', description: 'first' },
          { name: 'p3', song: [song(7)] },
        ],
        player: { gap: '0.5' },
      },
    }),
    { operation: 'delete', target: at("/example-jukebox:jukebox/playlist[name='p2']") },
    {
      operation: 'move',
      target: at("/example-jukebox:jukebox/playlist[name='p1']/song[index='3']"),
      insert: { where: 'first' },
    },
  ];
}

/** The RpcError a call of the tree API throws or its promise rejects with. */
export async function refusal(run: () => unknown): Promise<RpcError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error('expected an RpcError');
}

/** Runs `p` and returns the NetconfRpcError it rejects with. */
export async function rpcErrorOf(
  p: Promise<unknown>,
): Promise<import('@yangkit/netconf-client').NetconfRpcError> {
  const { NetconfRpcError } = await import('@yangkit/netconf-client');
  try {
    await p;
  } catch (error) {
    if (error instanceof NetconfRpcError) return error;
    throw error;
  }
  throw new Error('expected an rpc-error');
}
