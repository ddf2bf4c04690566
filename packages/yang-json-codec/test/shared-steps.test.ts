import { describe, expect, test } from 'vitest';
import { SharedSteps } from '../src/shared-steps';
import type { Steps } from '../src/steps';

/** Three steps that count each step taken, then return `result` (or throw it when an Error). */
function* counted(taken: number[], result: unknown): Steps<unknown> {
  for (let i = 0; i < 3; i++) {
    taken.push(i);
    yield;
  }
  if (result instanceof Error) throw result;
  return result;
}

describe('SharedSteps', () => {
  test('runners that take turns take each step once and all get the result', () => {
    const taken: number[] = [];
    const shared = new SharedSteps(counted(taken, 'done'));
    const a = shared.resultSteps();
    const b = shared.resultSteps();
    a.next();
    b.next();
    a.next();
    // A runner that stops leaves the rest to the others.
    a.return(undefined);
    let next = b.next();
    while (next.done !== true) next = b.next();
    expect(next.value).toBe('done');
    expect(taken).toEqual([0, 1, 2]);
    expect(shared.result()).toEqual({ value: 'done' });
  });

  test('what the steps throw is thrown to every runner, the steps not run again', () => {
    const taken: number[] = [];
    const failure = new Error('too much work');
    const shared = new SharedSteps(counted(taken, failure));
    const run = (): unknown => {
      const steps = shared.resultSteps();
      let next = steps.next();
      while (next.done !== true) next = steps.next();
      return next.value;
    };
    expect(run).toThrow(failure);
    expect(run).toThrow(failure);
    expect(taken).toEqual([0, 1, 2]);
  });
});
