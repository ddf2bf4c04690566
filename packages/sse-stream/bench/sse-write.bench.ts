import { Writable } from 'node:stream';
import { bench, describe } from 'vitest';
import { createSseWriter } from '../src/sse-writer.js';

/**
 * Writing events through the writer (validation, formatting, backpressure bookkeeping, keepalive
 * restart) against the baseline of a plain `res.write('data: ' + json + '\n\n')` on the same
 * null Writable, for compact JSON notifications of several sizes and one multi-line XML one.
 * One operation writes a batch of 100 events, so each sample is long enough to time precisely.
 * Run with `pnpm bench`; vitest prints ops/s and how many times faster each entry is.
 */

const BATCH = 100;
const options = { time: 1000, warmupTime: 200 };

// A response that consumes every chunk at once; like a socket it encodes strings to bytes first.
// Its buffer is large so write() keeps returning true and nothing is queued.
const sink = new Writable({
  highWaterMark: 1 << 22,
  write(_chunk, _encoding, callback) {
    callback();
  },
});

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
  describe(`${BATCH} JSON events of ${size} bytes`, () => {
    bench(
      'baseline: res.write(data + json)',
      () => {
        for (let i = 0; i < BATCH; i++) sink.write(`data: ${json}\n\n`);
      },
      options,
    );
    bench(
      'SseWriter.send',
      () => {
        for (let i = 0; i < BATCH; i++) writer.send({ data: json });
      },
      options,
    );
    bench(
      'SseWriter.send with event and id',
      () => {
        for (let i = 0; i < BATCH; i++) writer.send({ event: 'notification', id: String(i), data: json });
      },
      options,
    );
  });
}

describe(`${BATCH} XML events of 6 lines`, () => {
  bench(
    'baseline: res.write(data + xml), not split into lines',
    () => {
      for (let i = 0; i < BATCH; i++) sink.write(`data: ${xml}\n\n`);
    },
    options,
  );
  bench(
    'SseWriter.send, one data line per line',
    () => {
      for (let i = 0; i < BATCH; i++) writer.send({ data: xml });
    },
    options,
  );
});
