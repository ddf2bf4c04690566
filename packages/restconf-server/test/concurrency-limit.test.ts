import { describe, expect, test } from 'vitest';
import { ConcurrencyLimit } from '../src/concurrency-limit.js';

/** A task that runs until the test ends it. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((resolve) => {
    end = resolve;
  });
  let started = false;
  return {
    task: () => {
      started = true;
      return done;
    },
    end,
    get started() {
      return started;
    },
  };
}

describe('ConcurrencyLimit', () => {
  test('runs at most its concurrency of tasks at once and starts a waiting one when a slot frees', async () => {
    const limit = new ConcurrencyLimit(2, 5);
    const tasks = [held(), held(), held()];
    const runs = tasks.map((t) => limit.run(t.task));
    expect(tasks.map((t) => t.started)).toEqual([true, true, false]);
    tasks[0]!.end();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(tasks[2]!.started).toBe(true);
    tasks[1]!.end();
    tasks[2]!.end();
    await Promise.all(runs);
  });

  test('refuses a task, without running it, once its queue is full', () => {
    const limit = new ConcurrencyLimit(1, 1);
    const tasks = [held(), held(), held()];
    const runs = tasks.map((t) => limit.run(t.task));
    expect(runs[2]).toBeUndefined();
    expect(tasks[2]!.started).toBe(false);
    for (const t of tasks) t.end();
  });

  test('frees the slot of a task that fails', async () => {
    const limit = new ConcurrencyLimit(1, 0);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(() => Promise.resolve(7))).resolves.toBe(7);
  });

  test('gives a slot back once, however often its release is called', async () => {
    const limit = new ConcurrencyLimit(1, 1);
    const release = await limit.acquire()!;
    const next = limit.acquire()!;
    release();
    release();
    await next;
    expect([limit.active, limit.queued]).toEqual([1, 0]);
    expect(limit.acquire()).toBeDefined();
  });

  test('takes a waiting request out of the queue when its signal aborts', async () => {
    const limit = new ConcurrencyLimit(1, 1);
    const release = await limit.acquire()!;
    const gone = new AbortController();
    const waiting = limit.acquire(gone.signal)!;
    expect(limit.acquire()).toBeUndefined();
    gone.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    expect(limit.queued).toBe(0);
    const next = limit.acquire()!;
    release();
    await next;
    expect(limit.active).toBe(1);
  });

  test('counts the slots taken and the requests waiting', async () => {
    const limit = new ConcurrencyLimit(2, 3);
    const releases = await Promise.all([limit.acquire()!, limit.acquire()!]);
    void limit.acquire();
    expect([limit.active, limit.queued]).toEqual([2, 1]);
    releases[0]!();
    expect([limit.active, limit.queued]).toEqual([2, 0]);
  });
});
