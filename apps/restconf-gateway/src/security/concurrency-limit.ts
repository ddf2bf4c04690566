/**
 * Runs at most `concurrency` asynchronous tasks at once, in the order they come; at most
 * `queueLength` more wait for a slot, and a task past those is not run at all. Bounds work that
 * occupies a shared resource, such as scrypt in libuv's thread pool, so that a burst neither
 * starves other work nor queues without end.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queueLength: number,
  ) {}

  /** Runs `task` now or once a slot frees; undefined, without running it, when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.running < this.concurrency) {
      this.running++;
      return this.execute(task);
    }
    if (this.waiting.length >= this.queueLength) return undefined;
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.execute(task));
  }

  private async execute<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      // The slot passes to the next task waiting, so none that arrives later overtakes it.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
