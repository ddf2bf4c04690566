import { type ChildProcess, spawn } from 'node:child_process';
import { once as onceEvent } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { afterAll, beforeAll, bench, describe } from 'vitest';

/**
 * Requests/s and p99 latency of the restconf-gateway command (dist/cli.js, run by `pnpm build`)
 * over real HTTP with autocannon at 10 connections, each beside a floor measured in the same run:
 * a bare node:http server answering the same bytes. Gateway and floor each run in a process of
 * their own, and autocannon in this one, so that neither shares a thread with the load, as under
 * wrk or any outside client. The embedded backend holds a jukebox of 1,000 artists, one album each.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const ARTISTS = 1000;
const JSON_DATA = 'application/yang-data+json';
const LEAF = '/restconf/data/example-jukebox:jukebox/player/gap';
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const LIBRARY = `${JUKEBOX}/library`;
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Row {
  readonly scenario: string;
  readonly rps: number;
  readonly p99: number;
  readonly floorRps: number;
  readonly floorP99: number;
  readonly failures: number;
}

let gateway: ChildProcess;
let gatewayUrl: string;
const rows: Row[] = [];

interface Captured {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Starts `node <args>` and resolves with the first `http://...` URL it prints (the gateway logs
 * to stderr, the floor to stdout), and the process.
 */
async function startProcess(args: string[], input?: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin?.end(input);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m === null) return;
      // From here on the output (the gateway's audit lines) is read and dropped.
      child.stdout?.off('data', read).resume();
      child.stderr?.off('data', read).resume();
      resolve(m[0]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before listening: ${out}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await onceEvent(child, 'exit');
}

async function capture(path: string, init: RequestInit): Promise<Captured> {
  const r = await fetch(gatewayUrl + path, init);
  const body = await r.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of r.headers)
    if (!['transfer-encoding', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status: r.status, headers, body };
}

/** The floor: a node:http server, in a process of its own, answering each method as captured. */
const FLOOR = `
const byMethod = new Map(JSON.parse(require('node:fs').readFileSync(0, 'utf8')));
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const c = byMethod.get(req.method);
    res.writeHead(c.status, c.headers);
    res.end(c.body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

function cannon(url: string, requests: autocannon.Request[]): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
}

async function measure(
  scenario: string,
  requests: autocannon.Request[],
  floor: Map<string, Captured>,
): Promise<void> {
  const server = await startProcess(['-e', FLOOR], JSON.stringify([...floor]));
  try {
    // Outside load on a small machine comes in bursts: floor and gateway alternate for ROUNDS
    // rounds and each keeps its best, so one burst does not decide the ratio.
    let f: autocannon.Result | undefined;
    let g: autocannon.Result | undefined;
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const fr = await cannon(server.url, requests);
      const gr = await cannon(gatewayUrl, requests);
      failures += gr.errors + gr.non2xx;
      if (f === undefined || fr.requests.average > f.requests.average) f = fr;
      if (g === undefined || gr.requests.average > g.requests.average) g = gr;
    }
    if (f === undefined || g === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
    // A POST+DELETE scenario counts pairs: two requests each.
    const per = requests.length;
    rows.push({
      scenario,
      rps: g.requests.average / per,
      p99: g.latency.p99,
      floorRps: f.requests.average / per,
      floorP99: f.latency.p99,
      failures,
    });
  } finally {
    await stop(server.child);
  }
}

function jukebox(): string {
  const artist = [];
  for (let i = 0; i < ARTISTS; i++)
    artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
  return JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } });
}

beforeAll(async () => {
  ({ child: gateway, url: gatewayUrl } = await startProcess([
    CLI,
    '--port=0',
    '--initial-data=',
    '--log-level=info',
  ]));
  const r = await fetch(`${gatewayUrl}/restconf/data`, {
    method: 'PUT',
    headers: { 'Content-Type': JSON_DATA },
    body: `{"ietf-restconf:data":${jukebox()}}`,
  });
  if (r.status !== 204) throw new Error(`loading the jukebox failed: ${r.status} ${await r.text()}`);
}, 120_000);

afterAll(async () => {
  await stop(gateway);
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

describe(`restconf-gateway, ${CONNECTIONS} connections, best of ${ROUNDS} runs of ${SECONDS} s, ${ARTISTS} artists`, () => {
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
      await measure('POST+DELETE artist, pairs (1,000 artists)', requests, floor);
    },
    once,
  );
});
