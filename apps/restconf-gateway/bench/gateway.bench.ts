import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';

/**
 * Requests/s and p99 latency of the gateway over real HTTP with autocannon at 10 connections,
 * each beside a floor measured in the same run: a bare node:http server answering the same
 * bytes. The embedded backend holds a jukebox of 1,000 artists, one album each.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const ARTISTS = 1000;
const JSON_DATA = 'application/yang-data+json';
const LEAF = '/restconf/data/example-jukebox:jukebox/player/gap';
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const LIBRARY = `${JUKEBOX}/library`;

interface Row {
  readonly scenario: string;
  readonly rps: number;
  readonly p99: number;
  readonly floorRps: number;
  readonly floorP99: number;
  readonly failures: number;
}

let gw: Gateway;
const rows: Row[] = [];

interface Captured {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

async function capture(path: string, init: RequestInit): Promise<Captured> {
  const r = await fetch(gw.url + path, init);
  const body = Buffer.from(await r.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [k, v] of r.headers)
    if (!['transfer-encoding', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
  headers['content-length'] = String(body.length);
  return { status: r.status, headers, body };
}

/** A node:http server answering each method with the response the gateway gave to it. */
async function floorServer(byMethod: Map<string, Captured>): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const c = byMethod.get(req.method ?? 'GET')!;
      res.writeHead(c.status, c.headers);
      res.end(c.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function cannon(url: string, requests: autocannon.Request[]): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
}

async function measure(
  scenario: string,
  requests: autocannon.Request[],
  floor: Map<string, Captured>,
): Promise<void> {
  const server = await floorServer(floor);
  try {
    const f = await cannon(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
    const g = await cannon(gw.url, requests);
    rows.push({
      scenario,
      rps: g.requests.average,
      p99: g.latency.p99,
      floorRps: f.requests.average,
      floorP99: f.latency.p99,
      failures: g.errors + g.non2xx,
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function jukebox(): string {
  const artist = [];
  for (let i = 0; i < ARTISTS; i++)
    artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
  return JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } });
}

beforeAll(async () => {
  gw = await startGateway({ port: 0, initialData: '' }, { logger: pino({ level: 'silent' }) });
  const r = await fetch(`${gw.url}/restconf/data`, {
    method: 'PUT',
    headers: { 'Content-Type': JSON_DATA },
    body: `{"ietf-restconf:data":${jukebox()}}`,
  });
  if (r.status !== 204) throw new Error(`loading the jukebox failed: ${r.status} ${await r.text()}`);
}, 120_000);

afterAll(async () => {
  await gw.close();
  console.table(
    rows.map((r) => ({
      scenario: r.scenario,
      'req/s': Math.round(r.rps),
      'p99 ms': r.p99,
      'floor req/s': Math.round(r.floorRps),
      'floor p99 ms': r.floorP99,
      'vs floor': (r.rps / r.floorRps).toFixed(3),
      'non-2xx+errors': r.failures,
    })),
  );
});

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`restconf-gateway, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ARTISTS} artists`, () => {
  bench(
    'GET leaf',
    async () => {
      const floor = new Map([['GET', await capture(LEAF, {})]]);
      await measure('GET leaf', [{ method: 'GET', path: LEAF }], floor);
    },
    once,
  );

  for (const [label, accept] of [
    ['JSON', JSON_DATA],
    ['XML', 'application/yang-data+xml'],
  ] as const) {
    bench(
      `GET jukebox, 1,000 artists, ${label}`,
      async () => {
        const headers = { accept };
        const floor = new Map([['GET', await capture(JUKEBOX, { headers })]]);
        await measure(
          `GET jukebox 1,000 artists ${label}`,
          [{ method: 'GET', path: JUKEBOX, headers }],
          floor,
        );
      },
      once,
    );
  }

  bench(
    'PATCH leaf, 1,000 artists configured',
    async () => {
      const body = '{"example-jukebox:gap":"1.0"}';
      const headers = { 'content-type': JSON_DATA };
      const floor = new Map([['PATCH', await capture(LEAF, { method: 'PATCH', headers, body })]]);
      await measure('PATCH leaf (1,000 artists)', [{ method: 'PATCH', path: LEAF, headers, body }], floor);
    },
    once,
  );

  bench(
    'POST + DELETE artist, 1,000 artists configured',
    async () => {
      const headers = { 'content-type': JSON_DATA };
      const probe = '{"example-jukebox:artist":[{"name":"probe"}]}';
      const floor = new Map([
        ['POST', await capture(LIBRARY, { method: 'POST', headers, body: probe })],
        ['DELETE', await capture(`${LIBRARY}/artist=probe`, { method: 'DELETE' })],
      ]);
      let next = 0;
      // Each connection creates an artist of its own, then deletes it.
      const requests: autocannon.Request[] = [
        {
          method: 'POST',
          path: LIBRARY,
          headers,
          setupRequest: (req, context) => {
            const ctx = context as { name?: string };
            ctx.name = `bench-${next++}`;
            return { ...req, body: JSON.stringify({ 'example-jukebox:artist': [{ name: ctx.name }] }) };
          },
        },
        {
          method: 'DELETE',
          setupRequest: (req, context) => ({
            ...req,
            path: `${LIBRARY}/artist=${(context as { name: string }).name}`,
          }),
        },
      ];
      await measure('POST+DELETE artist (1,000 artists)', requests, floor);
    },
    once,
  );
});
