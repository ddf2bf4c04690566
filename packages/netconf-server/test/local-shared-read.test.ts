import {
  decodeJson,
  encodeJson,
  findPath,
  type PathStep,
  stepOf,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { testSchema, testServer } from './helpers.js';

let schema: SchemaTree;
let server: NetconfServer;
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(() => server?.close());

function merges(json: object): TreeEdit[] {
  const tree = decodeJson(schema, json, { kind: 'config' });
  return [...tree.children.values()]
    .flat()
    .map((node) => ({ operation: 'merge', target: [stepOf(node)], node }));
}

const library = (...names: string[]) => ({
  'example-jukebox:jukebox': { library: { artist: names.map((name) => ({ name })) } },
});

function libraryPath(): PathStep[] {
  return [
    { schema: schema.find('/example-jukebox:jukebox')! },
    { schema: schema.find('/example-jukebox:jukebox/library')! },
  ];
}

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
    read.onDetach(() => detached++);
    s.localSession('admin').editConfig('running', merges(library('Bar')));
    s.localSession('admin').editConfig('running', merges(library('Baz')));
    expect(detached).toBe(1);
    read.release();
  });

  test('content other than all is read as a copy that holds nothing', async () => {
    const s = await serverWith('Foo');
    const read = await s.localSession('alice').readShared({ content: 'config', target: libraryPath() });
    expect(findPath(read.tree, libraryPath())).not.toBe(findPath(s.running.tree, libraryPath()));
    expect(s.running.readers).toBe(0);
  });
});
