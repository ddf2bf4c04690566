import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, startGateway } from '../test/harness.js';

/**
 * Requests/s and p99 latency of the handler over real HTTP with autocannon (10 connections), each
 * beside a floor measured in the same run: a bare node:http server answering the same bytes.
 * The embedded NETCONF backend holds a jukebox of 1,000 artists with one album each.
 * autocannon runs in a child process (bench/load.mjs) so the server's event loop is its own, as it
 * is under wrk or any outside client. Each row is the best of BENCH_ROUNDS (default 3) alternating
 * runs of floor and gateway.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const ARTISTS = 1000;

let gw: Gateway;
const rows: { name: string; rps: number; p99: number; floorRps: number; floorP99: number; errors: number }[] =
  [];
const LOAD = fileURLToPath(new URL('./load.mjs', import.meta.url));

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

/** One request of a scenario, as bench/load.mjs passes it to autocannon. */
type LoadRequest = Shot;

/** What to send: fixed requests in turn, or POST+DELETE pairs of new artists under a library URI. */
type Load = { readonly requests: readonly LoadRequest[] } | { readonly postDelete: string };

interface LoadResult {
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
}

/** Runs autocannon in its own Node process against `url` and returns its summary. */
function run(url: string, load: Load): Promise<LoadResult> {
  const spec = JSON.stringify({ url, connections: CONNECTIONS, duration: SECONDS, ...load });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD, spec], { timeout: (SECONDS + 30) * 1000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as LoadResult);
    });
  });
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

async function measure(name: string, load: Load, sample: Shot, target: Gateway = gw): Promise<void> {
  const captured = await capture(sample, target);
  const floor = await floorServer(captured.status, captured.headers, captured.body);
  try {
    // Outside load on a small machine comes in bursts: floor and gateway alternate for ROUNDS
    // rounds and each keeps its best round, so a burst during one run does not decide the ratio.
    let errors = 0;
    let f: LoadResult | undefined;
    let g: LoadResult | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const fr = await run(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`, load);
      const gr = await run(target.url, load);
      errors += gr.errors;
      if (f === undefined || fr.rps > f.rps) f = fr;
      if (g === undefined || gr.rps > g.rps) g = gr;
    }
    if (f === undefined || g === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
    // A POST+DELETE row counts pairs: two requests each.
    const per = 'postDelete' in load ? 2 : 1;
    rows.push({
      name,
      rps: g.rps / per,
      p99: g.p99,
      floorRps: f.rps / per,
      floorP99: f.p99,
      // Errors of every round count, not only the best one's.
      errors,
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

describe(`gateway over HTTP, ${CONNECTIONS} connections, best of ${ROUNDS} runs of ${SECONDS}s, ${ARTISTS} artists`, () => {
  bench(
    'GET leaf',
    async () => {
      await measure('GET leaf', { requests: [{ method: 'GET', path: LEAF }] }, { method: 'GET', path: LEAF });
    },
    once,
  );

  bench(
    'GET jukebox JSON',
    async () => {
      const headers = { accept: 'application/yang-data+json' };
      await measure(
        'GET jukebox (JSON)',
        { requests: [{ method: 'GET', path: JUKEBOX, headers }] },
        {
          method: 'GET',
          path: JUKEBOX,
          headers,
        },
      );
    },
    once,
  );

  bench(
    'GET jukebox XML',
    async () => {
      const headers = { accept: 'application/yang-data+xml' };
      await measure(
        'GET jukebox (XML)',
        { requests: [{ method: 'GET', path: JUKEBOX, headers }] },
        {
          method: 'GET',
          path: JUKEBOX,
          headers,
        },
      );
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
      await measure('PATCH leaf', { requests: [shot] }, shot);
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
        await measure('PATCH leaf (empty datastore)', { requests: [shot] }, shot, empty);
      } finally {
        await empty.close();
      }
    },
    once,
  );

  bench(
    'POST+DELETE artist',
    async () => {
      await measure(
        'POST+DELETE artist (pairs)',
        { postDelete: LIBRARY },
        {
          method: 'POST',
          path: LIBRARY,
          headers: { 'content-type': 'application/yang-data+json' },
          body: JSON.stringify({ 'example-jukebox:artist': [{ name: 'floor-sample' }] }),
        },
      );
    },
    once,
  );
});
