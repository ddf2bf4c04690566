import { emptyTree } from '@yangkit/yang-json-codec';
import { describe, expect, test } from 'vitest';
import type { SharedRead } from '../src/backend.js';
import { snapshotChunks } from '../src/snapshot-chunks.js';
import { exampleSchema } from './harness.js';

/** A shared read whose detach the test triggers, as a datastore about to change would. */
async function fakeRead(): Promise<SharedRead & { detach: () => void }> {
  let detach = () => {};
  return {
    tree: emptyTree(await exampleSchema()),
    onDetach: (d) => {
      detach = d;
    },
    release: () => {},
    detach: () => detach(),
  };
}

/** An encoder over `state` that encodes each chunk only when asked: it reads `state.value` then. */
function* encoder(state: { value: string }, count: number): Generator<string> {
  for (let i = 0; i < count; i++) yield `${state.value}${i};`;
}

describe('snapshotChunks', () => {
  test('chunks are encoded one at a time while the read is held', async () => {
    const read = await fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 3), read);
    expect(chunks.next().value).toBe('a0;');
    state.value = 'b';
    expect([...chunks]).toEqual(['b1;', 'b2;']);
  });

  test('on detach the rest is encoded at once, from the state before the change', async () => {
    const read = await fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 3), read);
    expect(chunks.next().value).toBe('a0;');
    read.detach();
    state.value = 'b';
    expect([...chunks]).toEqual(['a1;', 'a2;']);
  });

  test('a detach before the first chunk keeps the whole document as it was', async () => {
    const read = await fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 2), read);
    read.detach();
    state.value = 'b';
    expect([...chunks]).toEqual(['a0;', 'a1;']);
  });
});
