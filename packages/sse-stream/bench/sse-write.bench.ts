import { Writable } from 'node:stream';
import { bench, describe } from 'vitest';
import { createSseWriter } from '../src/sse-writer.js';

/**
 * Writing events through the writer (validation, formatting, backpressure bookkeeping, keepalive
 * restart) against the baseline of a plain `res.write('data: ' + json + '\n\n')` on the same
 * null Writable, for compact JSON notifications of several sizes and one multi-line XML one.
 * Run with `pnpm bench`; vitest prints ops/s and how many times faster the baseline is.
 */

// A response that consumes every chunk at once; like a socket it encodes strings to bytes first.
// Its buffer is large so write() keeps returning true and nothing is queued.
const sink = new Writable({
  highWaterMark: 1 << 20,
  write(_chunk, _encoding, callback) {
    callback();
  },
});
sink.setMaxListeners(0);

function notification(bytes: number): string {
  const filler = 'x'.repeat(Math.max(0, bytes - 90));
  return JSON.stringify({
    'ietf-restconf:notification': {
      eventTime: '2026-11-22T02:00:00Z',
      'example-jukebox:played': { song: filler },
    },
  });
}

const xml = [
  '<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0">',
  '  <eventTime>2026-11-22T02:00:00Z</eventTime>',
  '  <played xmlns="http://example.com/ns/example-jukebox">',
  '    <song>Wonderwall</song>',
  '  </played>',
  '</notification>',
].join('\n');

const writer = createSseWriter(sink, { keepaliveSeconds: 30 });

for (const size of [128, 1024, 8192]) {
  const json = notification(size);
  describe(`${size}-byte JSON event`, () => {
    bench('baseline: res.write(data + json)', () => {
      sink.write(`data: ${json}\n\n`);
    });
    bench('SseWriter.send', () => {
      writer.send({ data: json });
    });
    bench('SseWriter.send with event and id', () => {
      writer.send({ event: 'notification', id: '1234', data: json });
    });
  });
}

describe('6-line XML event', () => {
  bench('baseline: res.write(data + xml) (not split into lines)', () => {
    sink.write(`data: ${xml}\n\n`);
  });
  bench('SseWriter.send (one data line per line)', () => {
    writer.send({ data: xml });
  });
});
