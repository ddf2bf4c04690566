import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { splitAt } from '../../../test-support/split.js';
import { encodeEventSteps } from '../src/encode-event-steps.js';
import { SseFormatError } from '../src/errors.js';
import { encodeEvent } from '../src/format-event.js';

/** Any text, with line breaks of every kind, empty lines, astral characters and `data:` inside. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(fc.constantFrom('data:', ':', ' ', '\r', '\n', '\r\n', 'x', 'é', '😀', '\ufeff'), {
      maxLength: 16,
    })
    .map((parts) => parts.join('')),
);

/** Runs the steps to their end; with how many steps they yielded. */
function run(steps: Generator<void, Uint8Array, void>): { bytes: Uint8Array; yields: number } {
  let yields = 0;
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done === true) return { bytes: next.value, yields };
    yields++;
  }
}

describe('encodeEventSteps', () => {
  test('gives the bytes of encodeEvent for the pieces joined, whatever the split points', () => {
    fc.assert(
      fc.property(anyText, fc.array(fc.nat(), { maxLength: 6 }), (data, cuts) => {
        const pieces = splitAt(data, cuts);
        expect(Buffer.from(run(encodeEventSteps(pieces)).bytes)).toEqual(Buffer.from(encodeEvent({ data })));
      }),
      { numRuns: 2000 },
    );
  });

  test('gives the bytes of encodeEvent for a big event, whatever the split points', () => {
    // Encoded to bytes 64 Ki characters at a time: characters and line breaks cut there too.
    const unit = ['x'.repeat(1000), '😀', '\r', '\n', '\r\n', 'é', ''];
    const data = Array.from({ length: 1000 }, (_, i) => unit[i % unit.length]).join('');
    const whole = Buffer.from(encodeEvent({ data }));
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (cuts) => {
        const bytes = Buffer.from(run(encodeEventSteps(splitAt(data, cuts))).bytes);
        expect(bytes.equals(whole)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('encodes a character split where the text is encoded to bytes as one character', () => {
    // `data: ` and 65,529 characters, then the high surrogate: the 65,536th character of the text.
    const pieces = [`${'x'.repeat(65_529)}\ud83d`, '\ude00 end'];
    const whole = Buffer.from(encodeEvent({ data: pieces.join('') }));
    expect(Buffer.from(run(encodeEventSteps(pieces)).bytes).equals(whole)).toBe(true);
  });

  test('writes the fields before the data as encodeEvent does', () => {
    const head = { event: 'update', id: '7', retry: 100 };
    const { bytes } = run(encodeEventSteps(['a\r', '\nb'], head));
    expect(Buffer.from(bytes).toString()).toBe('event: update\nid: 7\nretry: 100\ndata: a\ndata: b\n\n');
  });

  test('yields between two pieces, not within one', () => {
    expect(run(encodeEventSteps(['{"a":1}'])).yields).toBe(0);
    expect(run(encodeEventSteps(['{"a":', '1', '}'])).yields).toBe(2);
  });

  test('asks for the pieces as its steps go, not all in the first', () => {
    const asked: number[] = [];
    function* pieces(): Generator<string> {
      for (let i = 0; i < 3; i++) {
        asked.push(i);
        yield `line ${i}\n`;
      }
    }
    const steps = encodeEventSteps(pieces());
    // A step formats one piece and asks for the next (its work, an encoder's, is in that step).
    steps.next();
    expect(asked).toEqual([0, 1]);
    steps.next();
    expect(asked).toEqual([0, 1, 2]);
  });

  test('rejects a field encodeEvent rejects', () => {
    expect(() => run(encodeEventSteps(['x'], { id: 'a\nb' }))).toThrowError(SseFormatError);
  });
});
