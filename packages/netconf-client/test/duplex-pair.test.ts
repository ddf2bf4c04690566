import { describe, expect, test } from 'vitest';
import { attachFramer, duplexPair, sendMessage } from '../src/duplex-pair.js';
import type { NetconfError } from '../src/errors.js';
import { createFramer, encodeMessage } from '../src/framing.js';

function reader(maxMessageBytes?: number) {
  const messages: string[] = [];
  const errors: NetconfError[] = [];
  const framer = createFramer({
    onMessage: (m) => messages.push(m),
    onError: (e) => errors.push(e),
    ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
  });
  return { framer, messages, errors };
}

describe('duplexPair message path', () => {
  test('hands a whole message to the framer of a peer that attached one, with no bytes', () => {
    const [a, b] = duplexPair();
    const r = reader();
    const bytes: Buffer[] = [];
    b.on('data', (chunk: Buffer) => bytes.push(chunk));
    attachFramer(b, r.framer);
    expect(sendMessage(a, '<rpc message-id="1"/>')).toBe(true);
    expect(r.messages).toEqual(['<rpc message-id="1"/>']);
    expect(bytes).toEqual([]);
  });

  test('refuses when the peer reads bytes only, so the caller frames the message', () => {
    const [a] = duplexPair();
    expect(sendMessage(a, '<x/>')).toBe(false);
  });

  test('refuses while bytes wait for the reader, so messages never overtake them', () => {
    const [a, b] = duplexPair();
    const r = reader();
    attachFramer(b, r.framer);
    // b is not read yet: the framed hello stays in its buffer.
    a.write(encodeMessage('<hello/>', 'eom'));
    expect(sendMessage(a, '<rpc/>')).toBe(false);
    b.on('data', (chunk: Buffer) => r.framer.feed(chunk));
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(sendMessage(a, '<rpc/>')).toBe(true);
        expect(r.messages).toEqual(['<hello/>', '<rpc/>']);
        resolve();
      }),
    );
  });

  test('refuses once the peer is destroyed', () => {
    const [a, b] = duplexPair();
    attachFramer(b, reader().framer);
    b.destroy();
    expect(sendMessage(a, '<rpc/>')).toBe(false);
  });

  test('applies the reader framer size limit to whole messages, in UTF-8 bytes', () => {
    const [a, b] = duplexPair();
    const r = reader(8);
    attachFramer(b, r.framer);
    expect(sendMessage(a, '<a>é</a>')).toBe(true); // 9 bytes in UTF-8, 8 UTF-16 units
    expect(r.messages).toEqual([]);
    expect(r.errors.map((e) => e.code)).toEqual(['MESSAGE_TOO_LARGE']);
  });
});

describe('duplexPair backpressure', () => {
  test('a paused reader makes write() return false once its buffer is full, then drain follows when it reads', async () => {
    const [a, b] = duplexPair();
    b.pause();
    const big = Buffer.alloc(64 * 1024, 0x61);
    expect(a.write(big)).toBe(false);
    expect(a.writableNeedDrain).toBe(true);
    const drained = new Promise<void>((resolve) => a.once('drain', resolve));
    let read = 0;
    b.on('data', (chunk: Buffer) => {
      read += chunk.length;
    });
    b.resume();
    await drained;
    expect(read).toBe(big.length);
  });

  test('hands no message the short way to a paused reader, so the pause holds', () => {
    const [a, b] = duplexPair();
    const r = reader();
    attachFramer(b, r.framer);
    b.on('data', (chunk: Buffer) => r.framer.feed(chunk));
    b.pause();
    expect(sendMessage(a, '<rpc/>')).toBe(false);
    expect(r.messages).toEqual([]);
  });

  test('a write held for a reader that is destroyed completes rather than waiting for ever', async () => {
    const [a, b] = duplexPair();
    b.pause();
    const done = new Promise<void>((resolve) => a.write(Buffer.alloc(64 * 1024), () => resolve()));
    b.destroy();
    await done;
  });
});
