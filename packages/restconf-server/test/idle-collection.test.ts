import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { exposedGc } from '../../../test-support/gc.js';
import {
  type HeapSize,
  IDLE_COLLECTION_DEFAULTS,
  IdleCollection,
  YOUNG_SHRINK_WAIT_MS,
} from '../src/idle-collection.js';

const { quietMs, intervalMs } = IDLE_COLLECTION_DEFAULTS;
const MB = 2 ** 20;
const GROWN = { total: 4096 * MB, used: 20 * MB, young: 1 * MB };

/** A big body, then quiet long enough for the collection after it. */
function bodyThenQuiet(idle: IdleCollection): void {
  idle.begin();
  idle.end();
  vi.advanceTimersByTime(quietMs + intervalMs);
}

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

  test('never collects without a big body or a request answered', () => {
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
      expect.stringMatching(/^garbage collected once quiet in \d+ ms: heap \d+ MB -> \d+ MB$/),
    );
    logged.close();
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
    let heap = { total: 900 * MB, used: 800 * MB, young: 1 * MB };
    // The pause it would take is not what is weighed here.
    const weighed = new IdleCollection({ collect, heap: () => heap, maxPauseMs: Number.POSITIVE_INFINITY });
    const afterBody = () => bodyThenQuiet(weighed);
    // The first runs: nothing is known of what is live. 500 MB stay in use after it.
    collect.mockImplementation(() => {
      heap = { total: 520 * MB, used: 500 * MB, young: 1 * MB };
    });
    afterBody();
    expect(weighed.collections).toBe(1);
    // A small body later: the heap grew a little, a pause of the whole live heap would free little.
    heap = { total: 600 * MB, used: 560 * MB, young: 1 * MB };
    afterBody();
    expect(weighed.collections).toBe(1);
    // A big body later: 1.5 times the live heap and 8 MB more.
    heap = { total: 790 * MB, used: 700 * MB, young: 1 * MB };
    afterBody();
    expect(weighed.collections).toBe(2);
    expect(collect).toHaveBeenCalledTimes(2);
    weighed.close();
  });

  test('weighs the old generation only: a young generation grown by light load sets no collection off', () => {
    // A gateway of 1,000 artists: 17 MB live after the first collection.
    let heap = { total: 60 * MB, used: 50 * MB, young: 1 * MB };
    const debug = vi.fn<(message: string) => void>();
    const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
    const weighed = new IdleCollection({ collect, heap: () => heap }, logger);
    const afterBody = () => bodyThenQuiet(weighed);
    collect.mockImplementation(() => {
      heap = { total: 19 * MB, used: 17 * MB, young: 1 * MB };
    });
    afterBody();
    expect(weighed.collections).toBe(1);
    // Light load grew the young generation to 32 MB: the old one holds 2 MB of garbage.
    heap = { total: 52 * MB, used: 30 * MB, young: 32 * MB };
    afterBody();
    expect(weighed.collections).toBe(1);
    expect(debug).toHaveBeenLastCalledWith(
      'no collection once quiet: heap 20 MB beside the young generation, 17 MB live after the last full collection',
    );
    // A busy period of PATCHes left 20 MB of garbage in the old generation (past 1.5 times 17 MB and 8).
    heap = { total: 45 * MB, used: 40 * MB, young: 8 * MB };
    afterBody();
    expect(weighed.collections).toBe(2);
    weighed.close();
  });
  test('skips a collection whose pause, at the rate measured and at least 2 ms per MB live, would be over maxPauseMs', () => {
    let heap = { total: 4096 * MB, used: 20 * MB, young: 1 * MB };
    let clock = 0;
    const debug = vi.fn<(message: string) => void>();
    const timed = new IdleCollection(
      { collect, heap: () => heap, now: () => clock },
      { debug, info: () => {}, warn: () => {}, error: () => {} },
    );
    const afterBody = () => bodyThenQuiet(timed);
    const leaving = (usedMb: number, ms: number) =>
      collect.mockImplementation(() => {
        clock += ms;
        heap = { ...heap, used: usedMb * MB };
      });
    // Nothing known of what is live: it runs. 40 MB stay live, in 30 ms: a small heap's pause does
    // not tell the rate (what every collection costs weighs most), 2 ms per MB stands.
    leaving(40, 30);
    afterBody();
    expect(timed.collections).toBe(1);
    // 40 MB live, about 80 ms: it runs. A big edit meanwhile left 600 MB live; that one takes
    // 1,500 ms, 2.5 ms per MB.
    leaving(600, 1500);
    afterBody();
    expect(timed.collections).toBe(2);
    // 600 MB live, 1,500 ms: no more, however big the bodies (the heap grows well past 1.5 times).
    afterBody();
    afterBody();
    expect(timed.collections).toBe(2);
    expect(debug).toHaveBeenLastCalledWith(
      'no collection once quiet: 600 MB live, a pause of about 1500 ms, over 250 ms',
    );
    timed.close();
  });

  test("weighs what V8's own full collections left while big bodies were read: the first collection after a big edit is skipped too", () => {
    // A PUT of 100,000 artists, nothing collected here yet: V8's own full collections meanwhile left
    // 180 MB live. Unweighed (as above, where V8 told nothing), it would run, and hold the loop 180 ms.
    let heap: HeapSize = { total: 400 * MB, used: 380 * MB, young: 1 * MB, live: 180 * MB };
    const debug = vi.fn<(message: string) => void>();
    const weighed = new IdleCollection(
      { collect, heap: () => heap },
      { debug, info: () => {}, warn: () => {}, error: () => {} },
    );
    bodyThenQuiet(weighed);
    expect(collect).not.toHaveBeenCalled();
    expect(debug).toHaveBeenLastCalledWith(
      'no collection once quiet: 180 MB live, a pause of about 360 ms, over 250 ms',
    );
    // What V8 tells next stands, smaller too: the datastore shrank, the full collections during the
    // next big bodies left 90 MB live (100,000 short list entries), a pause of about 180 ms.
    heap = { total: 400 * MB, used: 300 * MB, young: 1 * MB, live: 90 * MB };
    bodyThenQuiet(weighed);
    expect(collect).toHaveBeenCalledTimes(1);
    weighed.close();
  });

  test('collects once quietMs after the last request answered, with no big body', () => {
    for (let i = 0; i < 5; i++) {
      idle.answered();
      vi.advanceTimersByTime(quietMs - 1);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(idle.collections).toBe(1);
    // Quiet from then on: nothing more.
    vi.advanceTimersByTime(intervalMs * 3);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  test('collects once quietMs after the start, as after a busy period', () => {
    idle.started();
    vi.advanceTimersByTime(quietMs - 1);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  test('collects after each busy period at most once per interval', () => {
    const busyPeriod = () => {
      for (let i = 0; i < 3; i++) {
        idle.answered();
        vi.advanceTimersByTime(100);
      }
    };
    busyPeriod();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    busyPeriod();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(intervalMs);
    expect(collect).toHaveBeenCalledTimes(2);
    expect(idle.collections).toBe(2);
  });

  test('requests every second keep putting off the collection after a busy period; it runs 2 s after the last', () => {
    idle.answered();
    for (let second = 1; second <= 60; second++) {
      vi.advanceTimersByTime(1_000);
      idle.answered();
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(quietMs - 1);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  test('small requests do not put off the collection after big bodies', () => {
    idle.begin();
    idle.end();
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(quietMs / 4);
      idle.answered();
    }
    expect(collect).toHaveBeenCalledTimes(1);
  });
});

describe('IdleCollection of the young generation', () => {
  let collect: ReturnType<typeof vi.fn<() => void>>;
  let collectYoung: ReturnType<typeof vi.fn<() => void>>;
  /** The heap V8 would report: the young generation grown to 32 MB by load, 1 MB once shrunk. */
  let heap: { total: number; used: number; young: number };
  let idle: IdleCollection;
  const debug = vi.fn<(message: string) => void>();

  beforeEach(() => {
    vi.useFakeTimers();
    heap = { total: 4096 * MB, used: 20 * MB, young: 32 * MB };
    collect = vi.fn<() => void>(() => {
      heap = { ...heap, total: 200 * MB };
    });
    collectYoung = vi.fn<() => void>(() => {
      heap = { ...heap, young: 1 * MB };
    });
    debug.mockClear();
    idle = new IdleCollection(
      { collect, collectYoung, heap: () => heap },
      { debug, info: () => {}, warn: () => {}, error: () => {} },
    );
  });
  afterEach(() => {
    idle.close();
    vi.useRealTimers();
  });

  test('runs a minor collection YOUNG_SHRINK_WAIT_MS after the full one, counts and logs it', () => {
    idle.answered();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collectYoung).not.toHaveBeenCalled();
    vi.advanceTimersByTime(YOUNG_SHRINK_WAIT_MS - 1);
    expect(collectYoung).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collectYoung).toHaveBeenCalledTimes(1);
    expect(idle.youngCollections).toBe(1);
    expect(debug).toHaveBeenCalledWith('young generation collected once quiet: 32 MB -> 1 MB');
    // Shrunk: nothing more, however long the quiet lasts.
    vi.advanceTimersByTime(intervalMs * 3);
    expect(collectYoung).toHaveBeenCalledTimes(1);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  test('starts the wait with a minor collection when the full one is skipped', () => {
    idle.answered();
    vi.advanceTimersByTime(quietMs + YOUNG_SHRINK_WAIT_MS);
    expect(idle.youngCollections).toBe(1);
    // Load again: the young generation grows back, the heap barely does.
    heap = { total: 60 * MB, used: 50 * MB, young: 32 * MB };
    vi.advanceTimersByTime(intervalMs);
    idle.answered();
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collectYoung).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(YOUNG_SHRINK_WAIT_MS);
    expect(collectYoung).toHaveBeenCalledTimes(3);
    expect(idle.youngCollections).toBe(2);
  });

  test('restarts the wait when the full collection runs during it', () => {
    idle.answered();
    vi.advanceTimersByTime(quietMs + YOUNG_SHRINK_WAIT_MS);
    expect(idle.youngCollections).toBe(1);
    heap = { total: 4096 * MB, used: 20 * MB, young: 32 * MB };
    // As V8 does, a minor collection right after load leaves the young generation as it is.
    collectYoung.mockImplementation(() => {});
    // Quiet within the interval: a minor collection starts the wait, the full one waits.
    idle.answered();
    vi.advanceTimersByTime(quietMs);
    expect(collectYoung).toHaveBeenCalledTimes(2);
    expect(collect).toHaveBeenCalledTimes(1);
    // The full one runs at the end of the interval, during the wait: the wait starts again from it.
    const fullAt = intervalMs - YOUNG_SHRINK_WAIT_MS - quietMs;
    vi.advanceTimersByTime(fullAt);
    expect(collect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(YOUNG_SHRINK_WAIT_MS - 1);
    expect(collectYoung).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(collectYoung).toHaveBeenCalledTimes(3);
    expect(idle.youngCollections).toBe(2);
  });

  test('leaves a young generation that did not grow alone', () => {
    heap = { ...heap, young: 1 * MB };
    idle.answered();
    vi.advanceTimersByTime(quietMs + YOUNG_SHRINK_WAIT_MS * 2);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collectYoung).not.toHaveBeenCalled();
  });

  test('drops the minor collection not run yet when closed', () => {
    idle.answered();
    vi.advanceTimersByTime(quietMs);
    idle.close();
    vi.advanceTimersByTime(YOUNG_SHRINK_WAIT_MS);
    expect(collectYoung).not.toHaveBeenCalled();
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("IdleCollection on V8's heap", () => {
  const gc = exposedGc();
  const debug = vi.fn<(message: string) => void>();
  const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
  // A pause budget of 1 ms: any heap's pause is over it, once what is live is known.
  const options = { quietMs: 1, intervalMs: 0, maxPauseMs: 1 };

  /** Runs `work` with a collection on the real heap, closed after it whatever happens. */
  async function withIdle(work: (idle: IdleCollection, collect: () => void) => Promise<void>): Promise<void> {
    const collect = vi.fn<() => void>();
    const idle = new IdleCollection({ collect, ...options }, logger);
    try {
      await work(idle, collect);
    } finally {
      idle.close();
    }
  }

  test('notes what V8 full collections leave while a big body is read, and weighs it', () =>
    withIdle(async (idle, collect) => {
      idle.begin();
      gc();
      await pause(20); // the collection is reported to the observer after it ends
      idle.end();
      await pause(20);
      // Nothing collected here yet: without V8's note it would run, whatever the heap.
      expect(collect).not.toHaveBeenCalled();
      expect(debug).toHaveBeenLastCalledWith(
        expect.stringMatching(/^no collection once quiet: .*\b[1-9]\d* MB live/),
      );
    }));

  test('notes nothing outside big bodies: after a busy period of small requests the first collection runs', () =>
    withIdle(async (idle, collect) => {
      idle.answered();
      gc();
      await pause(20);
      expect(collect).toHaveBeenCalledTimes(1);
    }));
});
