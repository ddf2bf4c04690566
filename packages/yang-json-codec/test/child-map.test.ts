import type { SchemaNode } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addChild, fitGroup, groupAt, pairsOf } from '../src/child-map';
import { CompactChildMap, type DataNode } from '../src/index';

/** Stand-ins for schema nodes: the map only compares them by identity. More than it scans (8). */
const KEYS = Array.from({ length: 12 }, (_, i) => ({ name: `k${i}` }) as unknown as SchemaNode);
let groups = 0;
/** A group told apart from every other by its one element. */
const group = (): DataNode[] => [{ id: groups++ } as unknown as DataNode];

type Command =
  | { op: 'set'; key: number }
  | { op: 'add'; key: number }
  | { op: 'delete'; key: number }
  | { op: 'get'; key: number }
  | { op: 'has'; key: number }
  | { op: 'clear' }
  | { op: 'iterate'; cursor: number; kind: 'keys' | 'values' | 'entries' }
  | { op: 'step'; cursor: number };

const key = fc.integer({ min: 0, max: KEYS.length - 1 });
const cursor = fc.integer({ min: 0, max: 2 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('set' as const), key }), weight: 6 },
  { arbitrary: fc.record({ op: fc.constant('add' as const), key }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), key }), weight: 4 },
  fc.record({ op: fc.constant('get' as const), key }),
  fc.record({ op: fc.constant('has' as const), key }),
  { arbitrary: fc.constant({ op: 'clear' as const }), weight: 1 },
  fc.record({
    op: fc.constant('iterate' as const),
    cursor,
    kind: fc.constantFrom('keys', 'values', 'entries'),
  }),
  { arbitrary: fc.record({ op: fc.constant('step' as const), cursor }), weight: 4 },
);

/** Runs `commands` on a Map and on a CompactChildMap side by side; every answer must be the same. */
function runBoth(commands: readonly Command[]): void {
  const real = new Map<SchemaNode, DataNode[]>();
  const compact = new CompactChildMap();
  const cursors: [Iterator<unknown>, Iterator<unknown>][] = [];
  for (const c of commands) {
    switch (c.op) {
      case 'set': {
        const g = group();
        expect(compact.set(KEYS[c.key]!, g)).toBe(compact);
        real.set(KEYS[c.key]!, g);
        break;
      }
      case 'add': {
        // What a decoder adds: one instance, kept alone by the compact map until asked for as an array.
        const node = { schema: KEYS[c.key]!, id: groups++ } as unknown as DataNode;
        addChild(compact, node);
        addChild(real, node);
        break;
      }
      case 'delete':
        expect(compact.delete(KEYS[c.key]!)).toBe(real.delete(KEYS[c.key]!));
        break;
      case 'get':
        // Equal rather than the same: the group of an added instance is an array of each map's own.
        expect(compact.get(KEYS[c.key]!)).toEqual(real.get(KEYS[c.key]!));
        expect(compact.get(KEYS[c.key]!)).toBe(compact.get(KEYS[c.key]!));
        break;
      case 'has':
        expect(compact.has(KEYS[c.key]!)).toBe(real.has(KEYS[c.key]!));
        break;
      case 'clear':
        compact.clear();
        real.clear();
        break;
      case 'iterate':
        cursors[c.cursor] = [compact[c.kind]() as Iterator<unknown>, real[c.kind]() as Iterator<unknown>];
        break;
      case 'step': {
        const pair = cursors[c.cursor];
        if (pair !== undefined) expect(pair[0].next()).toEqual(pair[1].next());
        break;
      }
    }
    // Compared without iterating or getting, which would make iterators or arrays the commands did
    // not ask for.
    expect(compact.size).toBe(real.size);
    for (const k of KEYS) expect(compact.has(k)).toBe(real.has(k));
  }
  expect([...compact]).toEqual([...real]);
  for (const [ours, theirs] of cursors.filter((p) => p !== undefined)) {
    for (let i = 0; i <= KEYS.length; i++) expect(ours.next()).toEqual(theirs.next());
  }
}

