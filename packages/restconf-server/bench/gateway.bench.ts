import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, startGateway } from '../test/harness.js';

/**
 * Requests/s and p99 latency of the handler over real HTTP with autocannon (10 connections), each
 * beside a floor measured in the same run: a bare node:http server answering the same bytes.
 * The embedded NETCONF backend holds a jukebox of 1,000 artists with one album each.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 10;
const ARTISTS = 1000;

let gw: Gateway;
const rows: { name: string; rps: number; p99: number; floorRps: number; floorP99: number; errors: number }[] =
  [];

function jukebox(): unknown {
  const artist = [];
  for (let i = 0; i < ARTISTS; i++) {
    artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
  }
  return { 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } };
}

interface Shot {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

async function run(url: string, requests: autocannon.Request[]): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
}

/** A node:http server that answers every request with one captured response. */
async function floorServer(status: number, headers: Record<string, string>, body: Buffer): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function capture(
  shot: Shot,
  target: Gateway = gw,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const r = await target.fetch(shot.path, {
    method: shot.method,
    ...(shot.headers ? { headers: shot.headers } : {}),
    ...(shot.body ? { body: shot.body } : {}),
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of r.headers)
    if (k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') headers[k] = v;
  const body = Buffer.from(await r.arrayBuffer());
  headers['content-length'] = String(body.length);
  return { status: r.status, headers, body };
}

async function measure(
  name: string,
  requests: autocannon.Request[],
  sample: Shot,
  target: Gateway = gw,
): Promise<void> {
  const captured = await capture(sample, target);
  const floor = await floorServer(captured.status, captured.headers, captured.body);
  try {
    const f = await run(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`, requests);
    const g = await run(target.url, requests);
    rows.push({
      name,
      rps: g.requests.average,
      p99: g.latency.p99,
      floorRps: f.requests.average,
      floorP99: f.latency.p99,
      errors: g.errors + g.non2xx,
    });
  } finally {
    floor.closeAllConnections();
    await new Promise<void>((resolve) => floor.close(() => resolve()));
  }
}

beforeAll(async () => {
  gw = await startGateway();
  const r = await gw.fetch('/restconf/data', {
    method: 'PUT',
    headers: { 'content-type': 'application/yang-data+json' },
    body: JSON.stringify(jukebox()),
  });
  if (r.status !== 204) throw new Error(`loading the jukebox failed: ${r.status}`);
}, 60_000);

afterAll(async () => {
  await gw.close();
  const table = rows.map((r) => ({
    scenario: r.name,
    'req/s': Math.round(r.rps),
    'p99 ms': r.p99,
    'floor req/s': Math.round(r.floorRps),
    'floor p99 ms': r.floorP99,
    'vs floor': (r.rps / r.floorRps).toFixed(3),
    'non-2xx+errors': r.errors,
  }));
  console.table(table);
});

const LEAF = '/restconf/data/example-jukebox:jukebox/player/gap';
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`gateway over HTTP, ${CONNECTIONS} connections, ${SECONDS}s per run, ${ARTISTS} artists`, () => {
  bench(
    'GET leaf',
    async () => {
      await measure('GET leaf', [{ method: 'GET', path: LEAF }], { method: 'GET', path: LEAF });
    },
    once,
  );

  bench(
    'GET jukebox JSON',
    async () => {
      const headers = { accept: 'application/yang-data+json' };
      await measure('GET jukebox (JSON)', [{ method: 'GET', path: JUKEBOX, headers }], {
        method: 'GET',
        path: JUKEBOX,
        headers,
      });
    },
    once,
  );

  bench(
    'GET jukebox XML',
    async () => {
      const headers = { accept: 'application/yang-data+xml' };
      await measure('GET jukebox (XML)', [{ method: 'GET', path: JUKEBOX, headers }], {
        method: 'GET',
        path: JUKEBOX,
        headers,
      });
    },
    once,
  );

  bench(
    'PATCH leaf',
    async () => {
      const shot = {
        method: 'PATCH' as const,
        path: LEAF,
        headers: { 'content-type': 'application/yang-data+json' },
        body: JSON.stringify({ 'example-jukebox:gap': '0.7' }),
      };
      await measure('PATCH leaf', [shot], shot);
    },
    once,
  );

  bench(
    'PATCH leaf, empty datastore',
    async () => {
      const empty = await startGateway();
      try {
        await empty.fetch('/restconf/data', {
          method: 'PUT',
          headers: { 'content-type': 'application/yang-data+json' },
          body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap: '0.5' } } }),
        });
        const shot = {
          method: 'PATCH' as const,
          path: LEAF,
          headers: { 'content-type': 'application/yang-data+json' },
          body: JSON.stringify({ 'example-jukebox:gap': '0.7' }),
        };
        await measure('PATCH leaf (empty datastore)', [shot], shot, empty);
      } finally {
        await empty.close();
      }
    },
    once,
  );

  bench(
    'POST+DELETE artist',
    async () => {
      let n = 0;
      const post: autocannon.Request = {
        method: 'POST',
        path: LIBRARY,
        headers: { 'content-type': 'application/yang-data+json' },
        setupRequest: (req, context) => {
          const name = `bench-${n++}`;
          (context as { name?: string }).name = name;
          return { ...req, body: JSON.stringify({ 'example-jukebox:artist': [{ name }] }) };
        },
      };
      const del: autocannon.Request = {
        method: 'DELETE',
        path: LIBRARY,
        setupRequest: (req, context) => ({
          ...req,
          path: `${LIBRARY}/artist=${(context as { name?: string }).name}`,
        }),
      };
      await measure('POST+DELETE artist (pairs)', [post, del], {
        method: 'POST',
        path: LIBRARY,
        headers: { 'content-type': 'application/yang-data+json' },
        body: JSON.stringify({ 'example-jukebox:artist': [{ name: 'floor-sample' }] }),
      });
    },
    once,
  );
});
