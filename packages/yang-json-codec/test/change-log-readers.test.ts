import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { applyEdit, applyEditSteps, ChangeLog, encodeJson, finishSteps, type Steps } from '../src/index';
import { steps, topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
let s: ReturnType<typeof steps>;
beforeAll(async () => {
  schema = await treeSchema();
  s = steps(schema);
});

const logOf = () => new ChangeLog(topDoc(schema, { item: [{ name: 'a', size: 1 }, { name: 'b' }] }));

describe('ChangeLog readers', () => {
  test('a held reader detaches before the tree changes, seeing the tree as it was', () => {
    const log = logOf();
    const before = encodeJson(log.tree);
    let seen: string | undefined;
    log.hold(() => {
      seen = encodeJson(log.tree);
    });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(seen).toBe(before);
    expect(encodeJson(log.tree)).not.toBe(before);
  });

  test('a reader detaches once and is then forgotten', () => {
    const log = logOf();
    let detached = 0;
    log.hold(() => {
      detached++;
    });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('a')] });
    expect(detached).toBe(1);
    expect(log.readers).toBe(0);
  });

  test('a released reader is not asked to detach', () => {
    const log = logOf();
    let detached = 0;
    const release = log.hold(() => {
      detached++;
    });
    expect(log.readers).toBe(1);
    release();
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(detached).toBe(0);
    expect(log.readers).toBe(0);
  });

  test('undoing changes detaches the readers too', () => {
    const log = logOf();
    const mark = log.mark();
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    let detached = 0;
    log.hold(() => {
      detached++;
    });
    log.undoTo(mark);
    expect(detached).toBe(1);
  });

  test('an edit that changes nothing leaves the readers held', () => {
    const log = logOf();
    let detached = 0;
    log.hold(() => {
      detached++;
    });
    log.undoTo(log.mark());
    expect(detached).toBe(0);
    expect(log.readers).toBe(1);
  });

  /** A reader whose detach takes `count` steps, counting them. */
  function slowReader(log: ChangeLog, count: number) {
    const reader = { steps: 0, ended: false, release: () => {} };
    reader.release = log.hold(function* () {
      for (; reader.steps < count; reader.steps++) yield;
      reader.ended = true;
    });
    return reader;
  }

  test('readers detach in steps, one step at a time, each once, before a change made in steps', () => {
    const log = logOf();
    const first = slowReader(log, 3);
    const second = slowReader(log, 2);
    const edit = applyEditSteps(log, { operation: 'delete', target: [s.top, s.item('b')] });
    const before = encodeJson(log.tree);
    let steps = 0;
    while (edit.next().done !== true) {
      steps++;
      // Nothing changes while a reader detaches.
      if (!second.ended) expect(encodeJson(log.tree)).toBe(before);
    }
    expect(steps).toBe(5);
    expect([first.ended, second.ended]).toEqual([true, true]);
    expect(log.readers).toBe(0);
    expect(encodeJson(log.tree)).not.toBe(before);
  });

  test('a change made at once during a detach in steps finishes it from where it is', () => {
    const log = logOf();
    const reader = slowReader(log, 10);
    const detaching = log.detachReadersSteps();
    detaching.next();
    detaching.next();
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(reader).toMatchObject({ steps: 10, ended: true });
    expect(log.readers).toBe(0);
    expect(detaching.next().done).toBe(true);
  });

  test('a reader released during its detach in steps is not stepped further', () => {
    const log = logOf();
    const reader = slowReader(log, 10);
    const detaching: Steps<void> = log.detachReadersSteps();
    detaching.next();
    reader.release();
    finishSteps(detaching);
    expect(reader).toMatchObject({ steps: 0, ended: false });
  });

  test('undoing in steps detaches the readers in steps first', () => {
    const log = logOf();
    const mark = log.mark();
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    const edited = encodeJson(log.tree);
    const reader = slowReader(log, 4);
    const undo = log.undoToSteps(mark);
    for (let i = 0; i < 4; i++) expect(undo.next().done).toBe(false);
    expect(reader.ended).toBe(false);
    expect(encodeJson(log.tree)).toBe(edited);
    finishSteps(undo);
    expect(reader.ended).toBe(true);
    expect(log.readers).toBe(0);
    expect(encodeJson(log.tree)).not.toBe(edited);
  });
});
