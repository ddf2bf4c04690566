import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { splitAt } from '../../../test-support/split.js';
import { SseError, SseFormatError } from '../src/errors.js';
import { formatComment, formatEvent } from '../src/format-event.js';
import { createSseParser } from '../src/sse-parser.js';
import { createSseWriter } from '../src/sse-writer.js';
import type { SseEvent } from '../src/types.js';
import { byteByByte, parseChunks, utf8 } from './helpers.js';
import { recordingSink } from './sinks.js';

const noBreak = (s: string): boolean => !/[\r\n]/.test(s);

/** Any text, including astral characters, line breaks, colons and `data:` inside lines. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(fc.constantFrom('data:', ':', ' ', '\r', '\n', '\r\n', 'x', 'é', '😀', 'event: y', '\ufeff'), {
      maxLength: 12,
    })
    .map((parts) => parts.join('')),
);

const eventArb: fc.Arbitrary<SseEvent> = fc.record(
  {
    data: anyText,
    event: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter(noBreak),
    id: fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => noBreak(s) && !s.includes('\0')),
    retry: fc.nat(),
  },
  { requiredKeys: ['data'] },
);

/** What a reader yields for a sent event: line breaks in data come back as LF. */
function expectedRead(event: SseEvent): SseEvent {
  return { ...event, data: event.data.replace(/\r\n|\r/g, '\n') };
}

/** A stream of events and comments, possibly with a BOM, as bytes. */
const streamArb = fc
  .record({
    bom: fc.boolean(),
    items: fc.array(
      fc.oneof(
        eventArb,
        anyText.map((comment) => ({ comment })),
      ),
      { maxLength: 8 },
    ),
  })
  .map(({ bom, items }) => {
    const text = items
      .map((item) => ('comment' in item ? formatComment(item.comment) : formatEvent(item)))
      .join('');
    return utf8((bom ? '\ufeff' : '') + text);
  });

describe('properties', () => {
  test('any split of the byte stream gives the same events as one whole chunk', () => {
    fc.assert(
      fc.property(streamArb, fc.array(fc.nat(), { maxLength: 12 }), (bytes, offsets) => {
        const whole = parseChunks([bytes]);
        expect(parseChunks(splitAt(bytes, offsets))).toEqual(whole);
      }),
    );
  });

  test('any split of arbitrary text, well-formed or not, gives the same result as one whole chunk', () => {
    const piece = fc.constantFrom(
      'data:',
      'data: ',
      'event:',
      'id:',
      'retry:',
      'retry: 12',
      ':',
      ' ',
      'x',
      '\r',
      '\n',
      '\r\n',
      '\ufeff',
      '\u00ef\u00bb\u00bf',
      '\0',
      '😀',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (pieces, offsets) => {
          const text = pieces.join('');
          const cuts = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...cuts].map((start, i) => text.slice(start, cuts[i] ?? text.length));
          expect(parseChunks(chunks)).toEqual(parseChunks([text]));
        },
      ),
    );
  });

  test('any split of random bytes gives the same result as one whole chunk', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (bytes, offsets) => {
          expect(parseChunks(splitAt(bytes, offsets))).toEqual(parseChunks([bytes]));
        },
      ),
    );
  });

  test('feeding one byte at a time gives the same events as one whole chunk', () => {
    fc.assert(
      fc.property(streamArb, (bytes) => {
        expect(parseChunks(byteByByte(bytes))).toEqual(parseChunks([bytes]));
      }),
      { numRuns: 50 },
    );
  });

  test('the reader gets back every event the writer sent', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (events, offsets) => {
          const { sink, text } = recordingSink();
          const writer = createSseWriter(sink);
          for (const event of events) writer.send(event);
          const bytes = utf8(text());
          const parsed = parseChunks(splitAt(bytes, offsets));
          expect(parsed.events).toEqual(events.map(expectedRead));
        },
      ),
    );
  });

  test('CR, LF and CRLF line endings give the same events', () => {
    const lineArb = fc.constantFrom('data: a', 'data:b', 'event: e', 'id: 1', ':c', '', 'retry: 5', 'x');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineArb, fc.constantFrom('\r', '\n', '\r\n')), { maxLength: 20 }),
        (lines) => {
          const lf = lines.map(([line]) => `${line}\n`).join('');
          let mixed = '';
          let previous = '';
          for (const [line, eol] of lines) {
            // An empty line after a CR break followed by an LF break would read as one CRLF break.
            const safe = previous === '\r' && line === '' && eol === '\n' ? '\r\n' : eol;
            mixed += line + safe;
            previous = safe;
          }
          expect(parseChunks([mixed])).toEqual(parseChunks([lf]));
        },
      ),
    );
  });

  test('arbitrary bytes never throw anything but a size error', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (chunks) => {
        const parser = createSseParser({ onEvent: () => {}, onComment: () => {}, maxEventSize: 48 });
        try {
          for (const chunk of chunks) parser.feed(chunk);
          parser.end();
        } catch (error) {
          expect(SseError.isInstance(error) && error.code === 'EVENT_TOO_LARGE').toBe(true);
        }
      }),
    );
  });

  test('formatEvent accepts any string data and only throws SseFormatError, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            data: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
            event: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
            id: fc.oneof(fc.string({ unit: 'binary' }), fc.anything()),
            retry: fc.oneof(fc.integer(), fc.double(), fc.anything()),
          },
          { requiredKeys: [] },
        ),
        (event) => {
          try {
            const text = formatEvent(event as SseEvent);
            expect(text.endsWith('\n\n')).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(SseFormatError);
          }
        },
      ),
    );
  });
});
