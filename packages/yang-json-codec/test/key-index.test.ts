import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  ChangeLog,
  cloneTree,
  cloneTreeSteps,
  createNode,
  type DataNode,
  decodeJson,
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

/** A jukebox of `count` artists, each with two albums (decoded: no index yet). */
function library(count = ARTISTS): InstanceTree {
  const artist = Array.from({ length: count }, (_, i) => ({
    name: `artist-${i}`,
    album: [{ name: 'first' }, { name: 'second' }],
  }));
  return decodeJson(schema, { 'example-jukebox:jukebox': { library: { artist } } });
}

/** The node `module:name` among the children of `holder`, whole group. */
function group(holder: { children: DataNode['children'] }, name: string): DataNode[] {
  for (const [s, nodes] of holder.children ?? []) if (s.name === name) return nodes;
  throw new Error(`no ${name}`);
}

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

  test('gives up a group changed between two steps, whose next lookup finds the change', () => {
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
    finishSteps(steps);
    expect(hasKeyIndex(list)).toBe(false);
    expect(findEntryByKey(library_, added.schema, 'artist-new')).toBe(added);
    expect(findEntryByKey(library_, added.schema, 'artist-499')).toBeDefined();
    expect(findEntryByKey(library_, added.schema, 'artist-500')).toBeUndefined();
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
