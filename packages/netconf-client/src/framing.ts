import { NetconfError } from './errors.js';

/**
 * RFC 6242 message framing as a pure push parser: no I/O, no timers. Shared by the client and
 * the server side, so nothing here knows which role it plays.
 *
 * - `eom` (base:1.0, RFC 6242 section 4.3): each message ends with `]]>]]>`.
 * - `chunked` (base:1.1, RFC 6242 section 4.2):
 *   ```
 *   Chunked-Message = 1*chunk end-of-chunks
 *   chunk           = LF HASH chunk-size LF chunk-data
 *   chunk-size      = 1*DIGIT1 0*DIGIT          ; 1..4294967295
 *   end-of-chunks   = LF HASH HASH LF
 *   ```
 */
export type FramingMode = 'eom' | 'chunked';

/** Callbacks and limits of {@link createFramer}. */
export interface FramerOptions {
  /** Called once per complete message, with its UTF-8 text, synchronously inside `feed`. */
  onMessage: (message: string) => void;
  /** Called once when the stream is malformed; the framer then ignores input until `reset()`. */
  onError: (error: NetconfError) => void;
  /** Largest message accepted, in bytes (default 64 MiB); larger gives `MESSAGE_TOO_LARGE`. */
  maxMessageBytes?: number;
  /** Initial mode (default `eom`, as every session starts with the base:1.0 hello exchange). */
  mode?: FramingMode;
}

/** The push parser returned by {@link createFramer}. */
export interface Framer {
  /** Feeds the next bytes of the stream, split anywhere. */
  feed(chunk: Uint8Array): void;
  /**
   * Switches framing for all bytes not yet consumed. Calling it from `onMessage` applies to the
   * rest of the chunk being fed, as RFC 6242 section 4.1 switches right after the hello.
   */
  setMode(mode: FramingMode): void;
  /** The current mode. */
  readonly mode: FramingMode;
  /** Drops any partial message and a failed state; keeps the mode. */
  reset(): void;
  /**
   * Takes a whole message that arrived without framing (an in-process pipe, see `duplexPair`):
   * `onMessage` as if it had been fed, after the same size limit.
   */
  deliver(message: string): void;
}

const EOM = Buffer.from(']]>]]>');
const END_OF_CHUNKS = Buffer.from('\n##\n');
const LF = 0x0a;
const HASH = 0x23;
const MAX_CHUNK_SIZE = 4294967295;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

// States of the chunked parser, one per grammar position.
enum Chunked {
  /** Expecting the LF that opens a chunk header or the end-of-chunks. */
  Lf = 0,
  /** Expecting HASH. */
  Hash = 1,
  /** Expecting the first size digit (1-9) or the second HASH of end-of-chunks. */
  SizeFirst = 2,
  /** Reading size digits until LF. */
  Size = 3,
  /** Inside chunk-data. */
  Data = 4,
  /** After `\n##`, expecting the final LF. */
  EndLf = 5,
}

const decoder = new TextDecoder('utf-8');

/**
 * Creates a framer that turns a byte stream into NETCONF messages (RFC 6242). Memory is bounded
 * by `maxMessageBytes`: a larger message is refused with `MESSAGE_TOO_LARGE`, a malformed frame
 * with `FRAMING`.
 */
