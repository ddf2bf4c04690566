import { Duplex } from 'node:stream';

/** One end of an in-memory byte pipe; ending or destroying it ends the peer's readable side. */
class PipeEnd extends Duplex {
  peer!: PipeEnd;
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.peer.push(chunk);
    callback();
  }
  override _read(): void {}
  override _final(callback: (error?: Error | null) => void): void {
    this.peer.push(null);
    callback();
  }
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.peer.readableEnded) this.peer.push(null);
    callback(error);
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
