import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { SseOptionError, SseReadError } from '../src/errors.js';
import { createSseParser } from '../src/sse-parser.js';
import { byteByByte, parseChunks, utf8 } from './helpers.js';

describe('line endings', () => {
  test('keeps an empty comment line whose CR ends a chunk', () => {
    const whole = parseChunks([':\rdata:']);
    expect(whole.comments).toEqual(['']);
    expect(parseChunks([':\r', 'data:'])).toEqual(whole);
  });

  test.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('parses a stream whose lines end in %s', (_, eol) => {
    const text = ['event: a', 'id: 1', 'data: x', 'data: y', '', 'data: z', '', ''].join(eol);
    expect(parseChunks([text]).events).toEqual([{ event: 'a', id: '1', data: 'x\ny' }, { data: 'z' }]);
  });

  test('parses a stream that mixes CR, LF and CRLF', () => {
    const text = 'data: a\rdata: b\ndata: c\r\n\rdata: d\r\n\n';
    expect(parseChunks([text]).events).toEqual([{ data: 'a\nb\nc' }, { data: 'd' }]);
  });

  test('treats CR at a chunk end followed by LF as one line break', () => {
    expect(parseChunks(['data: a\r', '\ndata: b\r\n\r', '\n']).events).toEqual([{ data: 'a\nb' }]);
  });

  test('treats CR at a chunk end followed by other text as a line break', () => {
    expect(parseChunks(['data: a\r', 'data: b\r\r']).events).toEqual([{ data: 'a\nb' }]);
  });

  test('dispatches an event whose blank line is a CR at the very end of the stream', () => {
    expect(parseChunks(['data: last\r\r']).events).toEqual([{ data: 'last' }]);
  });

  test('discards an event that the stream ends before its blank line', () => {
    expect(parseChunks(['data: one\n\ndata: unfinished\n']).events).toEqual([{ data: 'one' }]);
  });
});

describe('byte order mark', () => {
  test('skips a UTF-8 BOM at the start of a byte stream', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('data: x\n\n')]);
    expect(parseChunks([bytes]).events).toEqual([{ data: 'x' }]);
  });

  test('skips a BOM split over three chunks', () => {
    const chunks = [
      new Uint8Array([0xef]),
      new Uint8Array([0xbb]),
      new Uint8Array([0xbf]),
      utf8('data: x\n\n'),
    ];
    expect(parseChunks(chunks).events).toEqual([{ data: 'x' }]);
  });

  test('skips a U+FEFF at the start of a text stream', () => {
    expect(parseChunks(['\ufeff', 'data: x\n\n']).events).toEqual([{ data: 'x' }]);
  });

  test('keeps a U+FEFF that is not at the start of the stream', () => {
    expect(parseChunks(['data: a\n\n', '\ufeffdata: b\n\n']).events).toEqual([{ data: 'a' }]);
  });

  test('keeps the characters of a BOM misread as Latin-1, whatever the chunking', () => {
    const text = '\u00ef\u00bb\u00bfdata: x\n\ndata: y\n\n';
    expect(parseChunks([text]).events).toEqual([{ data: 'y' }]);
    expect(parseChunks(['\u00ef', text.slice(1)]).events).toEqual([{ data: 'y' }]);
  });

  test('skips only one BOM', () => {
    expect(parseChunks(['\ufeff\ufeffdata: x\n\ndata: y\n\n']).events).toEqual([{ data: 'y' }]);
  });
});

describe('decoding', () => {
  test('joins a multibyte character split over chunks', () => {
    const bytes = utf8('data: grüße 😀 日本\n\n');
    expect(parseChunks(byteByByte(bytes)).events).toEqual([{ data: 'grüße 😀 日本' }]);
  });

  test('replaces invalid UTF-8 with U+FFFD instead of failing', () => {
    const bytes = new Uint8Array([...utf8('data: a'), 0xff, 0xc3, ...utf8('\n\n')]);
    expect(parseChunks([bytes]).events).toEqual([{ data: 'a\ufffd\ufffd' }]);
  });

  test('accepts bytes from another realm', () => {
    const foreign = runInNewContext('new Uint8Array([100, 97, 116, 97, 58, 120, 10, 10])') as Uint8Array;
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(parseChunks([foreign]).events).toEqual([{ data: 'x' }]);
  });

  test('rejects a chunk that is neither bytes nor text', () => {
    const parser = createSseParser({ onEvent: () => {} });
    expect(() => parser.feed(42 as unknown as string)).toThrowError(SseReadError);
  });
});

