import { decodeJson, encodeJson, encodeXml, type PathStep, pathOf } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, expect, test } from 'vitest';
import { configChangeEvent } from '../src/change-events.js';
import type { Change } from '../src/datastore.js';
import type { ServerSession } from '../src/session.js';
import { testSchema } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
});

const TIME = '2026-11-27T08:00:00Z';

/** The same event decoded from its RFC 7951 JSON, as the codec reads one. */
function decoded(event: object) {
  const tree = decodeJson(
    schema,
    { 'ietf-netconf-notifications:netconf-config-change': event },
    { kind: 'notification' },
  );
  tree.eventTime = TIME;
  return tree;
}

function session(id: number, username: string, sourceHost?: string): ServerSession {
  return { id, info: { username, ...(sourceHost === undefined ? {} : { sourceHost }) } } as ServerSession;
}

/** The path of the artist `name` (and below it, `rest`) in a library. */
function artistPath(name: string, ...rest: string[]): readonly PathStep[] {
  const tree = decodeJson(
    schema,
    {
      'example-jukebox:jukebox': {
        library: { artist: [{ name, album: [{ name: 'a', genre: 'example-jukebox:jazz' }] }] },
      },
    },
    { kind: 'config' },
  );
  const names = ['jukebox', 'library', 'artist', ...rest];
  let node = [...tree.children.values()][0]![0]!;
  for (const name of names.slice(1))
    node = [...node.children!.entries()].find(([s]) => s.name === name)![1][0]!;
  return pathOf(node);
}

test.each([
  ['the server', undefined],
  ['a session without an address', session(3, 'alice')],
  ['a session from an IPv4 address', session(4, 'bob', '192.0.2.1')],
  ['a session from an IPv6 address', session(5, 'carol', '2001:db8::1')],
])('an event of changes made by %s is the tree its JSON decodes to, in JSON and XML', (_, who) => {
  const quoted = "it's";
  const changes = [
    { op: 'create', path: artistPath(quoted) },
    // Inside the entry created: folded into its edit.
    { op: 'create', path: artistPath(quoted, 'album') },
    { op: 'set', path: artistPath('x', 'album', 'genre') },
    { op: 'remove', path: artistPath('y') },
    { op: 'move', path: artistPath('z') },
  ] as unknown as Change[];
  const built = configChangeEvent(schema, who, 'running', changes, TIME);
  const changedBy =
    who === undefined
      ? { server: [null] }
      : {
          username: who.info.username,
          'session-id': who.id,
          ...(who.info.sourceHost === undefined ? {} : { 'source-host': who.info.sourceHost }),
        };
  const expected = decoded({
    'changed-by': changedBy,
    datastore: 'running',
    edit: [
      {
        target: `/example-jukebox:jukebox/library/artist[name="${quoted}"]`,
        operation: 'create',
      },
      {
        target: "/example-jukebox:jukebox/library/artist[name='x']/album[name='a']/genre",
        operation: 'replace',
      },
      { target: "/example-jukebox:jukebox/library/artist[name='y']", operation: 'delete' },
      { target: "/example-jukebox:jukebox/library/artist[name='z']", operation: 'merge' },
    ],
  });
  expect(encodeJson(built)).toBe(encodeJson(expected));
  expect(encodeXml(built)).toBe(encodeXml(expected));
  expect(built.eventTime).toBe(TIME);
});

test('an event names at most 64 edits', () => {
  const changes = Array.from({ length: 100 }, (_, i) => ({
    op: 'remove',
    path: artistPath(`a${i}`),
  })) as unknown as Change[];
  const built = configChangeEvent(schema, undefined, 'candidate', changes, TIME);
  const json = JSON.parse(encodeJson(built))['ietf-restconf:notification'];
  expect(json['ietf-netconf-notifications:netconf-config-change'].edit).toHaveLength(64);
});
