import { isUtf8 } from 'node:buffer';
import { readSync } from 'node:fs';

/**
 * Bytes of a file that are not UTF-8. Both formats are UTF-8 text (RFC 8259 section 8.1; XML 1.0
 * section 4.3.3 makes bytes that are not in the document's encoding a fatal error): such a file is
 * a malformed document, which a decoder that put U+FFFD in their place would hide.
 */
export class NotUtf8Error extends Error {
  constructor(
    /** Offset in the file of the first byte of the sequence that is not a UTF-8 character. */
    readonly offset: number,
    bytes: Uint8Array,
  ) {
    const shown = [...bytes].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
    super(`the text is not UTF-8: the bytes at offset ${offset} (${shown}) are not a UTF-8 character`);
    this.name = 'NotUtf8Error';
  }
}

/**
 * The UTF-8 text of descriptor `fd` in pieces of about `size` bytes, read as they are asked for.
 * A character cut by a read waits for the next; bytes that are not UTF-8 (RFC 3629 section 4) are
 * refused with a {@link NotUtf8Error} rather than decoded as U+FFFD. Each piece is checked by
 * `isUtf8`, which is several times cheaper than a `TextDecoder` that refuses them.
 */
export function* utf8Pieces(fd: number, size: number): Generator<string> {
  // Room for a read of `size` after a character cut by the last one (at most 3 bytes).
  const buffer = Buffer.allocUnsafe(size + 3);
  let held = 0;
  let offset = 0;
  for (;;) {
    const read = readSync(fd, buffer, held, size, null);
    const end = held + read;
    const whole = read === 0 ? end : wholeCharactersEnd(buffer, end);
    if (!isUtf8(buffer.subarray(0, whole))) throw notUtf8(buffer.subarray(0, whole), offset);
    if (read === 0) return;
    if (whole > 0) yield buffer.toString('utf8', 0, whole);
    buffer.copyWithin(0, whole, end);
    held = end - whole;
    offset += whole;
  }
}

/**
 * The end of the last whole character of `bytes` up to `end`: the bytes after it begin a character
 * they do not finish. Bytes that are not UTF-8 are left to `isUtf8` to refuse.
 */
function wholeCharactersEnd(bytes: Uint8Array, end: number): number {
  for (let k = end - 1; k >= 0 && k >= end - 3; k--) {
    const b = bytes[k]!;
    if (b < 0x80) return end;
    if (b >= 0xc0) return end - k < sequenceLength(b) ? k : end;
    // A continuation byte: its first byte comes before it.
  }
  return end;
}

/** How many bytes a character beginning with `first` takes (a byte no character begins with: 1). */
function sequenceLength(first: number): number {
  if (first >= 0xc2 && first <= 0xdf) return 2;
  if (first >= 0xe0 && first <= 0xef) return 3;
  if (first >= 0xf0 && first <= 0xf4) return 4;
  return 1;
}

/** The error for `bytes`, which start at `offset` in the file and are not all UTF-8. */
function notUtf8(bytes: Uint8Array, offset: number): NotUtf8Error {
  const at = firstNonUtf8(bytes);
  return new NotUtf8Error(offset + at, bytes.subarray(at, at + sequenceLength(bytes[at]!)));
}

/**
 * Offset of the first sequence of `bytes` that is not a UTF-8 character (RFC 3629 section 4: no
 * overlong forms, no surrogates, nothing above U+10FFFF, none cut short at the end), or -1.
 */
export function firstNonUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const first = bytes[i]!;
    if (first < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(first);
    if (length === 1 || i + length > bytes.length) return i;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and past U+10FFFF (F4).
    const second = bytes[i + 1]!;
    const low = first === 0xe0 ? 0xa0 : first === 0xf0 ? 0x90 : 0x80;
    const high = first === 0xed ? 0x9f : first === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}
