import type { SseOverflowPolicy } from './writer-options.js';

/** What became of a chunk offered to a {@link BoundedQueue}. */
export type QueueOutcome =
  /** Queued, possibly after dropping older chunks (`drop-oldest`). */
  | 'queued'
  /** Not queued: the chunk alone is larger than the byte bound (`drop-oldest`). */
  | 'dropped'
  /** Not queued: a bound was reached and the policy is `close`. */
  | 'overflow';

/** One chunk of an event stream: text, or the UTF-8 bytes of an event encoded once for many streams. */
export type SseChunk = string | Uint8Array;

/** The UTF-8 size of a chunk. */
export function chunkBytes(chunk: SseChunk): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
}

/** The last chunks joined and their join: see {@link joinChunks}. */
let lastChunks: readonly SseChunk[] = [];
let lastJoined: SseChunk = '';

/**
 * Chunks as one piece for one write: a string when they all are, else one buffer. The writers of
 * one feed flush the same events one after another at the end of a turn, so a join of the very
 * chunks joined last is the same piece again (chunks never change once queued): one copy per turn,
 * not one per client.
 */
export function joinChunks(chunks: readonly SseChunk[]): SseChunk {
  if (chunks.length === 1) return chunks[0]!;
  if (chunks.length === lastChunks.length && chunks.every((c, i) => c === lastChunks[i])) return lastJoined;
  lastJoined = chunks.every((c) => typeof c === 'string')
    ? chunks.join('')
    : Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  lastChunks = chunks;
  return lastJoined;
}

/**
 * The chunks an event stream holds while its response waits for `drain`, bounded both in UTF-8
 * bytes and in count, with the writer's overflow policy applied at the bounds.
 */
export class BoundedQueue {
  #chunks: SseChunk[] = [];
  #sizes: number[] = [];
  #bytes = 0;
  #dropped = 0;
  readonly #maxBytes: number;
  readonly #maxChunks: number;
  readonly #policy: SseOverflowPolicy;

  constructor(maxBytes: number, maxChunks: number, policy: SseOverflowPolicy) {
    this.#maxBytes = maxBytes;
    this.#maxChunks = maxChunks;
    this.#policy = policy;
  }

  /** UTF-8 bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Chunks held. */
  get length(): number {
    return this.#chunks.length;
  }

  /** Chunks discarded so far by `drop-oldest`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Offers one chunk (an event or a comment). */
  push(chunk: SseChunk): QueueOutcome {
    const size = chunkBytes(chunk);
    if (!this.#fits(size)) {
      if (this.#policy === 'close') return 'overflow';
      if (size > this.#maxBytes) {
        this.#dropped++;
        return 'dropped';
      }
      while (!this.#fits(size)) {
        this.#chunks.shift();
        this.#bytes -= this.#sizes.shift()!;
        this.#dropped++;
      }
    }
    this.#chunks.push(chunk);
    this.#sizes.push(size);
    this.#bytes += size;
    return 'queued';
  }

  /** Empties the queue, returning its chunks in order. */
  take(): SseChunk[] {
    const taken = this.#chunks;
    this.clear();
    return taken;
  }

  /** Forgets every chunk held (the drop counter stays). */
  clear(): void {
    this.#chunks = [];
    this.#sizes = [];
    this.#bytes = 0;
  }

  /** Whether `chunk` can be queued without passing a bound. */
  fits(chunk: SseChunk): boolean {
    return this.#fits(chunkBytes(chunk));
  }

  #fits(size: number): boolean {
    return this.#chunks.length < this.#maxChunks && this.#bytes + size <= this.#maxBytes;
  }
}
