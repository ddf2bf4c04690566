import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { applyEdit, ChangeLog, CodecError, cloneTree, encodeJson, type InstanceTree } from '../src/index';
import { resource, sampleTop, steps, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
let s: ReturnType<typeof steps>;
beforeAll(async () => {
  schema = await treeSchema();
  s = steps(schema);
});

/** A running log and a candidate log on a copy of its tree, the candidate edited. */
function committable(): { running: ChangeLog; candidate: ChangeLog; before: string; after: string } {
  const running = new ChangeLog(sampleTop(schema));
  const candidate = new ChangeLog(cloneTree(running.tree));
  applyEdit(candidate, { operation: 'delete', target: [s.top, s.item('a')] });
  applyEdit(candidate, {
    operation: 'merge',
    target: [s.top, s.item('c')],
    node: resource(schema, '/tree-test:top', { 'tree-test:item': [{ name: 'c', size: 3 }] }),
  });
  applyEdit(candidate, {
    operation: 'merge',
    target: [s.top, s.item('b'), s.size],
    node: resource(schema, '/tree-test:top/item', { 'tree-test:size': 9 }),
  });
  return { running, candidate, before: encodeJson(running.tree), after: encodeJson(candidate.tree) };
}

const json = (tree: InstanceTree) => encodeJson(tree);

describe('ChangeLog.adopt', () => {
  test('takes the tree and the changes of the other log, which gets the former tree with no changes', () => {
    const { running, candidate, before, after } = committable();
    const [runningTree, candidateTree] = [running.tree, candidate.tree];
    const changes = candidate.since();
    running.adopt(candidate);
    expect(running.tree).toBe(candidateTree);
    expect(candidate.tree).toBe(runningTree);
    expect(running.since()).toEqual(changes);
    expect(candidate.mark()).toBe(0);
    expect([json(running.tree), json(candidate.tree)]).toEqual([after, before]);
  });

  test('replaying the adopted changes brings the former tree up to date', () => {
    const { running, candidate, after } = committable();
    running.adopt(candidate);
    for (const c of running.take()) candidate.replay(c);
    expect(json(candidate.tree)).toBe(after);
  });

  test('undoing to mark 0 gives the tree and its changes back, undoing none of them', () => {
    const { running, candidate, before, after } = committable();
    const [runningTree, candidateTree] = [running.tree, candidate.tree];
    const changes = candidate.since();
    running.adopt(candidate);
    running.undoTo(0);
    expect(running.tree).toBe(runningTree);
    expect(candidate.tree).toBe(candidateTree);
    expect([json(running.tree), json(candidate.tree)]).toEqual([before, after]);
    expect(candidate.since()).toEqual(changes);
    expect(running.mark()).toBe(0);
    // The candidate can still be rolled back itself.
    candidate.undoTo(0);
    expect(json(candidate.tree)).toBe(before);
  });

  test('changes logged after the adoption are undone before the adopted ones are given back', () => {
    const { running, candidate, before, after } = committable();
    running.adopt(candidate);
    applyEdit(running, { operation: 'delete', target: [s.top, s.item('c')] });
    running.undoTo(0);
    expect([json(running.tree), json(candidate.tree)]).toEqual([before, after]);
  });

  test('after take the adoption is final: undoing to mark 0 gives nothing back', () => {
    const { running, candidate, after } = committable();
    const candidateTree = candidate.tree;
    running.adopt(candidate);
    running.take();
    running.undoTo(0);
    expect(running.tree).toBe(candidateTree);
    expect(json(running.tree)).toBe(after);
  });

  test('each reader goes with the tree it reads', () => {
    const { running, candidate } = committable();
    const detached: string[] = [];
    running.hold(() => {
      detached.push('running reader');
    });
    candidate.hold(() => {
      detached.push('candidate reader');
    });
    running.adopt(candidate);
    expect([running.readers, candidate.readers]).toEqual([1, 1]);
    // The former running tree is the candidate's now: its reader detaches before it changes.
    applyEdit(candidate, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(detached).toEqual(['running reader']);
    applyEdit(running, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(detached).toEqual(['running reader', 'candidate reader']);
  });

  test('giving the tree back takes its readers back, detaching none', () => {
    const { running, candidate } = committable();
    let detached = 0;
    running.hold(() => {
      detached++;
    });
    running.adopt(candidate);
    running.undoTo(0);
    expect([running.readers, candidate.readers, detached]).toEqual([1, 0, 0]);
  });

  test('is refused while the adopting log has changes of its own', () => {
    const { running, candidate } = committable();
    applyEdit(running, { operation: 'delete', target: [s.top, s.item('b')] });
    expect(() => running.adopt(candidate)).toThrow(CodecError);
  });
});
