import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { firstNonUtf8, NotUtf8Error, utf8Pieces } from '../src/utf8-pieces';

const dir = mkdtempSync(path.join(tmpdir(), 'utf8-pieces-'));
afterAll(() => rmSync(dir, { recursive: true }));

let files = 0;
/** `bytes` read back from a file by {@link utf8Pieces}, `size` bytes a read. */
function readBack(bytes: Uint8Array, size: number): string[] {
  const file = path.join(dir, `${files++}`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return [...utf8Pieces(fd, size)];
  } finally {
    closeSync(fd);
  }
}

/** Whether a decoder that refuses what is not UTF-8 reads `bytes`. */
function isUtf8Text(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function error(read: () => unknown): NotUtf8Error {
  try {
    read();
  } catch (e) {
    if (e instanceof NotUtf8Error) return e;
    throw e;
  }
  throw new Error('read without an error');
}

/** Any bytes, and UTF-8 text with a few bytes of any value put in it (most bytes at random are not UTF-8). */
const someBytes = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc
    .tuple(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.uint8Array({ minLength: 1, maxLength: 3 }),
      fc.nat(),
    )
    .map(([text, inserted, at]) => {
      const bytes = Buffer.from(text, 'utf8');
      const cut = at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, cut), inserted, bytes.subarray(cut)]);
    }),
);

describe('utf8Pieces', () => {
  test('gives the text of any UTF-8 bytes, whatever the reads cut, in pieces no larger than a read', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 1, max: 9 }),
        (text, size) => {
          const pieces = readBack(Buffer.from(text, 'utf8'), size);
          expect(pieces.join('')).toBe(text);
          for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(size + 3);
          expect(pieces).not.toContain('');
        },
      ),
    );
  });

  test('refuses any bytes a refusing TextDecoder refuses, at the offset where they stop being UTF-8', () => {
    fc.assert(
      fc.property(someBytes, fc.integer({ min: 1, max: 9 }), (bytes, size) => {
        const at = firstNonUtf8(bytes);
        expect(at === -1).toBe(isUtf8Text(bytes));
        if (at === -1) expect(readBack(bytes, size).join('')).toBe(Buffer.from(bytes).toString('utf8'));
        else {
          expect(error(() => readBack(bytes, size)).offset).toBe(at);
          expect(isUtf8Text(bytes.subarray(0, at))).toBe(true);
        }
      }),
    );
  });

  test('names the offset and bytes of what is not UTF-8', () => {
    const latin1 = Buffer.from('<name>eth\u00e9</name>', 'latin1');
    const e = error(() => readBack(latin1, 4));
    expect(e.offset).toBe(9);
    expect(e.message).toBe(
      'the text is not UTF-8: the bytes at offset 9 (0xE9 0x3C 0x2F) are not a UTF-8 character',
    );
    // Cut short at the end; a surrogate; an overlong form; past U+10FFFF.
    expect(error(() => readBack(Buffer.from([0x61, 0xe2, 0x82]), 64)).offset).toBe(1);
    expect(firstNonUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstNonUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstNonUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstNonUtf8(Buffer.from('€😀', 'utf8'))).toBe(-1);
  });
});
