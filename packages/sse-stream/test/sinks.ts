import { Writable } from 'node:stream';

/** A Writable that records what it gets and completes each write at once. */
export function recordingSink(): { sink: Writable; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { sink, text: () => chunks.join('') };
}

/**
 * A slow client: a Writable with a tiny buffer that completes writes only when `release()` is
 * called, as a socket does when the peer reads.
 */
export function slowSink(highWaterMark = 32): {
  sink: Writable;
  text: () => string;
  release: () => Promise<void>;
} {
  const chunks: string[] = [];
  let pending: Array<() => void> = [];
  const sink = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      pending.push(callback);
    },
  });
  async function release(): Promise<void> {
    // Complete writes until the sink has nothing left, letting 'drain' handlers run in between.
    while (pending.length > 0) {
      const callbacks = pending;
      pending = [];
      for (const callback of callbacks) callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { sink, text: () => chunks.join(''), release };
}
