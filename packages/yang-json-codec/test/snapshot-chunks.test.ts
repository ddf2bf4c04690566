import { describe, expect, test } from 'vitest';
import { type DetachableRead, snapshotChunks } from '../src/snapshot-chunks';

/** A shared read whose detach the test triggers, as a datastore about to change would. */
function fakeRead(): DetachableRead & { detach: () => void } {
  let detach = () => {};
  return {
    onDetach: (d) => {
      detach = d;
    },
    detach: () => detach(),
  };
}

/** An encoder over `state` that encodes each chunk only when asked: it reads `state.value` then. */
function* encoder(state: { value: string }, count: number): Generator<string> {
  for (let i = 0; i < count; i++) yield `${state.value}${i};`;
}

describe('snapshotChunks', () => {
  test('chunks are encoded one at a time while the read is held', () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 3), read);
    expect(chunks.next().value).toBe('a0;');
    state.value = 'b';
    expect([...chunks]).toEqual(['b1;', 'b2;']);
  });

  test('on detach the rest is encoded at once, from the state before the change', () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 3), read);
    expect(chunks.next().value).toBe('a0;');
    read.detach();
    state.value = 'b';
    expect([...chunks]).toEqual(['a1;', 'a2;']);
  });

  test('a detach before the first chunk keeps the whole document as it was', () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 2), read);
    read.detach();
    state.value = 'b';
    expect([...chunks]).toEqual(['a0;', 'a1;']);
  });
});