export function createFramer(options: FramerOptions): Framer {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let mode: FramingMode = options.mode ?? 'eom';
  let parts: Uint8Array[] = [];
  // parts[0..owned) are copies; later ones are views of the chunk being fed, copied when feed()
  // returns with the message still incomplete (the caller may reuse its buffer after that).
  let owned = 0;
  let size = 0;
  let failed = false;
  // eom: the last bytes of the pending message (at most 5), where a split marker may begin.
  const tail = new Uint8Array(EOM.length - 1);
  let tailLength = 0;
  // chunked:
  let state: Chunked = Chunked.Lf;
  let chunkRemaining = 0;
  let chunkSizeDigits = '';
  let chunksInMessage = 0;

  function clear(): void {
    parts = [];
    owned = 0;
    size = 0;
    tailLength = 0;
    state = Chunked.Lf;
    chunkRemaining = 0;
    chunkSizeDigits = '';
    chunksInMessage = 0;
  }

  function fail(code: 'FRAMING' | 'MESSAGE_TOO_LARGE', message: string): void {
    failed = true;
    clear();
    options.onError(new NetconfError(code, message));
  }

  function append(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return true;
    size += bytes.length;
    if (size > maxBytes) {
      fail('MESSAGE_TOO_LARGE', `message exceeds ${maxBytes} bytes`);
      return false;
    }
    parts.push(bytes);
    return true;
  }

  function take(trim: number): string {
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    const text = decoder.decode(trim > 0 ? all.subarray(0, all.length - trim) : all);
    clear();
    return text;
  }

  /** Where a marker that began in the kept tail ends in `data`, or -1. */
  function splitMarkerEnd(data: Uint8Array): number {
    // Try the longest tail suffix first: the earliest marker start wins.
    for (let k = Math.min(tailLength, EOM.length - 1); k >= 1; k--) {
      const need = EOM.length - k;
      if (data.length < need) continue;
      let match = true;
      for (let j = 0; j < k && match; j++) match = tail[tailLength - k + j] === EOM[j];
      for (let j = 0; j < need && match; j++) match = data[j] === EOM[k + j];
      if (match) return need;
    }
    return -1;
  }

  /** Consumes EOM-framed bytes from `chunk[start..]`; returns the index after the last consumed byte. */
  function feedEom(chunk: Uint8Array, start: number): number {
    const data = Buffer.from(chunk.buffer, chunk.byteOffset + start, chunk.length - start);
    let end = tailLength > 0 ? splitMarkerEnd(data) : -1;
    if (end === -1) {
      const at = data.indexOf(EOM);
      if (at !== -1) end = at + EOM.length;
    }
    if (end !== -1) {
      if (!append(data.subarray(0, end))) return chunk.length;
      options.onMessage(take(EOM.length));
      return start + end;
    }
    if (!append(data)) return chunk.length;
    // Keep the last (up to 5) bytes, where a marker split across feeds may begin.
    for (const byte of data.length >= tail.length ? data.subarray(data.length - tail.length) : data) {
      if (tailLength === tail.length) tail.copyWithin(0, 1);
      else tailLength++;
      tail[tailLength - 1] = byte;
    }
    return chunk.length;
  }

  /** Consumes chunk-framed bytes from `chunk[start..]`; returns the index after the last consumed byte. */
  function feedChunked(chunk: Uint8Array, start: number): number {
    let i = start;
    while (i < chunk.length) {
      if (state === Chunked.Data) {
        const n = Math.min(chunkRemaining, chunk.length - i);
        if (!append(chunk.subarray(i, i + n))) return chunk.length;
        chunkRemaining -= n;
        i += n;
        if (chunkRemaining === 0) state = Chunked.Lf;
        continue;
      }
      const byte = chunk[i++]!;
      switch (state) {
        case Chunked.Lf:
          if (byte !== LF) return failAt('expected LF before a chunk header');
          state = Chunked.Hash;
          break;
        case Chunked.Hash:
          if (byte !== HASH) return failAt('expected # in a chunk header');
          state = Chunked.SizeFirst;
          break;
        case Chunked.SizeFirst:
          if (byte === HASH) {
            if (chunksInMessage === 0) return failAt('end-of-chunks before any chunk');
            state = Chunked.EndLf;
          } else if (byte >= 0x31 && byte <= 0x39) {
            chunkSizeDigits = String.fromCharCode(byte);
            state = Chunked.Size;
          } else return failAt('chunk-size must start with a digit 1-9');
          break;
        case Chunked.Size:
          if (byte === LF) {
            chunkRemaining = Number(chunkSizeDigits);
            chunksInMessage++;
            state = Chunked.Data;
          } else if (byte >= 0x30 && byte <= 0x39) {
            chunkSizeDigits += String.fromCharCode(byte);
            if (Number(chunkSizeDigits) > MAX_CHUNK_SIZE) return failAt('chunk-size exceeds 4294967295');
          } else return failAt('chunk-size must be decimal digits ended by LF');
          break;
        case Chunked.EndLf:
          if (byte !== LF) return failAt('expected LF after end-of-chunks');
          options.onMessage(take(0));
          return i;
      }
    }
    return i;
  }

  function failAt(message: string): number {
    fail('FRAMING', `malformed chunked framing: ${message}`);
    return Number.MAX_SAFE_INTEGER;
  }

  return {
    feed(chunk) {
      let offset = 0;
      while (!failed && offset < chunk.length) {
        offset = mode === 'eom' ? feedEom(chunk, offset) : feedChunked(chunk, offset);
      }
      for (; owned < parts.length; owned++) parts[owned] = new Uint8Array(parts[owned]!);
    },
    setMode(next) {
      if (next !== 'eom' && next !== 'chunked')
        throw new NetconfError('INVALID_ARGUMENT', `unknown mode ${next}`);
      if (next !== mode) {
        mode = next;
        clear();
      }
    },
    get mode() {
      return mode;
    },
    deliver(message) {
      if (failed) return;
      // A string's UTF-8 size is at most three bytes per UTF-16 unit: count only when it may matter.
      if (message.length * 3 > maxBytes && Buffer.byteLength(message) > maxBytes) {
        fail('MESSAGE_TOO_LARGE', `message exceeds ${maxBytes} bytes`);
        return;
      }
      options.onMessage(message);
    },
    reset() {
      failed = false;
      clear();
    },
  };
}

/**
 * Frames one message for the wire: `xml]]>]]>` in `eom` mode, or a single chunk
 * `\n#<size>\n<xml>\n##\n` in `chunked` mode (size in bytes of the UTF-8 text).
 */
export function encodeMessage(xml: string, mode: FramingMode): Buffer {
  return encodeMessagePiece(xml, mode, true);
}

/**
 * Frames one piece of a message written in several (RFC 6242 section 4.2): in `chunked` mode each
 * piece is a chunk of its own, `\n#<size>\n<xml>`, and `\n##\n` follows the last; in `eom` mode the
 * pieces go as they are and `]]>]]>` follows the last. A message of one piece is
 * {@link encodeMessage}'s. A chunk holds at least one byte: pieces are never empty in `chunked` mode.
 */
export function encodeMessagePiece(xml: string, mode: FramingMode, last: boolean): Buffer {
  // One allocation, the text encoded in place: a small rpc costs less than its copies would.
  const size = Buffer.byteLength(xml, 'utf8');
  if (mode === 'eom') {
    const out = Buffer.allocUnsafe(size + (last ? EOM.length : 0));
    out.write(xml, 0, 'utf8');
    if (last) EOM.copy(out, size);
    return out;
  }
  if (size === 0) throw new NetconfError('INVALID_ARGUMENT', 'a chunked message needs at least one byte');
  const header = `\n#${size}\n`;
  const out = Buffer.allocUnsafe(header.length + size + (last ? END_OF_CHUNKS.length : 0));
  out.write(header, 0, 'latin1');
  out.write(xml, header.length, 'utf8');
  if (last) END_OF_CHUNKS.copy(out, header.length + size);
  return out;
}
