import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createSseWriter, encodeEvent, type SseWriter } from '@yangkit/sse-stream';
import { afterAll, bench, describe } from 'vitest';
import { eventXml } from '../test/streams-helpers.js';

/**
 * The fan-out of one event stream to many SSE clients over loopback, measured: CLIENTS (500)
 * clients on one stream URL, EVENTS (10,000) notifications published at RATE (1,000) per second.
 * The clients run in WORKERS (4) Node processes of their own (bench/sse-clients.mjs, each with a
 * share of the clients), so that the measurement is of the server, not of one client process; each
 * worker counts what its clients receive and keeps a latency histogram, and the figures add them
 * up: events lost (published x clients - delivered; a client dropped for reading too slowly loses
 * the rest), events out of order, and the delivery latency from publish to the client's read, p50,
 * p99 and max. The floor ({@link measureFloor}), under the same load: a bare node:http server
 * fanning the same JSON message out with the same writer the same way (encoded once, the writes of
 * a turn coalesced), without NETCONF or RESTCONF. Used by restconf-server's `streams.bench.ts`
 * (the handler over a NETCONF session) and the gateway's `fan-out.bench.ts` (the gateway as
 * deployed, its embedded backend).
 */

export const CLIENTS = Number(process.env.STREAMS_BENCH_CLIENTS ?? 500);
const EVENTS = Number(process.env.STREAMS_BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.STREAMS_BENCH_RATE ?? 1000);
const WORKERS = Number(process.env.STREAMS_BENCH_WORKERS ?? 4);
/** How often the publisher catches up with its rate. */
const TICK_MS = 10;
/** Delivery is over when no client has received anything for this long. */
const QUIET_MS = 5000;
const CLIENTS_SCRIPT = fileURLToPath(new URL('./sse-clients.mjs', import.meta.url));

/** What one worker of sse-clients.mjs reports. */
interface WorkerReport {
  readonly delivered: number;
  readonly outOfOrder: number;
  readonly ended: number;
  readonly comments: readonly (readonly [string, number])[];
  /** Width of a latency bucket in ms. */
  readonly bucketMs: number;
  /** Non-empty latency buckets as [index, count]. */
  readonly buckets: readonly (readonly [number, number])[];
  readonly max: number;
}

/** The figures of one fan-out. */
interface FanOut {
  readonly delivered: number;
  readonly outOfOrder: number;
  readonly ended: number;
  readonly comments: readonly (readonly [string, number])[];
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Seconds from the first publish to the last delivery. */
  readonly seconds: number;
  readonly peakRssMiB: number;
}

/** The next IPC message of `type` from a worker. */
async function reply<T>(child: ChildProcess, type: string): Promise<T> {
  for (;;) {
    const [message] = (await once(child, 'message')) as [{ type: string; message?: string } & T];
    if (message.type === 'error') throw new Error(message.message);
    if (message.type === type) return message;
  }
}

/** Asks every worker `type` and waits for all their answers. */
function ask<T>(workers: readonly ChildProcess[], type: string): Promise<T[]> {
  return Promise.all(
    workers.map((w) => {
      const answer = reply<T>(w, type);
      w.send({ type });
      return answer;
    }),
  );
}

/** The workers' reports added up, the latency quantiles read from the merged histogram. */
function merge(reports: readonly WorkerReport[]): Omit<FanOut, 'seconds' | 'peakRssMiB'> {
  const histogram = new Map<number, number>();
  const comments = new Map<string, number>();
  for (const r of reports) {
    for (const [bucket, count] of r.buckets) histogram.set(bucket, (histogram.get(bucket) ?? 0) + count);
    for (const [line, count] of r.comments) comments.set(line, (comments.get(line) ?? 0) + count);
  }
  const delivered = reports.reduce((sum, r) => sum + r.delivered, 0);
  const bucketMs = reports[0]?.bucketMs ?? 0.1;
  const sorted = [...histogram].sort((a, b) => a[0] - b[0]);
  /** The upper edge of the bucket that holds the q-quantile. */
  const at = (q: number): number => {
    const rank = Math.max(1, Math.ceil(delivered * q));
    let seen = 0;
    for (const [bucket, count] of sorted) {
      seen += count;
      if (seen >= rank) return (bucket + 1) * bucketMs;
    }
    return Number.NaN;
  };
  return {
    delivered,
    outOfOrder: reports.reduce((sum, r) => sum + r.outOfOrder, 0),
    ended: reports.reduce((sum, r) => sum + r.ended, 0),
    comments: [...comments],
    p50: at(0.5),
    p99: at(0.99),
    max: Math.max(...reports.map((r) => r.max)),
  };
}