describe('CompactChildMap', () => {
  test('answers every sequence of operations as a Map does, live iterators included', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 80 }), (commands) => runBoth(commands)),
      { numRuns: 500 },
    );
  });

  test('visits the pairs set while forEach runs and skips those deleted, as a Map does', () => {
    const visit = (map: Map<SchemaNode, DataNode[]>) => {
      for (let i = 0; i < 10; i++) map.set(KEYS[i]!, group());
      const seen: SchemaNode[] = [];
      map.forEach((_, k) => {
        seen.push(k);
        if (k === KEYS[0]) for (let i = 1; i < 8; i++) map.delete(KEYS[i]!);
        if (k === KEYS[9]) map.set(KEYS[11]!, group());
      });
      return seen;
    };
    expect(visit(new CompactChildMap())).toEqual(visit(new Map()));
  });

  test('copies the pairs of the Map it is made from, in order', () => {
    const source = new Map(KEYS.map((k) => [k, group()] as const));
    const copy = new CompactChildMap(source);
    expect([...copy]).toEqual([...source]);
    expect(new Map(copy)).toEqual(source);
  });

  test('gives one instance added alone in the same array at every get, and keeps what is pushed to it', () => {
    const map = new CompactChildMap();
    const first = { schema: KEYS[0], id: 'a' } as unknown as DataNode;
    addChild(map, first);
    const group = map.get(KEYS[0]!)!;
    expect(group).toEqual([first]);
    group.push({ schema: KEYS[0], id: 'b' } as unknown as DataNode);
    expect(map.get(KEYS[0]!)).toBe(group);
    expect([...map.values()][0]).toBe(group);
  });

  test('shares its groups with a copy made from it, as a Map does', () => {
    const map = new CompactChildMap();
    addChild(map, { schema: KEYS[0], id: 'a' } as unknown as DataNode);
    const copy = new CompactChildMap(map);
    copy.get(KEYS[0]!)!.push({ schema: KEYS[0], id: 'b' } as unknown as DataNode);
    expect(map.get(KEYS[0]!)).toHaveLength(2);
  });

  test('iterators made on two empty maps each visit the keys later added to their own map', () => {
    const a = new CompactChildMap();
    const b = new CompactChildMap();
    const onA = a.keys();
    const onB = b.keys();
    b.set(KEYS[1]!, group());
    a.set(KEYS[0]!, group());
    b.set(KEYS[2]!, group());
    expect([...onA]).toEqual([KEYS[0]]);
    expect([...onB]).toEqual([KEYS[1], KEYS[2]]);
  });

  test('reads as a Map to Object.prototype.toString', () => {
    expect(Object.prototype.toString.call(new CompactChildMap())).toBe('[object Map]');
  });
});

describe('fitGroup', () => {
  const node = (schema: SchemaNode): DataNode => ({ schema }) as unknown as DataNode;

  test('keeps a group of one instance as the instance alone, and a grown group as an equal array', () => {
    for (const children of [new CompactChildMap(), new Map<SchemaNode, DataNode[]>()]) {
      const one = node(KEYS[0]!);
      addChild(children, one);
      const many = [node(KEYS[1]!), node(KEYS[1]!), node(KEYS[1]!)];
      for (const n of many) addChild(children, n);
      const grown = children instanceof CompactChildMap ? undefined : children.get(KEYS[1]!);
      fitGroup(children, KEYS[0]!);
      fitGroup(children, KEYS[1]!);
      fitGroup(children, KEYS[2]!);
      if (children instanceof CompactChildMap) expect(groupAt(pairsOf(children), 1)).toBe(one);
      else expect(children.get(KEYS[1]!)).not.toBe(grown);
      expect([...children]).toEqual([
        [KEYS[0], [one]],
        [KEYS[1], many],
      ]);
    }
  });
});