describe('fields', () => {
  test('reports comments without the colon and one following space', () => {
    expect(parseChunks([':SSE keepalive\n: spaced\n::double\n']).comments).toEqual([
      'SSE keepalive',
      'spaced',
      ':double',
    ]);
  });

  test('attaches a retry field to the event it came with', () => {
    expect(parseChunks(['retry: 3000\ndata: x\n\ndata: y\n\n']).events).toEqual([
      { data: 'x', retry: 3000 },
      { data: 'y' },
    ]);
  });

  test('reports every valid retry field, even without an event', () => {
    expect(parseChunks(['retry: 10\n\nretry: nope\n\nretry: 20\n\n']).retries).toEqual([10, 20]);
  });

  test('ignores unknown fields', () => {
    expect(parseChunks(['foo: bar\nbaz\ndata: x\n\n']).events).toEqual([{ data: 'x' }]);
  });

  test('ignores an id holding NUL', () => {
    expect(parseChunks(['id: a\0b\ndata: x\n\n']).events).toEqual([{ data: 'x' }]);
  });

  test('takes a field without a colon as a field with an empty value', () => {
    expect(parseChunks(['data\ndata\n\n']).events).toEqual([{ data: '\n' }]);
  });

  test('does not dispatch a block without data', () => {
    expect(parseChunks(['event: a\nid: 1\n\n']).events).toEqual([]);
  });
});

describe('limits', () => {
  test('fails with EVENT_TOO_LARGE when one event outgrows the limit across chunks', () => {
    const parser = createSseParser({ onEvent: () => {}, maxEventSize: 100 });
    parser.feed('data: ');
    expect(() => {
      for (let i = 0; i < 20; i++) parser.feed('0123456789');
    }).toThrowError(expect.objectContaining({ code: 'EVENT_TOO_LARGE' }));
  });

  test('fails with EVENT_TOO_LARGE for an oversized event that arrives in one chunk', () => {
    const parser = createSseParser({ onEvent: () => {}, maxEventSize: 10 });
    expect(() => parser.feed(`data: ${'x'.repeat(50)}\n\n`)).toThrowError(SseReadError);
  });

  test('keeps failing after the limit until reset', () => {
    const events: unknown[] = [];
    const parser = createSseParser({ onEvent: (e) => events.push(e), maxEventSize: 10 });
    expect(() => parser.feed(`data: ${'x'.repeat(50)}`)).toThrowError(SseReadError);
    expect(() => parser.feed('\n\n')).toThrowError(SseReadError);
    parser.reset();
    parser.feed('data: ok\n\n');
    expect(events).toEqual([{ data: 'ok' }]);
  });

  test('accepts events within the limit however many there are', () => {
    const text = 'data: 0123456789\n\n'.repeat(1000);
    expect(parseChunks([text], { maxEventSize: 16 }).events).toHaveLength(1000);
  });

  test('rejects a limit that is not positive', () => {
    expect(() => createSseParser({ onEvent: () => {}, maxEventSize: 0 })).toThrowError(SseOptionError);
  });
});

describe('reset', () => {
  test('forgets a partial event and starts a new stream with its own BOM', () => {
    const events: unknown[] = [];
    const parser = createSseParser({ onEvent: (e) => events.push(e) });
    parser.feed('data: partial\n');
    parser.reset();
    parser.feed('\ufeffdata: fresh\n\n');
    expect(events).toEqual([{ data: 'fresh' }]);
  });
});
