import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createFramer, encodeMessage, type FramingMode } from '../src/framing.js';

/** Feeds `bytes` in pieces through one scratch buffer that is overwritten after every feed. */
function feedThroughScratch(mode: FramingMode, bytes: Buffer, piece: number): string[] {
  const messages: string[] = [];
  const framer = createFramer({
    mode,
    onMessage: (m) => messages.push(m),
    onError: (e) => messages.push(e.code),
  });
  const scratch = Buffer.alloc(piece);
  for (let at = 0; at < bytes.length; at += piece) {
    const n = bytes.copy(scratch, 0, at, at + piece);
    framer.feed(scratch.subarray(0, n));
    scratch.fill(0x78);
  }
  return messages;
}

describe('framing with a reused input buffer', () => {
  test('a chunked message split across feeds survives the caller overwriting its buffer', () => {
    const bytes = encodeMessage('<rpc message-id="1"><get/></rpc>', 'chunked');
    expect(feedThroughScratch('chunked', bytes, 7)).toEqual(['<rpc message-id="1"><get/></rpc>']);
  });

  test('an end-of-message framed message split across feeds survives the caller overwriting its buffer', () => {
    const bytes = encodeMessage('<hello/>', 'eom');
    expect(feedThroughScratch('eom', bytes, 3)).toEqual(['<hello/>']);
  });

  test('any split of several messages through a reused buffer gives the messages sent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<FramingMode>('eom', 'chunked'),
        fc.array(fc.string({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 40 }),
        (mode, texts, piece) => {
          // No `]` (an end-of-message marker could form across a text and its marker) or lone surrogates.
          const clean = texts.map((t) => t.replace(/[\]\uD800-\uDFFF]/g, 'x'));
          const bytes = Buffer.concat(clean.map((t) => encodeMessage(t, mode)));
          expect(feedThroughScratch(mode, bytes, piece)).toEqual(clean);
        },
      ),
    );
  });
});

test('encodeMessage frames a message with multi-byte characters by its size in bytes', () => {
  expect(encodeMessage('<a>é€</a>', 'chunked').toString()).toBe('\n#12\n<a>é€</a>\n##\n');
  expect(encodeMessage('<a>é€</a>', 'eom').toString()).toBe('<a>é€</a>]]>]]>');
});
