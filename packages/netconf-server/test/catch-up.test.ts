import { ChangeLog, cloneTree, encodeJson, type TreeEdit } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { CatchUp } from '../src/catch-up.js';
import { createDatastore } from '../src/datastore.js';
import { applyEdits } from '../src/edit-config.js';
import { configMerges, JUKEBOX, mixedEdits, testSchema } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
});

/** Running holding {@link JUKEBOX}, a follower equal to it, and the changes `edits` made to running. */
function committed(edits: (schema: SchemaTree) => TreeEdit[]) {
  const running = createDatastore(schema);
  applyEdits(schema, running, configMerges(schema, JUKEBOX), 'rollback-on-error');
  running.take();
  const follower = new ChangeLog(cloneTree(running.tree));
  applyEdits(schema, running, edits(schema), 'rollback-on-error');
  return { running, follower, changes: running.take() };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('CatchUp', () => {
  test('a few changes with no reader of the tree are replayed at once, in the turn they come', () => {
    const { running, follower, changes } = committed(mixedEdits);
    expect(changes.length).toBeGreaterThan(0);
    const catchUp = new CatchUp(follower, running);
    catchUp.add(changes);
    expect(catchUp.pending).toBe(false);
    expect(encodeJson(follower.tree)).toBe(encodeJson(running.tree));
  });

  test('with a reader of the tree they wait for the next turn, the reader detaching first', async () => {
    const { running, follower, changes } = committed(mixedEdits);
    let detached = false;
    const release = follower.hold(() => {
      detached = true;
      return undefined;
    });
    const catchUp = new CatchUp(follower, running);
    catchUp.add(changes);
    expect(catchUp.pending).toBe(true);
    expect(detached).toBe(false);
    await turns(5);
    expect(detached).toBe(true);
    expect(catchUp.pending).toBe(false);
    expect(encodeJson(follower.tree)).toBe(encodeJson(running.tree));
    release();
  });
});
