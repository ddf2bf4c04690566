import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { exposedGc } from '../../../test-support/gc.js';
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

/** V8's minor collection (a scavenge), as `--expose-gc` gives it, without the flag on the process. */
function minorCollection(): () => void {
  const gc = exposedGc();
  return () => gc({ type: 'minor' });
}

const oldSpaceUsed = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

/** Steps of no work, ending with `result`. */
function* resulting(result: string): Steps<string> {
  yield;
  return result;
}

/**
 * A read whose encoder holds 20,000 objects that nothing else reaches (as a server's holds its
 * request), written to its end.
 */
async function readOfManyObjects(): Promise<void> {
  const objects = Array.from({ length: 20_000 }, (_, i) => ({ i }));
  const chunks = await snapshotAfterSteps(fakeRead(), resulting('count'), (name) => [
    `${name} ${objects.length}`,
  ]);
  for (const chunk of chunks) expect(chunk).toBe('count 20000');
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

  test('nothing of a read outlives it in the young generation: its objects are not promoted', async () => {
    const minor = minorCollection();
    await readOfManyObjects();
    // Reads whose 20,000 objects (about 640 KB) the old generation grew by, across the read and two
    // minor collections after it: all of them when anything old still reaches the read. A minor
    // collection that falls inside a read, while its objects live, may promote them once in a while.
    let promoted = 0;
    for (let i = 0; i < 10; i++) {
      const before = oldSpaceUsed();
      await readOfManyObjects();
      minor();
      minor();
      if (oldSpaceUsed() - before > 320_000) promoted++;
    }
    expect(promoted).toBeLessThanOrEqual(3);
  });
});
