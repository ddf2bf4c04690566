import { describe, expect, test } from 'vitest';
import type { Detach } from '../src/change-log';
import { type DetachableRead, snapshotAfterSteps, snapshotChunks } from '../src/snapshot-chunks';
import { finishSteps, type Steps } from '../src/steps';

/**
 * A shared read whose detach the test triggers, as a datastore about to change would: at once
 * (`detach`), or the steps it gives (`detachSteps`), which the test runs as the datastore would in
 * slices.
 */
function fakeRead(): DetachableRead & { detach: () => void; detachSteps: () => Steps<void> } {
  let detach: Detach = () => {};
  const detachSteps = function* () {
    const steps = detach();
    if (steps !== undefined) yield* steps;
  };
  return {
    onDetach: (d) => {
      detach = d;
    },
    detach: () => finishSteps(detachSteps()),
    detachSteps,
  };
}

/** Steps that count how many were taken, and end with `result` once `gate` is open. */
function* gated(gate: { open: boolean; taken: number }, result: string): Steps<string> {
  for (; !gate.open; gate.taken++) yield;
  return result;
}

/** Runs one step of `steps`; true once they end. */
const stepOnce = (steps: Steps<void>): boolean => steps.next().done === true;

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

  test('a detach in steps encodes a chunk a step; the writer takes the chunks in order, from before the change', () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 4), read);
    expect(chunks.next().value).toBe('a0;');
    const detaching = read.detachSteps();
    expect(stepOnce(detaching)).toBe(false);
    // The writer goes on meanwhile: first the chunk the detach made, then from the encoder.
    expect(chunks.next().value).toBe('a1;');
    expect(chunks.next().value).toBe('a2;');
    while (!stepOnce(detaching));
    state.value = 'b';
    expect([...chunks]).toEqual(['a3;']);
  });

  test('a detach in steps cut short by a change goes on at once from where it is', () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const chunks = snapshotChunks(encoder(state, 5), read);
    const detaching = read.detachSteps();
    stepOnce(detaching);
    stepOnce(detaching);
    finishSteps(detaching);
    state.value = 'b';
    expect([...chunks]).toEqual(['a0;', 'a1;', 'a2;', 'a3;', 'a4;']);
  });

  test('an encoder that throws during a detach throws to the writer, where it would have met it', () => {
    const read = fakeRead();
    function* failing(): Generator<string> {
      yield 'x;';
      throw new Error('cannot encode');
    }
    const chunks = snapshotChunks(failing(), read);
    read.detach();
    expect(chunks.next().value).toBe('x;');
    expect(() => chunks.next()).toThrow('cannot encode');
  });
});

describe('snapshotAfterSteps', () => {
  test('a detach in steps takes the rest of the steps one at a time, then encodes the result from before the change', async () => {
    const read = fakeRead();
    const state = { value: 'a' };
    const gate = { open: false, taken: 0 };
    let encodedFrom: string | undefined;
    const reading = snapshotAfterSteps(read, gated(gate, 'done'), (result) => {
      encodedFrom = `${result}:${state.value}`;
      return encoder(state, 2);
    });
    const detaching = read.detachSteps();
    const before = gate.taken;
    expect(stepOnce(detaching)).toBe(false);
    expect(gate.taken).toBe(before + 1);
    gate.open = true;
    while (!stepOnce(detaching));
    state.value = 'b';
    const chunks = await reading;
    expect(encodedFrom).toBe('done:a');
    expect([...chunks]).toEqual(['a0;', 'a1;']);
  });

  test('steps that throw during a detach in steps reject the read, not the detach', async () => {
    const read = fakeRead();
    function* failing(): Steps<string> {
      for (let i = 0; i < 100; i++) yield;
      throw new Error('too much work');
    }
    const reading = snapshotAfterSteps(read, failing(), () => ['never']);
    expect(() => finishSteps(read.detachSteps())).not.toThrow();
    await expect(reading).rejects.toThrow('too much work');
  });
});
