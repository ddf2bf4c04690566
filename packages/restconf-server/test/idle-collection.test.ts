import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { IDLE_COLLECTION_DEFAULTS, IdleCollection } from '../src/idle-collection.js';

const { quietMs, intervalMs } = IDLE_COLLECTION_DEFAULTS;
const MB = 2 ** 20;
const GROWN = { total: 4096 * MB, used: 100 * MB };

describe('IdleCollection', () => {
  let collect: ReturnType<typeof vi.fn<() => void>>;
  let idle: IdleCollection;

  beforeEach(() => {
    vi.useFakeTimers();
    collect = vi.fn<() => void>();
    // A heap always well past what is live: each collection is worth its pause.
    idle = new IdleCollection({ collect, heap: () => GROWN });
  });
  afterEach(() => {
    idle.close();
    vi.useRealTimers();
  });

  test('collects once, quietMs after the last big body is done', () => {
    idle.begin();
    idle.begin();
    idle.end();
    vi.advanceTimersByTime(quietMs * 2);
    expect(collect).not.toHaveBeenCalled();
    idle.end();
    vi.advanceTimersByTime(quietMs - 1);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(intervalMs * 3);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(idle.collections).toBe(1);
  });

  test('does not collect while a big body that began in the quiet time is in progress', () => {
    idle.begin();
    idle.end();
    vi.advanceTimersByTime(quietMs - 1);
    idle.begin();
    vi.advanceTimersByTime(intervalMs * 2);
    expect(collect).not.toHaveBeenCalled();
    idle.end();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  test('collects at most once per interval, the later one when the interval has passed', () => {
    idle.begin();
    idle.end();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    idle.begin();
    idle.end();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(intervalMs - quietMs - 1);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(2);
    expect(idle.collections).toBe(2);
  });

  test('never collects without a big body', () => {
    vi.advanceTimersByTime(intervalMs * 3);
    expect(collect).not.toHaveBeenCalled();
  });

  test('drops the collection not run yet when closed', () => {
    idle.begin();
    idle.end();
    idle.close();
    vi.advanceTimersByTime(intervalMs);
    expect(collect).not.toHaveBeenCalled();
  });

  test('logs each collection at debug with its time and the heap before and after', () => {
    const debug = vi.fn<(message: string) => void>();
    const logged = new IdleCollection(
      { collect, quietMs: 10, intervalMs: 100 },
      { debug, info: () => {}, warn: () => {}, error: () => {} },
    );
    logged.begin();
    logged.end();
    vi.advanceTimersByTime(10);
    expect(debug).toHaveBeenCalledWith(
      expect.stringMatching(/^garbage collected after big request bodies in \d+ ms: heap \d+ MB -> \d+ MB$/),
    );
  });

  test('waits for a moment with no request being answered, for at most maxDeferMs', () => {
    let busy = true;
    const waiting = new IdleCollection({ collect, busy: () => busy, heap: () => GROWN });
    try {
      waiting.begin();
      waiting.end();
      vi.advanceTimersByTime(quietMs + 500);
      expect(collect).not.toHaveBeenCalled();
      busy = false;
      vi.advanceTimersByTime(100);
      expect(collect).toHaveBeenCalledTimes(1);
      // Past the interval, with requests never ending: it waits maxDeferMs, then runs all the same.
      busy = true;
      waiting.begin();
      waiting.end();
      vi.advanceTimersByTime(intervalMs + IDLE_COLLECTION_DEFAULTS.maxDeferMs - 1_000);
      expect(collect).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1_000);
      expect(collect).toHaveBeenCalledTimes(2);
    } finally {
      waiting.close();
    }
  });

  test('skips a collection that would give little back: the heap not well past what the last left live', () => {
    let heap = { total: 900 * MB, used: 800 * MB };
    const weighed = new IdleCollection({ collect, heap: () => heap });
    const afterBody = () => {
      weighed.begin();
      weighed.end();
      vi.advanceTimersByTime(quietMs + intervalMs);
    };
    // The first runs: nothing is known of what is live. 500 MB stay in use after it.
    collect.mockImplementation(() => {
      heap = { total: 520 * MB, used: 500 * MB };
    });
    afterBody();
    expect(weighed.collections).toBe(1);
    // A small body later: the heap grew a little, a pause of the whole live heap would free little.
    heap = { total: 600 * MB, used: 560 * MB };
    afterBody();
    expect(weighed.collections).toBe(1);
    // A big body later: 1.5 times the live heap and 64 MB more.
    heap = { total: 900 * MB, used: 700 * MB };
    afterBody();
    expect(weighed.collections).toBe(2);
    expect(collect).toHaveBeenCalledTimes(2);
    weighed.close();
  });
});
