import {
  decodeJson,
  encodeJson,
  findPath,
  type InstanceTree,
  type PathStep,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, JB, refusal, testSchema, testServer } from './helpers.js';

let schema: SchemaTree;
let server: NetconfServer;
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(() => server?.close());

/** Merges of the top-level nodes of a JSON configuration. */
const merges = (json: object) => configMerges(schema, json);

const library = (...names: string[]) => ({
  'example-jukebox:jukebox': { library: { artist: names.map((name) => ({ name })) } },
});

/** The data path of an artist of the library. */
function artistPath(name: string): PathStep[] {
  return [
    { schema: schema.find('/example-jukebox:jukebox')! },
    { schema: schema.find('/example-jukebox:jukebox/library')! },
    {
      schema: schema.find('/example-jukebox:jukebox/library/artist')!,
      keys: [{ name: 'name', value: name }],
    },
  ];
}

const json = (tree: InstanceTree) => JSON.parse(encodeJson(tree) || '{}');

describe('LocalSession', () => {
  test('a read gives the target inside its ancestors as a copy the caller may change', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    local.editConfig('candidate', merges(library('Foo', 'Bar')));
    local.commit();
    const tree = await local.read({ target: artistPath('Bar') });
    expect(json(tree)).toEqual({ 'example-jukebox:jukebox': { library: { artist: [{ name: 'Bar' }] } } });
    tree.children.clear();
    expect(json(await local.read({ target: artistPath('Bar') }))).not.toEqual({});
  });

  test('an edit of the candidate reaches running by the commit, with a config-change event and the commit hooks', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    const committedBy: (number | undefined)[] = [];
    server.onCommit((_running, _changes, context) => committedBy.push(context.session?.id));
    local.editConfig('candidate', merges(library('Foo')));
    expect(await local.exists(artistPath('Foo'))).toBe(false);
    local.commit();
    expect(await local.exists(artistPath('Foo'))).toBe(true);
    expect(committedBy).toEqual([local.id]);
    const events = server.events.between(0, Number.POSITIVE_INFINITY).map((e) => encodeJson(e.tree));
    expect(events.some((e) => e.includes('netconf-config-change') && e.includes('alice'))).toBe(true);
  });

  test('a config-change event names each created subtree once, not the nodes inside it', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    local.editConfig('candidate', merges(library('Foo')));
    local.commit();
    const artists = ['A', 'B'].map((name) => ({ name, album: [{ name: `${name}1` }, { name: `${name}2` }] }));
    local.editConfig('candidate', merges({ 'example-jukebox:jukebox': { library: { artist: artists } } }));
    local.commit();
    const last = server.events.between(0, Number.POSITIVE_INFINITY).at(-1)!;
    const event = json(last.tree)['ietf-restconf:notification'][
      'ietf-netconf-notifications:netconf-config-change'
    ];
    expect(event.edit).toEqual([
      { target: "/example-jukebox:jukebox/library/artist[name='A']", operation: 'create' },
      { target: "/example-jukebox:jukebox/library/artist[name='B']", operation: 'create' },
    ]);
  });

  test('a failed edit changes nothing and reports the rpc-error of its NETCONF operation', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    local.editConfig('running', merges(library('Foo')));
    const foo = findPath(decodeJson(schema, library('Foo'), { kind: 'config' }), artistPath('Foo'))!;
    const create: TreeEdit = { operation: 'create', target: artistPath('Foo'), node: foo };
    const error = await refusal(() => local.editConfig('running', [...merges(library('Bar')), create]));
    expect(error.errorTag).toBe('data-exists');
    expect(await local.exists(artistPath('Bar'))).toBe(false);
  });

  test('a configuration that does not validate is refused and running is unchanged', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    // RFC 7950 section 7.6.5: the playlist song's id is mandatory.
    const edits = merges({
      'example-jukebox:jukebox': { playlist: [{ name: 'p', song: [{ index: 1 }] }] },
    });
    expect((await refusal(() => local.editConfig('running', edits))).errorTag).toBe('missing-element');
    expect(json(await local.read({ datastore: 'running' }))).toEqual({});
  });

  test('a datastore locked by a NETCONF session is refused with in-use', async () => {
    server = await testServer();
    const session = await client(server);
    await session.lock({ target: 'candidate' });
    const local = server.localSession('alice');
    expect((await refusal(() => local.editConfig('candidate', merges(library('Foo'))))).errorTag).toBe(
      'in-use',
    );
    await session.close();
  });

  test('NETCONF sessions and local sessions see the same datastores', async () => {
    server = await testServer();
    const session = await client(server);
    await session.editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library><artist><name>Foo</name></artist></library></jukebox>`,
    });
    expect(await server.localSession('alice').exists(artistPath('Foo'))).toBe(true);
    server.localSession('alice').editConfig('running', merges(library('Bar')));
    expect(await session.getConfig({ source: 'running' })).toContain('<name>Bar</name>');
    await session.close();
  });

  test('a confirmed commit with persist is pending until a commit gives its persist-id', async () => {
    server = await testServer();
    const local = server.localSession('alice');
    local.editConfig('candidate', merges(library('Foo')));
    local.commit({ confirmed: true, timeout: 60, persist: 'tok' });
    expect(server.confirmedCommitPending).toBe(true);
    expect((await refusal(() => local.commit())).errorTag).toBe('invalid-value');
    local.commit({ persistId: 'tok' });
    expect(server.confirmedCommitPending).toBe(false);
    expect(await local.exists(artistPath('Foo'))).toBe(true);
  });

  test('with-origin is refused outside the operational datastore', async () => {
    server = await testServer();
    const error = await refusal(() =>
      server.localSession('alice').read({ datastore: 'running', withOrigin: true }),
    );
    expect(error.errorTag).toBe('invalid-value');
  });
});

describe('LocalSession with NACM', () => {
  const RULES = {
    'ietf-netconf-acm:nacm': {
      groups: { group: [{ name: 'operators', 'user-name': ['bob'] }] },
      'rule-list': [
        {
          name: 'operators',
          group: ['operators'],
          rule: [
            {
              name: 'hide-foo',
              path: "/example-jukebox:jukebox/library/artist[name='Foo']",
              'access-operations': 'read',
              action: 'deny',
            },
          ],
        },
      ],
    },
  };

  test("a user's read leaves out what the rules hide and a write the defaults deny is access-denied", async () => {
    server = await testServer({ nacm: true });
    const admin = server.localSession('admin', { recovery: true });
    admin.editConfig('running', [...merges(RULES), ...merges(library('Foo', 'Bar'))]);
    const bob = server.localSession('bob');
    const names = json(await bob.read({ datastore: 'running' }))['example-jukebox:jukebox'].library.artist;
    expect(names).toEqual([{ name: 'Bar' }]);
    expect(await bob.exists(artistPath('Foo'))).toBe(false);
    expect(await bob.exists(artistPath('Bar'))).toBe(true);
    // RFC 8341 section 3.4.5: write-default is deny, so bob may write nothing, known before an edit.
    expect(bob.writeDenied(artistPath('Baz'))).toBe(true);
    expect(admin.writeDenied(artistPath('Baz'))).toBe(false);
    expect((await refusal(() => bob.editConfig('running', merges(library('Baz'))))).errorTag).toBe(
      'access-denied',
    );
    expect(await admin.exists(artistPath('Baz'))).toBe(false);
  });
});

function libraryPath(): PathStep[] {
  return [
    { schema: schema.find('/example-jukebox:jukebox')! },
    { schema: schema.find('/example-jukebox:jukebox/library')! },
  ];
}

/** A server whose running datastore holds the artists `names`. */
async function serverWith(...names: string[]): Promise<NetconfServer> {
  server = await testServer();
  server.localSession('admin').editConfig('running', merges(library(...names)));
  return server;
}

describe('LocalSession.readShared', () => {
  test('the target is the datastore node itself, not a copy', async () => {
    const s = await serverWith('Foo', 'Bar');
    const read = await s.localSession('alice').readShared({ datastore: 'running', target: libraryPath() });
    expect(findPath(read.tree, libraryPath())).toBe(findPath(s.running.tree, libraryPath()));
    read.release();
  });

  test('the datastore holds the reader until it is released', async () => {
    const s = await serverWith('Foo');
    const read = await s.localSession('alice').readShared({ target: libraryPath() });
    expect(s.running.readers).toBe(1);
    read.release();
    expect(s.running.readers).toBe(0);
  });

  test('an edit before the caller walks the tree leaves the read a copy of the state before it', async () => {
    const s = await serverWith('Foo');
    const read = await s.localSession('alice').readShared({ datastore: 'running', target: libraryPath() });
    const before = encodeJson(read.tree);
    s.localSession('admin').editConfig('running', merges(library('Bar')));
    expect(encodeJson(read.tree)).toBe(before);
    expect(findPath(read.tree, libraryPath())).not.toBe(findPath(s.running.tree, libraryPath()));
    read.release();
  });

  test("an edit calls the caller's detach instead, once", async () => {
    const s = await serverWith('Foo');
    const read = await s.localSession('alice').readShared({ target: libraryPath() });
    let detached = 0;
    read.onDetach(() => {
      detached++;
    });
    s.localSession('admin').editConfig('running', merges(library('Bar')));
    s.localSession('admin').editConfig('running', merges(library('Baz')));
    expect(detached).toBe(1);
    read.release();
  });

  test('content other than all shares the nodes, leaving the content to the writer', async () => {
    const s = await serverWith('Foo');
    const read = await s.localSession('alice').readShared({ content: 'config', target: libraryPath() });
    expect(findPath(read.tree, libraryPath())).toBe(findPath(s.running.tree, libraryPath()));
    expect(s.running.readers).toBe(1);
    read.release();
  });

  test('with-origin shares the nodes and brings the rule that gives their origins', async () => {
    const s = await serverWith('Foo');
    const read = await s
      .localSession('alice')
      .readShared({ datastore: 'operational', withOrigin: true, target: libraryPath() });
    expect(findPath(read.tree, libraryPath())).toBe(findPath(s.running.tree, libraryPath()));
    expect(s.running.readers).toBe(1);
    expect(JSON.parse(encodeJson(read.tree, { view: { origin: read.origin! } }))).toEqual({
      'example-jukebox:jukebox': {
        '@': { 'ietf-origin:origin': 'ietf-origin:intended' },
        library: { artist: [{ name: 'Foo' }] },
      },
    });
    expect(encodeJson(read.tree)).not.toContain('ietf-origin');
    read.release();
  });
});
