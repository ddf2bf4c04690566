import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { findEntriesSteps, positionsSteps } from '../src/child-index';
import {
  ChangeLog,
  cloneTree,
  cloneTreeSteps,
  createNode,
  type DataNode,
  decodeJson,
  decodeXml,
  encodeXml,
  findEntryByKey,
  finishSteps,
  hasKeyIndex,
  type InstanceTree,
  ITEMS_PER_STEP,
  indexTreeSteps,
  insertChild,
  moveChild,
  removeChild,
  type Steps,
} from '../src/index';
import { testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
}, 60_000);

const ARTISTS = 1000;

/** The jukebox of `count` artists, each with two albums, as a document. */
function libraryJson(count = ARTISTS) {
  const artist = Array.from({ length: count }, (_, i) => ({
    name: `artist-${i}`,
    album: [{ name: 'first' }, { name: 'second' }],
  }));
  return { 'example-jukebox:jukebox': { library: { artist } } };
}

/** A jukebox of `count` artists, each with two albums, without key indexes (a copy: see `cloneTree`). */
function library(count = ARTISTS): InstanceTree {
  return cloneTree(decodeJson(schema, libraryJson(count)));
}

/** The node `module:name` among the children of `holder`, whole group. */
function group(holder: { children: DataNode['children'] }, name: string): DataNode[] {
  for (const [s, nodes] of holder.children ?? []) if (s.name === name) return nodes;
  throw new Error(`no ${name}`);
}

/** The key of an artist. */
const keyOf = (artist: DataNode): string => artist.children!.get(artist.schema.keyNodes[0]!)![0]!.value!;

const artists = (tree: InstanceTree): DataNode[] =>
  group(group(group(tree, 'jukebox')[0]!, 'library')[0]!, 'artist');

/** Runs `steps` to its end, counting its steps. */
function countSteps<T>(steps: Steps<T>): { result: T; steps: number } {
  let count = 0;
  let next = steps.next();
  while (next.done !== true) {
    count++;
    next = steps.next();
  }
  return { result: next.value, steps: count };
}

/** The key `name` of an artist entry. */
const nameOf = (entry: DataNode): string => group(entry, 'name')[0]!.value!;

describe('a decoded document', () => {
  test('holds its big lists with their key indexes, built by the check of their keys', () => {
    const json = libraryJson();
    const xml = encodeXml(decodeJson(schema, json));
    for (const tree of [
      decodeJson(schema, json),
      decodeJson(schema, JSON.stringify(json)),
      decodeXml(schema, xml),
    ]) {
      const entries = artists(tree);
      expect(hasKeyIndex(entries)).toBe(true);
      const library = group(group(tree, 'jukebox')[0]!, 'library')[0]!;
      expect(findEntryByKey(library, entries[0]!.schema, 'artist-777')).toBe(entries[777]);
      // Small groups are scanned, not indexed.
      expect(hasKeyIndex(group(entries[0]!, 'album'))).toBe(false);
    }
  });

  test('still refuses a repeated key, past the entries that are scanned', () => {
    const json = libraryJson(20);
    json['example-jukebox:jukebox'].library.artist.push({ name: 'artist-3', album: [] });
    expect(() => decodeJson(schema, json)).toThrow(/same keys/);
  });
});

describe('a list an edit fills', () => {
  test('is indexed as it passes the entries that are scanned, and kept in step', () => {
    const tree = library(0);
    const log = new ChangeLog(tree);
    const jukebox = log.create(undefined, createNode(schema.find('/example-jukebox:jukebox')!, undefined));
    const library_ = log.create(
      jukebox,
      createNode(schema.find('/example-jukebox:jukebox/library')!, jukebox),
    );
    const artistSchema = schema.find('/example-jukebox:jukebox/library/artist')!;
    for (let i = 0; i < 100; i++) {
      const entry = createNode(artistSchema, undefined);
      const key = createNode(artistSchema.keyNodes[0]!, entry);
      key.value = `artist-${i}`;
      entry.children!.set(key.schema, [key]);
      log.create(library_, entry);
    }
    const list = group(library_, 'artist');
    expect(hasKeyIndex(list)).toBe(true);
    expect(findEntryByKey(library_, artistSchema, 'artist-99')).toBe(list[99]);
  });
});

