import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyEdit,
  applyEditSteps,
  ChangeLog,
  CodecError,
  cloneTree,
  cloneTreeSteps,
  emptyTree,
  encodeJson,
  ITEMS_PER_STEP,
  replaceTree,
  replaceTreeSteps,
  type Steps,
  type TreeEdit,
  validate,
  validateChanges,
  validateChangesSteps,
  validateSteps,
} from '../src/index';
import { resource, sampleTop, steps, topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
let s: ReturnType<typeof steps>;
beforeAll(async () => {
  schema = await treeSchema();
  s = steps(schema);
});

/** Runs `work` to its end, counting its steps. */
function count<T>(work: Steps<T>): { steps: number; value: T } {
  let n = 0;
  for (let next = work.next(); ; next = work.next(), n++)
    if (next.done === true) return { steps: n, value: next.value };
}

/** A merge of `top` with `items` new entries of two leaves each (a size and a tag). */
function bigMerge(items: number): TreeEdit {
  const doc = topDoc(schema, {
    item: Array.from({ length: items }, (_, i) => ({ name: `n${i}`, size: i, tags: ['t'] })),
  });
  return { operation: 'merge', target: [s.top], node: [...doc.children.values()][0]![0]! };
}

describe('applyEditSteps', () => {
  test('applied step by step, an edit gives the tree and the changes applyEdit gives', () => {
    const [a, b] = [new ChangeLog(sampleTop(schema)), new ChangeLog(sampleTop(schema))];
    const edit = (): TreeEdit => ({
      operation: 'replace',
      target: [s.top, s.item('b')],
      node: resource(schema, '/tree-test:top', {
        'tree-test:item': [{ name: 'b', size: 7, tags: ['u', 'v'] }],
      }),
    });
    applyEdit(a, edit());
    count(applyEditSteps(b, edit()));
    expect(encodeJson(b.tree)).toBe(encodeJson(a.tree));
    expect(b.since()).toHaveLength(a.since().length);
  });

  test('takes a step for each node it adds, so a big edit can be applied in slices', () => {
    const log = new ChangeLog(emptyTree(schema));
    const { steps: n } = count(applyEditSteps(log, bigMerge(100), { adopt: true }));
    expect(log.since()).toHaveLength(1 + 100 * 3);
    expect(n).toBeGreaterThanOrEqual(300);
  });

  test('takes steps while it merges entries that exist and change nothing', () => {
    const log = new ChangeLog(emptyTree(schema));
    count(applyEditSteps(log, bigMerge(2_000), { adopt: true }));
    const before = log.since().length;
    // The same entries again, by their keys alone: nothing changes, yet every one is looked up.
    const keysOnly = topDoc(schema, { item: Array.from({ length: 2_000 }, (_, i) => ({ name: `n${i}` })) });
    const edit: TreeEdit = {
      operation: 'merge',
      target: [s.top],
      node: [...keysOnly.children.values()][0]![0]!,
    };
    const { steps: n } = count(applyEditSteps(log, edit));
    expect(log.since()).toHaveLength(before);
    expect(n).toBeGreaterThanOrEqual(Math.floor(2_000 / 64));
  });

  test("throws an edit's error from the step that meets it", () => {
    const log = new ChangeLog(sampleTop(schema));
    const work = applyEditSteps(log, { operation: 'delete', target: [s.top, s.item('zz')] });
    expect(() => count(work)).toThrow(CodecError);
  });
});

describe('validateChangesSteps', () => {
  test('validated step by step, changes give the errors validateChanges gives', () => {
    const log = new ChangeLog(emptyTree(schema));
    applyEdit(log, bigMerge(500), { adopt: true });
    const { steps: n, value } = count(validateChangesSteps(log.tree, log.since(), { config: true }));
    expect(value).toEqual(validateChanges(log.tree, log.since(), { config: true }));
    // A step every ITEMS_PER_STEP changes (the entries hold nothing to check, so none is walked).
    expect(n).toBeGreaterThanOrEqual(500 / ITEMS_PER_STEP);
  });
});

describe('ChangeLog.undoToSteps', () => {
  test('undone step by step, a big edit leaves the tree as it was, a step every few dozen changes', () => {
    const log = new ChangeLog(sampleTop(schema));
    const before = encodeJson(log.tree);
    applyEdit(log, bigMerge(200), { adopt: true });
    const { steps: n } = count(log.undoToSteps(0));
    expect(encodeJson(log.tree)).toBe(before);
    expect(log.mark()).toBe(0);
    expect(n).toBeGreaterThanOrEqual(8);
  });
});

describe('whole-tree work in steps', () => {
  /** A tree of `top` with `items` entries, and a log of it. */
  function bigTree(items: number): ChangeLog {
    const log = new ChangeLog(emptyTree(schema));
    applyEdit(log, bigMerge(items), { adopt: true });
    log.take();
    return log;
  }

  test('cloneTreeSteps copies a tree step by step into what cloneTree gives, sharing no node with it', () => {
    const tree = bigTree(500).tree;
    const { steps: n, value } = count(cloneTreeSteps(tree));
    expect(encodeJson(value)).toBe(encodeJson(cloneTree(tree)));
    expect(encodeJson(value)).toBe(encodeJson(tree));
    const [top] = [...value.children.values()][0]!;
    expect(top).not.toBe([...tree.children.values()][0]![0]);
    expect(n).toBeGreaterThanOrEqual(5);
  });

  test('cloneTreeSteps copies the entries of a big list a few dozen per step', () => {
    // 2,000 leaf-list values: entries without children, all in one group.
    const tags = Array.from({ length: 2_000 }, (_, i) => `t${i}`);
    const tree = topDoc(schema, { item: [{ name: 'a', tags }] });
    const { steps: n, value } = count(cloneTreeSteps(tree));
    expect(encodeJson(value)).toBe(encodeJson(tree));
    expect(n).toBeGreaterThanOrEqual(Math.floor(2_000 / 64));
  });

  test('replaceTreeSteps makes a tree equal to another step by step, logging what replaceTree logs', () => {
    const source = bigTree(300).tree;
    const inSteps = new ChangeLog(sampleTop(schema));
    const atOnce = new ChangeLog(sampleTop(schema));
    const { steps: n } = count(replaceTreeSteps(inSteps, source));
    replaceTree(atOnce, source);
    expect(encodeJson(inSteps.tree)).toBe(encodeJson(source));
    expect(inSteps.since().length).toBe(atOnce.since().length);
    expect(n).toBeGreaterThanOrEqual(300);
  });

  test('validateSteps gives the errors validate gives, and walks no entry that holds nothing to check', () => {
    const tree = bigTree(200).tree;
    const { steps: n, value } = count(validateSteps(tree, { config: true, complete: true }));
    expect(value).toEqual(validate(tree, { config: true, complete: true }));
    // No node of tree-test's items has an expression, a reference or a count to check.
    expect(n).toBeLessThan(2);
  });
});
