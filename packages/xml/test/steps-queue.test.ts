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