function sentAt(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Connects the clients to `url`, publishes EVENTS events at RATE with `publish` (each the event of
 * {@link stampedEventXml} or {@link stampedEventJson} for its sequence number), and waits for
 * their delivery.
 */
async function measureFanOut(url: string, publish: (seq: number) => void): Promise<FanOut> {
  const shares = Array.from(
    { length: WORKERS },
    (_, i) => Math.floor((CLIENTS * (i + 1)) / WORKERS) - Math.floor((CLIENTS * i) / WORKERS),
  ).filter((n) => n > 0);
  const workers = shares.map((clients) => fork(CLIENTS_SCRIPT, [JSON.stringify({ url, clients })]));
  try {
    await Promise.all(workers.map((w) => reply(w, 'ready')));
    let peakRss = 0;
    const started = performance.now();
    for (let sent = 0; sent < EVENTS; ) {
      const due = Math.min(EVENTS, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      for (; sent < due; sent++) publish(sent);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      await sleep(TICK_MS);
    }
    let delivered = -1;
    let lastChange = performance.now();
    let lastDelivery = lastChange;
    while (delivered < CLIENTS * EVENTS && performance.now() - lastChange < QUIET_MS) {
      const now = (await ask<{ delivered: number }>(workers, 'progress')).reduce(
        (sum, c) => sum + c.delivered,
        0,
      );
      if (now !== delivered) {
        delivered = now;
        lastChange = lastDelivery = performance.now();
      }
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      await sleep(50);
    }
    return {
      ...merge(await ask<WorkerReport>(workers, 'report')),
      seconds: (lastDelivery - started) / 1000,
      peakRssMiB: peakRss / 2 ** 20,
    };
  } finally {
    for (const w of workers) w.kill();
  }
}

/** A server whose event stream {@link benchFanOut} measures. */
export interface FanOutServer {
  /** The URL of the stream the clients open. */
  readonly url: string;
  /** Publishes the event of sequence number `seq` (see {@link stampedEventXml}). */
  publish(seq: number): void;
  close(): Promise<void>;
}

/**
 * The benchmark: the floor, then the server `start` gives (`name` in the table, `description` in
 * vitest's), in the same run; the table of both is printed at the end.
 */
export function benchFanOut(name: string, description: string, start: () => Promise<FanOutServer>): void {
  const results = new Map<string, FanOut>();
  const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
  describe(`SSE fan-out: ${CLIENTS} clients x ${EVENTS} notifications at ${RATE}/s`, () => {
    bench(
      'floor: bare node:http SSE server, same writer, message and fan-out',
      async () => {
        results.set('floor', await measureFloor());
      },
      once,
    );
    bench(
      description,
      async () => {
        const server = await start();
        try {
          results.set('server', await measureFanOut(server.url, (seq) => server.publish(seq)));
        } finally {
          await server.close();
        }
      },
      once,
    );
  });
  afterAll(() => {
    console.log(
      fanOutTable([
        ['node:http floor', results.get('floor')],
        [name, results.get('server')],
      ]),
    );
  });
}

/** The example-mod event class of sequence number `seq`, stamped with the time it is published. */
function eventClass(seq: number): string {
  return `${seq}:${sentAt().toFixed(3)}`;
}

/** The example-mod event of sequence number `seq` as NETCONF XML, stamped now (for `publish`). */
export function stampedEventXml(seq: number): string {
  return eventXml(eventClass(seq));
}

/** The RESTCONF JSON notification of sequence number `seq`, stamped now: what the floor sends. */
function stampedEventJson(seq: number): string {
  return JSON.stringify({
    'ietf-restconf:notification': {
      eventTime: new Date().toISOString(),
      'example-mod:event': {
        'event-class': eventClass(seq),
        'reporting-entity': { card: 'Ethernet0' },
        severity: 'major',
      },
    },
  });
}

/** The floor: a bare node:http SSE server, same writer, message and fan-out. */
async function measureFloor(): Promise<FanOut> {
  const writers = new Set<SseWriter>();
  const server: Server = createServer((_req, res) => {
    const writer = createSseWriter(res, { coalesceWrites: true, onClose: () => writers.delete(writer) });
    writers.add(writer);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return await measureFanOut(url, (seq) => {
      const event = encodeEvent({ data: stampedEventJson(seq) });
      for (const w of writers) w.sendEncoded(event);
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** The table of `rows` (name and figures, or undefined when not measured), with how streams ended. */
function fanOutTable(rows: readonly (readonly [string, FanOut | undefined])[]): string {
  const total = CLIENTS * EVENTS;
  const ms = (x: number) => x.toFixed(1);
  const row = (name: string, r: FanOut | undefined) =>
    r === undefined
      ? `| ${name} | not measured | | | | | | |`
      : `| ${name} | ${(total - r.delivered).toLocaleString('en-US')} | ${r.outOfOrder} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.seconds.toFixed(1)} | ${r.peakRssMiB.toFixed(0)} |`;
  const closing = rows.flatMap(([name, r]) =>
    r === undefined
      ? []
      : [
          `${name}: ${r.ended} of ${CLIENTS} responses ended before the last event`,
          ...r.comments.map(([comment, clients]) => `${name}: ${clients} clients got "${comment}"`),
        ],
  );
  return [
    '',
    `SSE fan-out, ${CLIENTS} clients in ${WORKERS} processes x ${EVENTS.toLocaleString('en-US')} notifications published at ${RATE}/s`,
    '| server | events lost | out of order | p50 ms | p99 ms | max ms | seconds | peak RSS MiB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(([name, r]) => row(name, r)),
    ...closing,
    '',
  ].join('\n');
}
