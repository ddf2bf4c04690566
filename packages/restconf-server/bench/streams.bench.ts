import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSseParser, createSseWriter, type SseWriter } from '@yangkit/sse-stream';
import { afterAll, bench, describe } from 'vitest';
import { startGateway } from '../test/harness.js';
import { eventXml } from '../test/streams-helpers.js';

/**
 * Fan-out of notifications to many SSE clients over loopback: CLIENTS clients each receive all
 * EVENTS notifications, in order, with nothing lost (checked, the run fails otherwise). Events
 * are published in batches of BATCH; the next batch goes out once every client has the previous
 * one, so each client's bounded queue never overflows. Delivery latency is publish to parse in
 * the client. Baseline in the same run: a bare node:http SSE server writing the same JSON message
 * with the same writer to the same number of clients (no NETCONF session, no encoding).
 */

const CLIENTS = Number(process.env.STREAMS_BENCH_CLIENTS ?? 500);
const EVENTS = Number(process.env.STREAMS_BENCH_EVENTS ?? 10_000);
const BATCH = 100;

interface Delivery {
  readonly seconds: number;
  readonly p50: number;
  readonly p99: number;
  readonly peakHeapMiB: number;
  readonly peakRssMiB: number;
}

const results = new Map<string, Delivery>();

/** One SSE client: counts events, checks their order, records latencies. */
function client(
  url: string,
  latencies: Float64Array,
  offset: number,
  state: { received: number[] },
  index: number,
) {
  return new Promise<() => void>((resolve, reject) => {
    const parser = createSseParser({
      onEvent(event) {
        const m = /"event-class":"(\d+):([\d.]+)"/.exec(event.data);
        if (m === null) return; // not a benchmark event (session start and end)
        const seq = Number(m[1]);
        const expected = state.received[index]!;
        if (seq !== expected) reject(new Error(`client ${index} got event ${seq}, expected ${expected}`));
        latencies[offset + seq] = performance.now() - Number(m[2]);
        state.received[index] = expected + 1;
      },
    });
    const req = get(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      resolve(() => req.destroy());
    });
    req.on('error', () => {});
  });
}

async function measure(
  name: string,
  url: string,
  publish: (seq: number) => void,
  ready: () => boolean,
): Promise<void> {
  const latencies = new Float64Array(CLIENTS * EVENTS);
  const state = { received: new Array<number>(CLIENTS).fill(0) };
  const stops = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => client(url, latencies, i * EVENTS, state, i)),
  );
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
  let peakHeap = 0;
  let peakRss = 0;
  const started = performance.now();
  for (let sent = 0; sent < EVENTS; ) {
    const end = Math.min(EVENTS, sent + BATCH);
    for (; sent < end; sent++) publish(sent);
    const deadline = Date.now() + 60_000;
    while (state.received.some((r) => r < end)) {
      if (Date.now() > deadline) throw new Error(`${name}: events lost (a client stopped before ${end})`);
      await new Promise((r) => setImmediate(r));
    }
    const mem = process.memoryUsage();
    peakHeap = Math.max(peakHeap, mem.heapUsed);
    peakRss = Math.max(peakRss, mem.rss);
  }
  const seconds = (performance.now() - started) / 1000;
  for (const stop of stops) stop();
  const sorted = latencies.sort();
  results.set(name, {
    seconds,
    p50: sorted[Math.floor(sorted.length * 0.5)]!,
    p99: sorted[Math.floor(sorted.length * 0.99)]!,
    peakHeapMiB: peakHeap / 2 ** 20,
    peakRssMiB: peakRss / 2 ** 20,
  });
}

const benchOptions = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`SSE fan-out: ${CLIENTS} clients x ${EVENTS} notifications`, () => {
  bench(
    'baseline: bare node:http SSE server, same writer and message',
    async () => {
      const writers: SseWriter[] = [];
      const server: Server = createServer((_req, res) => {
        writers.push(createSseWriter(res, { onClose: () => writers.splice(writers.indexOf(w), 1) }));
        const w = writers[writers.length - 1]!;
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await measure(
        'baseline',
        url,
        (seq) => {
          const data = JSON.stringify({
            'ietf-restconf:notification': {
              eventTime: new Date().toISOString(),
              'example-mod:event': {
                'event-class': `${seq}:${performance.now()}`,
                'reporting-entity': { card: 'Ethernet0' },
                severity: 'major',
              },
            },
          });
          for (const w of writers) w.send({ data });
        },
        () => writers.length === CLIENTS,
      );
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    benchOptions,
  );

  bench(
    'restconf-server: GET /restconf/streams/json-NETCONF over the embedded NETCONF server',
    async () => {
      const gw = await startGateway();
      await measure(
        'gateway',
        `${gw.url}/restconf/streams/json-NETCONF`,
        (seq) => gw.netconf.publish(eventXml(`${seq}:${performance.now()}`)),
        // Each client's response head is written once it has joined the stream.
        () => true,
      );
      await gw.close();
    },
    benchOptions,
  );
});

afterAll(() => {
  const base = results.get('baseline');
  const gw = results.get('gateway');
  if (base === undefined || gw === undefined) return;
  const row = (name: string, d: Delivery) =>
    `| ${name} | ${d.seconds.toFixed(1)} | ${((CLIENTS * EVENTS) / d.seconds / 1000).toFixed(0)}k | ${d.p50.toFixed(1)} | ${d.p99.toFixed(1)} | ${d.peakHeapMiB.toFixed(0)} | ${d.peakRssMiB.toFixed(0)} |`;
  console.log(
    [
      `SSE fan-out, ${CLIENTS} clients x ${EVENTS} notifications, all delivered in order`,
      '| server | seconds | deliveries/s | p50 ms | p99 ms | peak heap MiB | peak RSS MiB |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      row('bare SSE (baseline)', base),
      row('restconf-server', gw),
      `throughput ratio gateway/baseline: ${(base.seconds / gw.seconds).toFixed(3)}; p99 ratio: ${(gw.p99 / base.p99).toFixed(1)}x`,
    ].join('\n'),
  );
});
