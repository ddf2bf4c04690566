import { Duplex } from 'node:stream';
import type { Framer } from './framing.js';

/**
 * One end of an in-memory byte pipe; ending or destroying it ends the peer's readable side.
 *
 * Two NETCONF sessions in one process gain nothing from framing their messages into bytes and
 * reading them back: when the reading side attached its framer ({@link attachFramer}),
 * {@link sendMessage} hands it each message as a string instead. Bytes and messages keep their
 * order, since a message goes the short way only while no bytes wait for the reader.
 *
 * The pipe has backpressure like a socket: a reader that pauses stops the writes once its buffer
 * is full (`write()` returns false, `drain` follows when it reads again), so a writer that
 * honours it holds no more than the two buffers.
 */
class PipeEnd extends Duplex {
  peer!: PipeEnd;
  #framer: Framer | undefined;
  /** The callback of a write the peer's full buffer holds back, released when the peer reads. */
  #heldWrite: (() => void) | undefined;

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.peer.push(chunk) || this.peer.destroyed) callback();
    else this.#heldWrite = callback;
  }
  override _read(): void {
    this.peer.#release();
  }
  override _final(callback: (error?: Error | null) => void): void {
    this.peer.push(null);
    callback();
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.peer.readableEnded) this.peer.push(null);
    // Nobody reads any more: a write held for this reader must not wait for ever.
    this.peer.#release();
    callback(error);
  }

  #release(): void {
    const held = this.#heldWrite;
    this.#heldWrite = undefined;
    held?.();
  }

  attach(framer: Framer): void {
    this.#framer = framer;
  }

  send(message: string): boolean {
    const framer = this.peer.#framer;
    if (framer === undefined || this.destroyed || !this.writable || this.writableLength > 0) return false;
    // A paused reader takes bytes, which its buffer holds: the short way would bypass the pause.
    if (this.peer.destroyed || this.peer.readableLength > 0 || this.peer.isPaused()) return false;
    framer.deliver(message);
    return true;
  }
}

/**
 * Two connected in-memory duplex streams, like a socket pair (node:stream's `duplexPair` needs Node
 * 22): give one end to an in-process NETCONF server (e.g. `NetconfServer.connect()`) and the other to
 * {@link connectStream}.
 */
export function duplexPair(): [Duplex, Duplex] {
  const a = new PipeEnd();
  const b = new PipeEnd();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/**
 * Lets a session reading `stream` with `framer` receive whole messages when `stream` is an end of
 * {@link duplexPair}; a no-op for any other stream.
 */
export function attachFramer(stream: Duplex, framer: Framer): void {
  if (stream instanceof PipeEnd) stream.attach(framer);
}

/**
 * Hands `message` to the reader of `stream`'s peer without framing, if `stream` is an end of
 * {@link duplexPair} whose peer attached its framer and nothing is queued before it. False when the
 * caller must frame it and write the bytes.
 */
export function sendMessage(stream: Duplex, message: string): boolean {
  return stream instanceof PipeEnd && stream.send(message);
}
