import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { pairsOf } from '../src/child-map';
import {
  applyEdit,
  ChangeLog,
  type ChildMap,
  cloneTree,
  type DataNode,
  diff,
  diffSteps,
  emptyTree,
  encodeJson,
  findChild,
  findPath,
  pathOf,
  replaceTree,
  replaceTreeSteps,
  stepKey,
  stepOf,
  type TreeChange,
} from '../src/index';
import { codecError } from './helpers';
import { resource, steps, topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
let s: ReturnType<typeof steps>;
beforeAll(async () => {
  schema = await treeSchema();
  s = steps(schema);
});

const json = (log: ChangeLog) => JSON.parse(encodeJson(log.tree));
const logOf = (top: Record<string, unknown>) => new ChangeLog(topDoc(schema, top));
const item = (body: Record<string, unknown>) =>
  resource(schema, '/tree-test:top', { 'tree-test:item': [body] });

describe('lookup by path', () => {
  test('finds a list entry by its key among 1,000', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}`, size: i }));
    const tree = topDoc(schema, { item: items });
    const found = findPath(tree, [s.top, s.item('n777'), s.size]);
    expect(found?.value).toBe('777');
  });

  test('finds no entry for a key no entry has', () => {
    const tree = topDoc(schema, { item: [{ name: 'a' }] });
    expect(findPath(tree, [s.top, s.item('b')])).toBeUndefined();
  });

  test('stepOf and pathOf name an entry by its keys', () => {
    const tree = topDoc(schema, { item: [{ name: 'a', tags: ['x'] }] });
    const tag = findPath(tree, [s.top, s.item('a'), s.tag('x')])!;
    expect(stepOf(tag)).toEqual(s.tag('x'));
    expect(pathOf(tag).map((p) => p.schema.name)).toEqual(['top', 'item', 'tags']);
  });
});

describe('applyEdit', () => {
  test('merge creates the missing ancestors and sets a leaf', () => {
    const log = new ChangeLog(emptyTree(schema));
    applyEdit(log, { operation: 'merge', target: [s.top, s.item('a')], node: item({ name: 'a', size: 3 }) });
    expect(json(log)).toEqual({ 'tree-test:top': { item: [{ name: 'a', size: 3 }] } });
    expect(log.since().map((c) => `${c.op} ${c.path.at(-1)!.schema.name}`)).toEqual([
      'create top',
      'create item',
      'create size',
    ]);
  });

  test('merge of an existing entry logs only the leaf that changed', () => {
    const log = logOf({ item: [{ name: 'a', size: 1, tags: ['x'] }] });
    applyEdit(log, {
      operation: 'merge',
      target: [s.top, s.item('a')],
      node: item({ name: 'a', size: 2, tags: ['x'] }),
    });
    expect(log.since().map((c) => c.op)).toEqual(['set']);
  });

  test('create of an existing entry fails with data-exists', () => {
    const log = logOf({ item: [{ name: 'a' }] });
    const e = codecError(() =>
      applyEdit(log, { operation: 'create', target: [s.top, s.item('a')], node: item({ name: 'a' }) }),
    );
    expect([e.code, e.errorTag, e.errorPath?.json]).toEqual([
      'DATA_EXISTS',
      'data-exists',
      "/tree-test:top/item[name='a']",
    ]);
  });

  test('delete of a missing entry fails with data-missing and remove does nothing', () => {
    const log = logOf({});
    expect(
      codecError(() => applyEdit(log, { operation: 'delete', target: [s.top, s.item('a')] })).errorTag,
    ).toBe('data-missing');
    applyEdit(log, { operation: 'remove', target: [s.top, s.item('a')] });
    expect(log.since()).toEqual([]);
  });

  test('delete of a whole list removes every entry', () => {
    const log = logOf({ item: [{ name: 'a' }, { name: 'b' }], words: ['w'] });
    applyEdit(log, { operation: 'delete', target: [s.top, s.items] });
    expect(json(log)).toEqual({ 'tree-test:top': { words: ['w'] } });
  });

  test('replace removes what the new node lacks and keeps what is equal', () => {
    const log = logOf({ item: [{ name: 'a', size: 1, tags: ['x', 'y'] }] });
    applyEdit(log, {
      operation: 'replace',
      target: [s.top, s.item('a')],
      node: item({ name: 'a', tags: ['y', 'z'] }),
    });
    expect(json(log)).toEqual({ 'tree-test:top': { item: [{ name: 'a', tags: ['y', 'z'] }] } });
    expect(log.since().map((c) => c.op)).toEqual(['remove', 'remove', 'create']);
  });

  test('insert places a new entry of a user-ordered list before the point', () => {
    const log = logOf({ queue: [{ id: 1 }, { id: 2 }] });
    const q3 = resource(schema, '/tree-test:top', { 'tree-test:queue': [{ id: 3 }] });
    applyEdit(log, {
      operation: 'create',
      target: [s.top, s.queue(3)],
      node: q3,
      insert: { where: 'before', point: [s.top, s.queue(2)] },
    });
    expect(json(log)['tree-test:top'].queue.map((q: { id: number }) => q.id)).toEqual([1, 3, 2]);
  });

  test('move puts an entry first, and a missing point fails with missing-instance', () => {
    const log = logOf({ queue: [{ id: 1 }, { id: 2 }] });
    applyEdit(log, { operation: 'move', target: [s.top, s.queue(2)], insert: { where: 'first' } });
    expect(json(log)['tree-test:top'].queue.map((q: { id: number }) => q.id)).toEqual([2, 1]);
    const e = codecError(() =>
      applyEdit(log, {
        operation: 'move',
        target: [s.top, s.queue(2)],
        insert: { where: 'after', point: [s.top, s.queue(9)] },
      }),
    );
    expect([e.code, e.errorTag, e.errorAppTag]).toEqual([
      'MISSING_INSTANCE',
      'bad-attribute',
      'missing-instance',
    ]);
  });

  test('creating a node of one case removes the nodes of the other case', () => {
    const log = logOf({ beta: 'b', gamma: 'g' });
    applyEdit(log, {
      operation: 'merge',
      target: [s.top, s.alpha],
      node: resource(schema, '/tree-test:top', { 'tree-test:alpha': 'a' }),
    });
    expect(json(log)).toEqual({ 'tree-test:top': { alpha: 'a' } });
  });
});

describe('applyEdit with adopt', () => {
  test("the tree takes the edit's instances themselves, each logged with only its keys", () => {
    const log = logOf({});
    const node = item({ name: 'a', size: 3, tags: ['x'] });
    const size = findChild(node, s.size)!;
    applyEdit(log, { operation: 'merge', target: [s.top, s.item('a')], node }, { adopt: true });
    const entry = findPath(log.tree, [s.top, s.item('a')]);
    expect(entry).toBe(node);
    expect(findChild(entry!, s.size)).toBe(size);
    expect(json(log)).toEqual({ 'tree-test:top': { item: [{ name: 'a', size: 3, tags: ['x'] }] } });
    const created = log
      .since()
      .find((c) => c.op === 'create' && c.path.at(-1)!.schema === s.item('a').schema);
    expect(created?.op === 'create' && created.node !== node && [...created.node.children!.keys()]).toEqual([
      s.item('a').schema.keyNodes[0],
    ]);
  });

  test('without adopt the edit is left as it was and the tree holds copies', () => {
    const log = logOf({});
    const node = item({ name: 'a', size: 3, tags: ['x'] });
    const before = encodeJson({ ...emptyTree(schema), children: new Map([[node.schema, [node]]]) });
    applyEdit(log, { operation: 'merge', target: [s.top, s.item('a')], node });
    expect(findPath(log.tree, [s.top, s.item('a')])).not.toBe(node);
    expect(encodeJson({ ...emptyTree(schema), children: new Map([[node.schema, [node]]]) })).toBe(before);
  });

  test('an adopted edit undone leaves the tree as it was', () => {
    const log = logOf({ item: [{ name: 'a', size: 1 }] });
    const before = encodeJson(log.tree);
    const mark = log.mark();
    applyEdit(
      log,
      { operation: 'merge', target: [s.top, s.item('b')], node: item({ name: 'b', size: 2, tags: ['y'] }) },
      { adopt: true },
    );
    log.undoTo(mark);
    expect(encodeJson(log.tree)).toBe(before);
  });
});

describe('the shape of a tree edits build', () => {
  /**
   * The own fields of every child map of `log`'s tree (an inner node's is the node), and how many
   * leaves and containers are held in an array of one.
   */
  const shapes = (log: ChangeLog) => {
    const fields = new Set<string>();
    let boxedSingles = 0;
    const pending: { children?: ChildMap | undefined }[] = [log.tree];
    while (pending.length > 0) {
      const children = pending.pop()!.children;
      if (children === undefined) continue;
      for (const field of Object.keys(children)) fields.add(field);
      const pairs = pairsOf(children);
      for (let p = 1; p < pairs.length; p += 2) {
        const group = pairs[p]!;
        const entries =
          (pairs[p - 1] as SchemaNode).kind === 'list' || (pairs[p - 1] as SchemaNode).kind === 'leaf-list';
        if (Array.isArray(group) && group.length === 1 && !entries) boxedSingles++;
        pending.push(...(Array.isArray(group) ? group : [group as DataNode]));
      }
    }
    return { fields: [...fields].sort(), boxedSingles };
  };
  const items = {
    item: Array.from({ length: 20 }, (_, i) => ({
      name: `i${i}`,
      size: i,
      part: [{ a: 'x', b: 1, note: 'n' }],
    })),
  };

  // The own fields of an inner node, which is its own children map (the document's map has `slots` alone).
  const NODE_FIELDS = ['children', 'parent', 'schema', 'slots'];
  // Each map holding a field of its own once an edit walked it was 40 bytes more per node of a
  // datastore, and each group an edit started an array with room for 16 more.
  test.each([false, true])(
    'holds each leaf and container alone, its maps holding their pairs only (adopt: %s)',
    (adopt) => {
      const log = new ChangeLog(emptyTree(schema));
      const top = topDoc(schema, items);
      applyEdit(
        log,
        { operation: 'merge', target: [s.top], node: [...top.children.values()][0]![0]! },
        { adopt },
      );
      expect(shapes(log)).toEqual({ fields: NODE_FIELDS, boxedSingles: 0 });
      // The same changes replayed on another tree, as the candidate catches up with running.
      const other = new ChangeLog(emptyTree(schema));
      for (const change of log.since()) other.replay(change);
      expect(encodeJson(other.tree)).toBe(encodeJson(log.tree));
      expect(shapes(other)).toEqual({ fields: NODE_FIELDS, boxedSingles: 0 });
    },
  );
});

describe('ChangeLog', () => {
  test('the paths of nodes created one below or beside the other share their steps', () => {
    const log = new ChangeLog(emptyTree(schema));
    applyEdit(log, {
      operation: 'merge',
      target: [s.top, s.item('a')],
      node: item({ name: 'a', tags: ['x', 'y'] }),
    });
    const [top, entry, x, y] = log.since().map((c) => c.path);
    expect(entry![0]).toBe(top![0]);
    expect(x![1]).toBe(entry![1]);
    expect(y![1]).toBe(entry![1]);
    expect(y!.map((p) => p.value ?? p.schema.name)).toEqual(['top', 'item', 'y']);
  });

  test('a replay follows each path from the one before and rebuilds the same tree', () => {
    const log = new ChangeLog(emptyTree(schema));
    const items = Array.from({ length: 20 }, (_, i) => ({ name: `n${i}`, size: i, tags: [`t${i}`] }));
    const top = findPath(topDoc(schema, { item: items }), [s.top])!;
    applyEdit(log, { operation: 'merge', target: [s.top], node: top });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('n3')] });
    const copy = new ChangeLog(emptyTree(schema));
    for (const c of log.since()) expect(copy.replay(c)).toBe(true);
    expect(encodeJson(copy.tree)).toBe(encodeJson(log.tree));
  });

  test('undoTo a mark restores the tree exactly, entry order included', () => {
    const log = logOf({ item: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], queue: [{ id: 1 }, { id: 2 }] });
    const before = encodeJson(log.tree);
    const mark = log.mark();
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    applyEdit(log, { operation: 'move', target: [s.top, s.queue(2)], insert: { where: 'first' } });
    applyEdit(log, { operation: 'merge', target: [s.top, s.item('d')], node: item({ name: 'd', size: 4 }) });
    log.undoTo(mark);
    expect(encodeJson(log.tree)).toBe(before);
    expect(findChild(findPath(log.tree, [s.top])!, s.item('b'))).toBeDefined();
  });

  test('the changes of one tree replayed on a copy give the same tree', () => {
    const start = topDoc(schema, { item: [{ name: 'a', tags: ['x'] }], queue: [{ id: 1 }] });
    const log = new ChangeLog(cloneTree(start));
    applyEdit(log, {
      operation: 'merge',
      target: [s.top, s.item('b')],
      node: item({ name: 'b', tags: ['p', 'q'] }),
    });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('a'), s.tag('x')] });
    const copy = new ChangeLog(cloneTree(start));
    for (const c of log.since()) expect(copy.replay(c)).toBe(true);
    expect(encodeJson(copy.tree)).toBe(encodeJson(log.tree));
  });

  test('diff gives the changes that turn one tree into another', () => {
    const a = topDoc(schema, { item: [{ name: 'a', size: 1 }, { name: 'b' }] });
    const b = topDoc(schema, { item: [{ name: 'a', size: 2 }, { name: 'c' }] });
    const changes = diff(a, b);
    expect(changes.map((c) => c.op)).toEqual(['remove', 'set', 'create']);
    const log = new ChangeLog(cloneTree(a));
    for (const c of changes) log.replay(c);
    expect(encodeJson(log.tree)).toBe(encodeJson(b));
  });

  test('replaceTreeSteps steps every few dozen entries compared, where nothing differs too', () => {
    const items = Array.from({ length: 2_000 }, (_, i) => ({ name: `n${i}` }));
    const log = new ChangeLog(topDoc(schema, { item: items }));
    const steps = replaceTreeSteps(log, topDoc(schema, { item: items }));
    let yields = 0;
    while (steps.next().done !== true) yields++;
    expect(yields).toBeGreaterThanOrEqual(2_000 / 64);
    expect(log.take()).toEqual([]);
  });

  test('diffSteps compares two big trees a step every few dozen nodes, with the changes of one run', () => {
    const items = (from: number, size: number) =>
      Array.from({ length: 2_000 }, (_, i) => ({ name: `n${from + i}`, size }));
    const a = topDoc(schema, { item: items(0, 1) });
    const b = topDoc(schema, { item: items(500, 2) });
    const steps = diffSteps(a, b);
    let yields = 0;
    let next = steps.next();
    for (; next.done !== true; next = steps.next()) yields++;
    // A copy of a, then a comparison of 2,500 entries: many steps, not one.
    expect(yields).toBeGreaterThan(2_500 / 64);
    const oneRun = new ChangeLog(cloneTree(a));
    replaceTree(oneRun, b);
    const text = (changes: readonly TreeChange[]) =>
      changes.map((c) => `${c.op} ${c.path.map((p) => `${p.schema.name}=${stepKey(p) ?? ''}`).join('/')}`);
    expect(text(next.value)).toEqual(text(oneRun.take()));
    // 500 entries removed, 1,500 sizes set, 500 entries created with their size.
    expect(next.value.length).toBe(500 + 1_500 + 500 * 2);
  });
});
