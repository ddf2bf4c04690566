/** Gives back a slot of a {@link ConcurrencyLimit}; a second call does nothing. */
export type ReleaseSlot = () => void;

/**
 * Lets at most `concurrency` holders have a slot at once, in the order they come; at most
 * `queueLength` more wait for one, and a request past those gets none. Bounds work that
 * occupies a shared resource (scrypt in libuv's thread pool, request bodies in memory) so that a
 * burst neither starves other work nor queues without end.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: ((release: ReleaseSlot) => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queueLength: number,
  ) {}

  /** Slots taken now. */
  get active(): number {
    return this.running;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * A slot now or once one frees: resolves with the function that gives it back; undefined when
   * the queue is full. When `signal` aborts while it waits, it leaves the queue and rejects with
   * the signal's reason.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> | undefined {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queueLength) return undefined;
    signal?.throwIfAborted();
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const admit = (release: ReleaseSlot): void => {
        signal?.removeEventListener('abort', abort);
        resolve(release);
      };
      const abort = (): void => {
        const at = this.waiting.indexOf(admit);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(admit);
    });
  }

  /** Runs `task` now (before returning) or once a slot frees; undefined, without running it, when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T> | undefined {
    const execute = async (release: ReleaseSlot): Promise<T> => {
      try {
        return await task();
      } finally {
        release();
      }
    };
    if (this.running < this.concurrency) {
      this.running++;
      return execute(this.releaser());
    }
    return this.acquire()?.then(execute);
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes to the next in the queue, so none that arrives later overtakes it.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next(this.releaser());
    };
  }
}
