import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyEdit,
  ChangeLog,
  CodecError,
  cloneTree,
  diff,
  encodeJson,
  entryKey,
  findChild,
  findPath,
  type InstanceTree,
  invertChange,
  type TreeEdit,
} from '../src/index';
import { resource, steps, topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
let s: ReturnType<typeof steps>;
beforeAll(async () => {
  schema = await treeSchema();
  s = steps(schema);
});

const NAMES = ['a', 'b', 'c', 'd'];
const TAGS = ['x', 'y', 'z'];

const itemValue = fc.record(
  {
    name: fc.constantFrom(...NAMES),
    size: fc.integer({ min: 0, max: 9 }),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
    part: fc.uniqueArray(
      fc.record({
        a: fc.constantFrom('p', 'q'),
        b: fc.integer({ min: 0, max: 2 }),
        note: fc.constantFrom('n', 'm'),
      }),
      { maxLength: 2, selector: (p) => `${p.a}/${p.b}` },
    ),
  },
  { requiredKeys: ['name'] },
);

/** A `top` container: a few items, a user-ordered queue, words, one case of the choice. */
const topValue = fc
  .record(
    {
      item: fc.uniqueArray(itemValue, { maxLength: 4, selector: (i) => i.name }),
      queue: fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 5 }) }), {
        maxLength: 4,
        selector: (q) => q.id,
      }),
      words: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
      alpha: fc.constantFrom('a1', 'a2'),
      beta: fc.constantFrom('b1', 'b2'),
    },
    { requiredKeys: [] },
  )
  .map((top) => {
    // One case of the choice at a time.
    if (top.alpha !== undefined) delete top.beta;
    return top;
  });

const where = fc.constantFrom('first' as const, 'last' as const, 'before' as const, 'after' as const);

/** Edits of every operation on items, queue entries, tags and the choice. */
const editValue = fc.oneof(
  fc.record({
    op: fc.constantFrom('create' as const, 'merge' as const, 'replace' as const),
    item: itemValue,
  }),
  fc.record({ op: fc.constantFrom('delete' as const, 'remove' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({
    op: fc.constantFrom('create' as const, 'merge' as const, 'move' as const),
    id: fc.integer({ min: 1, max: 5 }),
    where,
    point: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    op: fc.constant('tag' as const),
    name: fc.constantFrom(...NAMES),
    tag: fc.constantFrom(...TAGS),
    where,
  }),
  fc.record({ op: fc.constant('case' as const), alpha: fc.boolean() }),
);

type EditValue = typeof editValue extends fc.Arbitrary<infer T> ? T : never;

function toEdit(e: EditValue): TreeEdit {
  switch (e.op) {
    case 'delete':
    case 'remove':
      return { operation: e.op, target: [s.top, s.item(e.name)] };
    case 'tag':
      return {
        operation: 'merge',
        target: [s.top, s.item(e.name), s.tag(e.tag)],
        node: resource(schema, '/tree-test:top/item', { 'tree-test:tags': [e.tag] }),
        insert: { where: e.where, point: [s.top, s.item(e.name), s.tag(TAGS[0]!)] },
      };
    case 'case':
      return e.alpha
        ? {
            operation: 'merge',
            target: [s.top, s.alpha],
            node: resource(schema, '/tree-test:top', { 'tree-test:alpha': 'a3' }),
          }
        : {
            operation: 'merge',
            target: [s.top, s.beta],
            node: resource(schema, '/tree-test:top', { 'tree-test:beta': 'b3' }),
          };
    default:
      if ('item' in e) {
        return {
          operation: e.op,
          target: [s.top, s.item(e.item.name)],
          node: resource(schema, '/tree-test:top', { 'tree-test:item': [e.item] }),
        };
      }
      return {
        operation: e.op,
        target: [s.top, s.queue(e.id)],
        ...(e.op === 'move'
          ? {}
          : { node: resource(schema, '/tree-test:top', { 'tree-test:queue': [{ id: e.id }] }) }),
        insert: { where: e.where, point: [s.top, s.queue(e.point)] },
      };
  }
}

/** Applies each edit, skipping the ones that fail (as an error-option continue-on-error would). */
function applyAll(log: ChangeLog, edits: readonly TreeEdit[]): void {
  for (const edit of edits) {
    try {
      applyEdit(log, edit);
    } catch (error) {
      if (!CodecError.isInstance(error)) throw error;
    }
  }
}

const sorted = (tree: InstanceTree) => encodeJson(tree, { sortSystemOrdered: true });

describe('tree edit properties', () => {
  test('applying edits and undoing to the mark gives back the same encoded tree', () => {
    fc.assert(
      fc.property(topValue, fc.array(editValue, { maxLength: 8 }), (top, edits) => {
        const log = new ChangeLog(topDoc(schema, top));
        const before = encodeJson(log.tree);
        const mark = log.mark();
        applyAll(log, edits.map(toEdit));
        log.undoTo(mark);
        expect(encodeJson(log.tree)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  test('the logged changes replayed on a copy of the start give the same encoded tree', () => {
    fc.assert(
      fc.property(topValue, fc.array(editValue, { maxLength: 8 }), (top, edits) => {
        const start = topDoc(schema, top);
        const log = new ChangeLog(cloneTree(start));
        applyAll(log, edits.map(toEdit));
        const copy = new ChangeLog(start);
        for (const c of log.since()) copy.replay(c);
        expect(encodeJson(copy.tree)).toBe(encodeJson(log.tree));
      }),
      { numRuns: 300 },
    );
  });

  test('replaying the inverted changes, newest first, gives back the start', () => {
    fc.assert(
      fc.property(topValue, fc.array(editValue, { maxLength: 8 }), (top, edits) => {
        const start = topDoc(schema, top);
        const log = new ChangeLog(cloneTree(start));
        applyAll(log, edits.map(toEdit));
        const changes = log.take();
        for (let i = changes.length - 1; i >= 0; i--)
          for (const c of invertChange(changes[i]!)) log.replay(c);
        expect(sorted(log.tree)).toBe(sorted(start));
      }),
      { numRuns: 300 },
    );
  });

  test('diff(a, b) replayed on a gives b', () => {
    fc.assert(
      fc.property(topValue, topValue, (a, b) => {
        const ta = topDoc(schema, a);
        const tb = topDoc(schema, b);
        const log = new ChangeLog(cloneTree(ta));
        for (const c of diff(ta, tb)) log.replay(c);
        expect(sorted(log.tree)).toBe(sorted(tb));
      }),
      { numRuns: 300 },
    );
  });

  test('keyed lookup finds what a scan of the entries finds', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 3 }), { maxLength: 40 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 10 }),
        fc.array(editValue, { maxLength: 4 }),
        (names, probes, edits) => {
          const log = new ChangeLog(topDoc(schema, { item: names.map((name) => ({ name })) }));
          applyAll(log, edits.map(toEdit));
          const top = findPath(log.tree, [s.top]);
          const group = top?.children?.get(s.items.schema) ?? [];
          for (const name of [...probes, ...names, ...NAMES]) {
            const scanned = group.find((n) => entryKey(n) === name);
            expect(top === undefined ? undefined : findChild(top, s.item(name))).toBe(scanned);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