describe('indexTreeSteps', () => {
  test('indexes a big list in many steps, none of them the whole list', () => {
    const tree = library();
    const list = artists(tree);
    const steps = indexTreeSteps(tree);
    let count = 0;
    while (steps.next().done !== true) {
      count++;
      // Lookups never see a half-built index: it is published whole, after the last entry.
      if (count === 2) expect(hasKeyIndex(list)).toBe(false);
    }
    expect(count).toBeGreaterThanOrEqual(ARTISTS / ITEMS_PER_STEP);
    expect(hasKeyIndex(list)).toBe(true);
  });

  test('leaves a lookup by key answering from the index it built', () => {
    const tree = library();
    finishSteps(indexTreeSteps(tree));
    const list = artists(tree);
    const library_ = list[0]!.parent!;
    expect(hasKeyIndex(list)).toBe(true);
    expect(findEntryByKey(library_, list[0]!.schema, 'artist-777')).toBe(list[777]);
    expect(findEntryByKey(library_, list[0]!.schema, 'artist-none')).toBeUndefined();
  });

  test('indexes no group of a few entries', () => {
    const tree = library();
    finishSteps(indexTreeSteps(tree));
    expect(hasKeyIndex(group(artists(tree)[0]!, 'album'))).toBe(false);
  });

  test('keeps an index being built in step with the entries added and removed between two steps', () => {
    const tree = library();
    const list = artists(tree);
    const library_ = list[0]!.parent!;
    const removed = list[500]!;
    const steps = indexTreeSteps(tree);
    steps.next();
    steps.next();
    const added = createNode(list[0]!.schema, undefined);
    const key = createNode(list[0]!.schema.keyNodes[0]!, added);
    key.value = 'artist-new';
    added.children!.set(key.schema, [key]);
    insertChild(library_, added, 0);
    removeChild(library_, removed);
    moveChild(library_, list[10]!, 0);
    finishSteps(steps);
    expect(hasKeyIndex(list)).toBe(true);
    expect(findEntryByKey(library_, added.schema, 'artist-new')).toBe(added);
    expect(findEntryByKey(library_, added.schema, 'artist-499')).toBe(
      list.find((a) => keyOf(a) === 'artist-499'),
    );
    expect(findEntryByKey(library_, added.schema, 'artist-500')).toBeUndefined();
    for (const artist of list) expect(findEntryByKey(library_, added.schema, keyOf(artist))).toBe(artist);
  });

  test('a lookup in a big list not indexed scans it and has its index built in the background', async () => {
    const tree = library(3 * 64 * ITEMS_PER_STEP);
    const list = artists(tree);
    const library_ = list[0]!.parent!;
    expect(findEntryByKey(library_, list[0]!.schema, 'artist-9000')).toBe(list[9000]);
    expect(hasKeyIndex(list)).toBe(false);
    // A change meanwhile is taken into the index being built.
    removeChild(library_, list[20]!);
    for (let turn = 0; turn < 1000 && !hasKeyIndex(list); turn++) await new Promise((r) => setImmediate(r));
    expect(hasKeyIndex(list)).toBe(true);
    expect(findEntryByKey(library_, list[0]!.schema, 'artist-20')).toBeUndefined();
    expect(findEntryByKey(library_, list[0]!.schema, 'artist-9000')).toBe(list[8999]);
  });

  test('several keys looked up in a big list not indexed take one scan of it in steps, not one scan each', () => {
    const tree = library(3 * 64 * ITEMS_PER_STEP);
    const list = artists(tree);
    // Counts the reads of each entry's children, which is how an entry's key is read.
    let reads = 0;
    for (const entry of list) {
      const children = entry.children;
      Object.defineProperty(entry, 'children', {
        get: () => {
          reads++;
          return children;
        },
      });
    }
    const keys = new Set(['artist-9000', 'artist-5', 'artist-12000', 'artist-none']);
    const { result: found, steps } = stepsOf(findEntriesSteps(list, keys));
    expect(new Set(found)).toEqual(new Set([list[9000], list[5], list[12000]]));
    // One scan to its end (a key is missing); a scan for each key would read four times as many.
    expect(reads).toBe(list.length);
    // A step every ITEMS_PER_STEP entries read, not the whole list in one.
    expect(steps).toBe(list.length / ITEMS_PER_STEP);
    expect(hasKeyIndex(list)).toBe(false);
  });

  test('the positions of a few entries of a big list are found in one scan in steps, stopped once all are found', () => {
    const list = artists(library(3 * 64 * ITEMS_PER_STEP));
    const { result, steps } = stepsOf(positionsSteps(list, new Set([list[9000]!, list[5]!, list[700]!])));
    expect(result).toEqual([5, 700, 9000]);
    expect(steps).toBe(Math.floor(9001 / ITEMS_PER_STEP));
  });

  test('a lookup in a list of a few thousand entries builds its index at once', () => {
    const tree = library(2000);
    const list = artists(tree);
    expect(findEntryByKey(list[0]!.parent!, list[0]!.schema, 'artist-1999')).toBe(list[1999]);
    expect(hasKeyIndex(list)).toBe(true);
  });

  test('keeps the index right through later edits', () => {
    const tree = library();
    finishSteps(indexTreeSteps(tree));
    const log = new ChangeLog(tree);
    const list = artists(tree);
    const library_ = list[0]!.parent!;
    const moved = list[10]!;
    log.remove(list[3]!);
    moveChild(library_, moved, 900);
    expect(findEntryByKey(library_, moved.schema, 'artist-3')).toBeUndefined();
    expect(findEntryByKey(library_, moved.schema, 'artist-10')).toBe(moved);
    expect(hasKeyIndex(list)).toBe(true);
  });
});

describe('cloneTreeSteps', () => {
  test('gives the copy of an indexed list its own index, mapping keys to the copied entries', () => {
    const tree = library();
    finishSteps(indexTreeSteps(tree));
    const { result: copy, steps } = countSteps(cloneTreeSteps(tree));
    expect(steps).toBeGreaterThanOrEqual((2 * ARTISTS) / ITEMS_PER_STEP);
    const list = artists(copy);
    expect(hasKeyIndex(list)).toBe(true);
    const found = findEntryByKey(list[0]!.parent!, list[0]!.schema, 'artist-42');
    expect(found === list[42]).toBe(true);
    expect(found === artists(tree)[42]).toBe(false);
    expect(nameOf(found!)).toBe('artist-42');
  });

  test('indexes no list its source has not indexed', () => {
    const copy = finishSteps(cloneTreeSteps(library()));
    expect(hasKeyIndex(artists(copy))).toBe(false);
  });

  test('cloneTree copies no index', () => {
    const tree = library();
    finishSteps(indexTreeSteps(tree));
    expect(hasKeyIndex(artists(cloneTree(tree)))).toBe(false);
  });
});

/** What `steps` return, run to their end, and how many steps they took. */
function stepsOf<T>(steps: Steps<T>): { result: T; steps: number } {
  let count = 0;
  let next = steps.next();
  for (; next.done !== true; next = steps.next()) count++;
  return { result: next.value, steps: count };
}
