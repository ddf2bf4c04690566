import { createParser } from 'eventsource-parser';
import { bench, describe } from 'vitest';
import { formatEvent } from '../src/format-event.js';
import { createSseParser } from '../src/sse-parser.js';

/**
 * Parsing a byte stream of 1000 events delivered in 16 KiB chunks with createSseParser, against
 * the baseline of eventsource-parser fed by a streaming TextDecoder on the same chunks (what
 * createSseParser adds: BOM and trailing-CR handling, the size limit, typed events).
 */

const json = JSON.stringify({
  'ietf-restconf:notification': {
    eventTime: '2026-11-22T02:00:00Z',
    'example-jukebox:played': { song: 'Wonderwall', artist: 'Oasis' },
  },
});
const text = Array.from({ length: 1000 }, (_, i) =>
  formatEvent({ event: 'notification', id: String(i), data: json }),
).join('');
const bytes = new TextEncoder().encode(text);
const chunks: Uint8Array[] = [];
for (let i = 0; i < bytes.length; i += 16 * 1024) chunks.push(bytes.subarray(i, i + 16 * 1024));

let sink = 0;
const options = { time: 1000, warmupTime: 200 };

describe('1000 JSON events in 16 KiB chunks', () => {
  bench(
    'baseline: TextDecoder + eventsource-parser',
    () => {
      const decoder = new TextDecoder();
      const parser = createParser({ onEvent: (event) => (sink += event.data.length) });
      for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    },
    options,
  );
  bench(
    'createSseParser',
    () => {
      const parser = createSseParser({ onEvent: (event) => (sink += event.data.length) });
      for (const chunk of chunks) parser.feed(chunk);
      parser.end();
    },
    options,
  );
});

export { sink };
