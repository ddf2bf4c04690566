import { expect, test } from 'vitest';
import { type Steps, StepsQueue } from '../src/index.js';

/** Work of `ms` milliseconds of busy steps of about 1 ms each, then `done(name)`. */
function* busy(name: string, ms: number, done: (name: string) => void): Steps<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const step = performance.now() + 1;
    while (performance.now() < step);
    yield;
  }
  done(name);
}

test('a short piece of work queued while the queue is idle ends in the turn that queued it', () => {
  const queue = new StepsQueue();
  const ended: string[] = [];
  queue.add(busy('short', 0, (n) => ended.push(n)));
  expect(ended).toEqual(['short']);
  expect(queue.size).toBe(0);
});

test('long work runs in slices, with turns of the event loop between them, and keeps its order', async () => {
  const queue = new StepsQueue({ sliceMs: 5 });
  const ended: string[] = [];
  let turns = 0;
  const ticking = setInterval(() => turns++, 0);
  let longest = 0;
  let last = performance.now();
  const watch = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  queue.add(busy('long', 60, (n) => ended.push(n)));
  queue.add(busy('short', 0, (n) => ended.push(n)));
  queue.afterQueued(() => ended.push('task'));
  expect(ended).toEqual([]);
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (queue.size > 0) return;
      clearInterval(check);
      resolve();
    }, 5);
  });
  clearInterval(ticking);
  clearInterval(watch);
  expect(ended).toEqual(['long', 'short', 'task']);
  expect(turns).toBeGreaterThan(3);
  expect(longest).toBeLessThan(40);
});

test('clear drops the work queued and ends the one being run', async () => {
  const queue = new StepsQueue();
  const ended: string[] = [];
  let finished = false;
  queue.add(
    (function* () {
      try {
        yield* busy('long', 30, (n) => ended.push(n));
      } finally {
        finished = true;
      }
    })(),
  );
  queue.add(busy('next', 0, (n) => ended.push(n)));
  queue.clear();
  expect(finished).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(ended).toEqual([]);
  expect(queue.size).toBe(0);
  queue.add(busy('after', 0, (n) => ended.push(n)));
  expect(ended).toEqual(['after']);
});

test('queues that start work in the same turn share one slice in it, not one each', async () => {
  const queues = Array.from({ length: 20 }, () => new StepsQueue({ sliceMs: 5 }));
  let steps = 0;
  function* counted(): Steps<void> {
    for (let i = 0; i < 20; i++) {
      steps++;
      const step = performance.now() + 1;
      while (performance.now() < step);
      yield;
    }
  }
  for (const queue of queues) queue.add(counted());
  // Each queue's first step, then one slice of about 5 ms for them all (at most 5 steps of 1 ms),
  // not a slice of 5 ms each (100 steps).
  expect(steps).toBeLessThan(20 + 10);
  while (queues.some((q) => q.size > 0)) await new Promise((r) => setImmediate(r));
  expect(steps).toBe(20 * 20);
});
