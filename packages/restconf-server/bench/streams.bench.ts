import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createSseWriter, type SseWriter } from '@yangkit/sse-stream';
import { afterAll, bench, describe } from 'vitest';
import { startGateway } from '../test/harness.js';
import { eventXml } from '../test/streams-helpers.js';

/**
 * Fan-out of one event stream to many SSE clients over loopback: CLIENTS (500) clients on
 * `/restconf/streams/json-NETCONF` of the handler over the embedded NETCONF server, and EVENTS
 * (10,000) notifications published at RATE (1,000) per second. The clients run in a Node process
 * of their own (bench/sse-clients.mjs) and count what they receive: events lost (published x
 * clients - delivered, a client dropped for reading too slowly loses the rest), events out of
 * order, and the delivery latency from publish to the client's read, p50, p99 and max. Baseline in
 * the same run: a bare node:http server writing the same JSON message with the same writer to the
 * same clients (no NETCONF, no encoding).
 */

const CLIENTS = Number(process.env.STREAMS_BENCH_CLIENTS ?? 500);
const EVENTS = Number(process.env.STREAMS_BENCH_EVENTS ?? 10_000);
const RATE = Number(process.env.STREAMS_BENCH_RATE ?? 1000);
/** How often the publisher catches up with its rate. */
const TICK_MS = 10;
/** Delivery is over when no client has received anything for this long. */
const QUIET_MS = 5000;
const CLIENTS_SCRIPT = fileURLToPath(new URL('./sse-clients.mjs', import.meta.url));

interface ClientReport {
  readonly delivered: number;
  readonly outOfOrder: number;
  readonly ended: number;
  readonly comments: readonly (readonly [string, number])[];
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

interface FanOut extends ClientReport {
  /** Seconds from the first publish to the last delivery. */
  readonly seconds: number;
  readonly peakRssMiB: number;
}

const results = new Map<string, FanOut>();

/** The next IPC message of `type` from the clients' process. */
async function reply<T>(child: ChildProcess, type: string): Promise<T> {
  for (;;) {
    const [message] = (await once(child, 'message')) as [{ type: string; message?: string } & T];
    if (message.type === 'error') throw new Error(message.message);
    if (message.type === type) return message;
  }
}

function sentAt(): number {
  return performance.timeOrigin + performance.now();
}

/** Connects the clients to `url`, publishes EVENTS events at RATE, and waits for their delivery. */
async function measure(name: string, url: string, publish: (seq: number) => void): Promise<void> {
  const child = fork(CLIENTS_SCRIPT, [JSON.stringify({ url, clients: CLIENTS, events: EVENTS })]);
  try {
    await reply(child, 'ready');
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
      child.send({ type: 'progress' });
      const now = (await reply<{ delivered: number }>(child, 'progress')).delivered;
      if (now !== delivered) {
        delivered = now;
        lastChange = lastDelivery = performance.now();
      }
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      await sleep(50);
    }
    child.send({ type: 'report' });
    const report = await reply<ClientReport>(child, 'report');
    results.set(name, {
      ...report,
      seconds: (lastDelivery - started) / 1000,
      peakRssMiB: peakRss / 2 ** 20,
    });
  } finally {
    child.kill();
  }
}

/** The example-mod event of sequence number `seq`, stamped with the time it is published. */
function eventClass(seq: number): string {
  return `${seq}:${sentAt().toFixed(3)}`;
}

const once1 = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`SSE fan-out: ${CLIENTS} clients x ${EVENTS} notifications at ${RATE}/s`, () => {
  bench(
    'baseline: bare node:http SSE server, same writer and message',
    async () => {
      const writers = new Set<SseWriter>();
      const server: Server = createServer((_req, res) => {
        const writer = createSseWriter(res, { onClose: () => writers.delete(writer) });
        writers.add(writer);
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      await measure('baseline', url, (seq) => {
        const data = JSON.stringify({
          'ietf-restconf:notification': {
            eventTime: new Date().toISOString(),
            'example-mod:event': {
              'event-class': eventClass(seq),
              'reporting-entity': { card: 'Ethernet0' },
              severity: 'major',
            },
          },
        });
        for (const w of writers) w.send({ data });
      });
      server.closeAllConnections();
      server.close();
    },
    once1,
  );

  bench(
    'restconf-server: GET /restconf/streams/json-NETCONF over the embedded NETCONF server',
    async () => {
      const gw = await startGateway();
      try {
        await measure('gateway', `${gw.url}/restconf/streams/json-NETCONF`, (seq) =>
          gw.netconf.publish(eventXml(eventClass(seq))),
        );
      } finally {
        await gw.close();
      }
    },
    once1,
  );
});

afterAll(() => {
  const total = CLIENTS * EVENTS;
  const ms = (x: number) => x.toFixed(1);
  const row = (name: string, r: FanOut | undefined) =>
    r === undefined
      ? `| ${name} | not measured | | | | | | |`
      : `| ${name} | ${(total - r.delivered).toLocaleString('en-US')} | ${r.outOfOrder} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.seconds.toFixed(1)} | ${r.peakRssMiB.toFixed(0)} |`;
  const closing = [...results].flatMap(([name, r]) =>
    r.comments.map(([comment, clients]) => `${name}: ${clients} clients ended with "${comment}"`),
  );
  console.log(
    [
      '',
      `SSE fan-out, ${CLIENTS} clients x ${EVENTS.toLocaleString('en-US')} notifications published at ${RATE}/s`,
      '| server | events lost | out of order | p50 ms | p99 ms | max ms | seconds | peak RSS MiB |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      row('bare SSE (baseline)', results.get('baseline')),
      row('restconf-server', results.get('gateway')),
      ...closing,
      '',
    ].join('\n'),
  );
});
