import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { applyEdit, ChangeLog, encodeJson } from '../src/index';
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
    log.hold(() => detached++);
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('b')] });
    applyEdit(log, { operation: 'delete', target: [s.top, s.item('a')] });
    expect(detached).toBe(1);
    expect(log.readers).toBe(0);
  });

  test('a released reader is not asked to detach', () => {
    const log = logOf();
    let detached = 0;
    const release = log.hold(() => detached++);
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
    log.hold(() => detached++);
    log.undoTo(mark);
    expect(detached).toBe(1);
  });

  test('an edit that changes nothing leaves the readers held', () => {
    const log = logOf();
    let detached = 0;
    log.hold(() => detached++);
    log.undoTo(log.mark());
    expect(detached).toBe(0);
    expect(log.readers).toBe(1);
  });
});
