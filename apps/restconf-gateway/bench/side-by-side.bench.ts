import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, bench, describe } from 'vitest';
import { type Clixon, clixonPrefix, startClixon } from './clixon.js';
import { JSON_DATA, JUKEBOX, jukebox } from './jukebox.js';
import {
  type Captured,
  capture,
  floorKey,
  residentKb,
  type Started,
  startFloor,
  startGatewayCommand,
  stopProcess,
} from './processes.js';
import { updateFigures, writeReadmeFigures } from './readme-figures.js';
import { runWrk, type WrkRequest, type WrkResult, wrkAvailable } from './wrk.js';
import {
  type ConvertCost,
  type ConvertCosts,
  gnuTimeAvailable,
  measureConvert,
  type ProcessCost,
  yanglintAvailable,
} from './yang-convert.js';

/**
 * The restconf-gateway command as it is deployed (its bin, embedded backend, default log
 * level, so the audit line of every edit is written) beside Clixon 7.8 with native RESTCONF when
 * `CLIXON_HOME` names an installation of it, otherwise beside the floor: a bare node:http server
 * answering the bytes the gateway answered. Each server runs in a process of its own, the same
 * jukebox of N artists (BENCH_ARTISTS, 1,000 and 10,000) with one album each is loaded into both
 * with the same RESTCONF PUT, and wrk (`-t1 -c10`) loads them in turn, best of BENCH_ROUNDS (3)
 * runs of BENCH_SECONDS (8) each.
 * The resident size of each server is read right after its rows (Clixon: both daemons) and again
 * after REST_SECONDS without requests, and so is the floor's after the same requests: what a bare
 * Node server holds to serve them. Last,
 * `yang-convert` turns INTERFACES (100,000) ietf-interfaces entries from XML into JSON and back
 * beside yanglint, both as whole processes. `UPDATE_FIGURES=1` writes the table into the README.
 */

/** The settings a run can change, with their defaults: the figures of the README use these. */
const DEFAULTS = {
  BENCH_SECONDS: '8',
  BENCH_ROUNDS: '3',
  BENCH_ARTISTS: '1000,10000',
  BENCH_INTERFACES: '100000',
};
const settings = Object.fromEntries(
  Object.entries(DEFAULTS).map(([name, value]) => [name, process.env[name] || value]),
) as typeof DEFAULTS;
const SECONDS = Number(settings.BENCH_SECONDS);
const ROUNDS = Number(settings.BENCH_ROUNDS);
const SIZES = settings.BENCH_ARTISTS.split(',').map(Number);
const INTERFACES = Number(settings.BENCH_INTERFACES);
const CONNECTIONS = 10;
/** Seconds of load each server gets on each request before the measured runs, for the JIT. */
const WARMUP_SECONDS = 2;
/** Longest run: a slow request gets runs long enough for 30 answers, up to this. */
const MAX_SECONDS = 120;
const LEAF = `${JUKEBOX}/player/gap`;
const JUKEBOX_YANG = fileURLToPath(
  new URL('../../../yang/examples/example-jukebox@2016-08-15.yang', import.meta.url),
);

const prefix = clixonPrefix();
const baselineName = prefix === undefined ? 'node:http floor' : 'Clixon 7.8';

/** The rows of one jukebox size; PATCH alternates two values, so every request changes the leaf. */
const WORK: readonly { readonly work: string; readonly request: WrkRequest }[] = [
  { work: 'GET one leaf', request: { method: 'GET', path: LEAF, headers: { accept: JSON_DATA } } },
  { work: 'GET whole jukebox', request: { method: 'GET', path: JUKEBOX, headers: { accept: JSON_DATA } } },
  {
    work: 'PATCH one leaf',
    request: {
      method: 'PATCH',
      path: LEAF,
      headers: { 'content-type': JSON_DATA },
      bodies: ['{"example-jukebox:gap":"1.0"}', '{"example-jukebox:gap":"0.5"}'],
    },
  },
];

interface Row {
  readonly work: string;
  readonly artists: number;
  /** Bytes of the gateway's answer. */
  readonly bytes: number;
  /** Seconds of each run. */
  readonly seconds: number;
  readonly baseline: WrkResult;
  readonly gateway: WrkResult;
}

interface Memory {
  readonly artists: number;
  /** Read right after the rows, or after {@link REST_SECONDS} without requests. */
  readonly when: 'after the rows' | 'at rest';
  readonly gatewayKb: number;
  /** Clixon's two daemons; the floor's when there is no Clixon. */
  readonly baselineKb: number;
  /** The floor's, beside Clixon's. */
  readonly floorKb: number | undefined;
}

/**
 * Seconds without requests before the resident sizes are read again: long enough for the gateway's
 * collection once quiet (2 s) and its minor collection 5.5 s later that shrinks the young generation.
 */
const REST_SECONDS = 10;

const rows: Row[] = [];
const memory: Memory[] = [];
let convert: ConvertCosts | undefined;
const loadAtStart = loadavg();

/** Loads the jukebox into a server with one PUT of the jukebox container, as a client would. */
async function load(url: string, body: string): Promise<void> {
  const r = await fetch(url + JUKEBOX, { method: 'PUT', headers: { 'content-type': JSON_DATA }, body });
  if (r.status !== 201 && r.status !== 204)
    throw new Error(`loading the jukebox into ${url} failed: ${r.status} ${await r.text()}`);
}

/** The request with its first body, for fetch. */
function fetchInit(request: WrkRequest): RequestInit {
  const body = request.bodies?.[0];
  return { method: request.method, headers: request.headers, ...(body === undefined ? {} : { body }) };
}

/** Milliseconds one request takes alone. */
async function alone(url: string, request: WrkRequest): Promise<number> {
  const started = performance.now();
  const r = await fetch(url + request.path, fetchInit(request));
  await r.arrayBuffer();
  if (r.status >= 300) throw new Error(`${request.method} ${url}${request.path} answered ${r.status}`);
  return performance.now() - started;
}

/**
 * Runs the request on the baseline and the gateway in turn, ROUNDS times after a warm-up; each
 * keeps its best run. A run lasts SECONDS, or long enough for 30 answers of the slower server when
 * it answers slowly, and after each the server is left the time to finish what wrk left in
 * flight, so that the next run has the machine to itself.
 */
async function bestOf(
  baselineUrl: string,
  gatewayUrl: string,
  request: WrkRequest,
): Promise<{ seconds: number; baseline: WrkResult; gateway: WrkResult }> {
  const slowest = Math.max(await alone(baselineUrl, request), await alone(gatewayUrl, request));
  const seconds = Math.min(MAX_SECONDS, Math.max(SECONDS, Math.ceil((30 * slowest) / 1000)));
  const run = async (url: string, runSeconds: number) => {
    const result = await runWrk(url, request, runSeconds, CONNECTIONS);
    await sleep(Math.min(30_000, CONNECTIONS * slowest));
    return result;
  };
  let baseline: WrkResult | undefined;
  let gateway: WrkResult | undefined;
  const better = (a: WrkResult | undefined, b: WrkResult) => (a === undefined || b.rps > a.rps ? b : a);
  await run(baselineUrl, WARMUP_SECONDS);
  await run(gatewayUrl, WARMUP_SECONDS);
  for (let round = 0; round < ROUNDS; round++) {
    baseline = better(baseline, await run(baselineUrl, seconds));
    gateway = better(gateway, await run(gatewayUrl, seconds));
  }
  if (baseline === undefined || gateway === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
  return { seconds, baseline, gateway };
}

/**
 * The floor's resident size after the rows' requests, each sent by wrk for SECONDS, and again after
 * REST_SECONDS without requests: one process answering all of them as the gateway did.
 */
async function floorMemory(answers: ReadonlyMap<string, Captured>): Promise<{ rows: number; rest: number }> {
  const floor = await startFloor(answers);
  try {
    for (const { request } of WORK) await runWrk(floor.url, request, SECONDS, CONNECTIONS);
    const rows = residentKb(floor.child.pid!);
    await sleep(REST_SECONDS * 1000);
    return { rows, rest: residentKb(floor.child.pid!) };
  } finally {
    await stopProcess(floor.child);
  }
}

async function measureSize(artists: number): Promise<void> {
  const body = jukebox(artists);
  const answers = new Map<string, Captured>();
  let gateway: Started | undefined;
  let clixon: Clixon | undefined;
  try {
    gateway = await startGatewayCommand(['--port=0', '--initial-data=', '--log-level=info']);
    await load(gateway.url, body);
    if (prefix !== undefined) {
      clixon = await startClixon(prefix, [JUKEBOX_YANG]);
      await load(clixon.url, body);
    }
    for (const { work, request } of WORK) {
      const answer = await capture(gateway.url + request.path, fetchInit(request));
      if (answer.status >= 300)
        throw new Error(`${work}: the gateway answered ${answer.status} ${answer.body}`);
      const key = floorKey(request.method, request.path);
      answers.set(key, answer);
      const floor = clixon === undefined ? await startFloor(new Map([[key, answer]])) : undefined;
      try {
        const baselineUrl = clixon?.url ?? floor!.url;
        rows.push({
          work,
          artists,
          bytes: Buffer.byteLength(answer.body),
          ...(await bestOf(baselineUrl, gateway.url, request)),
        });
      } finally {
        if (floor !== undefined) await stopProcess(floor.child);
      }
    }
    const clixonKb = () => clixon?.pids.reduce((sum, pid) => sum + residentKb(pid), 0);
    const gatewayRows = residentKb(gateway.child.pid!);
    const clixonRows = clixonKb();
    await sleep(REST_SECONDS * 1000);
    const gatewayRest = residentKb(gateway.child.pid!);
    const clixonRest = clixonKb();
    await stopProcess(gateway.child);
    const floor = await floorMemory(answers);
    const besideClixon = (kb: number) => (clixon === undefined ? undefined : kb);
    memory.push(
      {
        artists,
        when: 'after the rows',
        gatewayKb: gatewayRows,
        baselineKb: clixonRows ?? floor.rows,
        floorKb: besideClixon(floor.rows),
      },
      {
        artists,
        when: 'at rest',
        gatewayKb: gatewayRest,
        baselineKb: clixonRest ?? floor.rest,
        floorKb: besideClixon(floor.rest),
      },
    );
  } finally {
    if (gateway !== undefined) await stopProcess(gateway.child);
    await clixon?.stop();
  }
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
/** A ratio, with two significant digits when it is below 0.1 (the floor's rows). */
const times = (x: number) => `${x >= 0.1 ? x.toFixed(2) : x.toPrecision(2)}x`;
const mb = (kb: number) => `${n(kb / 1024)} MB`;
const rate = (r: WrkResult, seconds: number) => {
  if (r.rps === 0) return `none answered in ${seconds} s`;
  const rps = r.rps < 100 ? r.rps.toFixed(1) : n(r.rps);
  const failed = r.failures > 0 ? `, ${n(r.failures)} failed` : '';
  return `${rps} req/s, p99 ${r.p99Ms < 10 ? r.p99Ms.toFixed(1) : n(r.p99Ms)} ms${failed}`;
};

function table(): string {
  const lines = [
    `| work | baseline: ${baselineName} | yangkit | yangkit / baseline |`,
    '| --- | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    const notes = [];
    if (r.work === 'GET whole jukebox') notes.push(`${n(r.bytes / 1000)} KB`);
    if (r.seconds !== SECONDS) notes.push(`runs of ${r.seconds} s`);
    const label = `${r.work}, ${n(r.artists)} artists${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    lines.push(
      `| ${label} | ${rate(r.baseline, r.seconds)} | ${rate(r.gateway, r.seconds)} | ${r.baseline.rps === 0 ? '-' : `${times(r.gateway.rps / r.baseline.rps)} req/s`} |`,
    );
  }
  for (const m of memory) {
    const label = `RSS ${m.when === 'at rest' ? `at rest (${REST_SECONDS} s without requests)` : m.when}, ${n(m.artists)} artists`;
    const line = (what: string, kb: number) =>
      `| ${what} | ${mb(m.baselineKb)} | ${mb(kb)} | ${times(kb / m.baselineKb)} RSS |`;
    lines.push(line(label, m.gatewayKb));
    if (m.floorKb !== undefined)
      lines.push(line(`${label}: the node:http floor in place of yangkit, the same requests`, m.floorKb));
  }
  const cost = (c: ProcessCost) => `${c.seconds.toFixed(1)} s, ${mb(c.peakKb)}`;
  const convertRow = (direction: string, { cli, yanglint }: ConvertCost) => {
    const ratio =
      yanglint === undefined
        ? '-'
        : `${times(cli.seconds / yanglint.seconds)} time, ${times(cli.peakKb / yanglint.peakKb)} memory`;
    lines.push(
      `| \`yang-convert\` ${direction}, ${n(INTERFACES)} ietf-interfaces (CLI, whole process) | ${yanglint === undefined ? 'yanglint not installed' : `yanglint ${cost(yanglint)}`} | ${cost(cli)} | ${ratio} |`,
    );
  };
  if (convert !== undefined) {
    convertRow('XML->JSON', convert.xmlToJson);
    convertRow('JSON->XML', convert.jsonToXml);
  }
  return lines.join('\n');
}

/** The command of this run, with the settings it changed and CLIXON_HOME when it found Clixon. */
function command(): string {
  const changed = Object.entries(settings)
    .filter(([name, value]) => value !== DEFAULTS[name as keyof typeof DEFAULTS])
    .map(([name, value]) => `${name}=${value}`);
  if (process.env.CLIXON_HOME && prefix !== undefined) changed.unshift('CLIXON_HOME=PREFIX');
  return `cd apps/restconf-gateway && ${[...changed, 'pnpm exec vitest bench --run bench/side-by-side.bench.ts'].join(' ')}`;
}

function setting(): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(', ');
  const short = Object.entries(settings).some(
    ([name, value]) => value !== DEFAULTS[name as keyof typeof DEFAULTS],
  );
  return [
    `\`${command()}\``,
    `(${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} vCPUs,`,
    `load average ${load(loadAtStart)} at the start and ${load(loadavg())} at the end): wrk -t1 -c${CONNECTIONS},`,
    `best of ${ROUNDS} runs of ${SECONDS} s (unless noted), baseline and gateway in turn, JSON.`,
    ...(short ? ['A shorter run than the defaults, for its shape rather than its figures.'] : []),
  ].join(' ');
}

const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

const skipped = wrkAvailable ? '' : ' (skipped: wrk is not installed, apt-get install wrk)';

describe.skipIf(!wrkAvailable)(`restconf-gateway beside ${baselineName}${skipped}`, () => {
  // An async function: tinybench calls any other function once more to learn whether it is async.
  for (const artists of SIZES)
    bench(
      `${n(artists)} artists`,
      async () => {
        await measureSize(artists);
      },
      once,
    );
});

describe.skipIf(!gnuTimeAvailable)('yang-convert beside yanglint', () => {
  bench(
    `XML -> JSON -> XML, ${n(INTERFACES)} interfaces`,
    async () => {
      convert = measureConvert(INTERFACES, ROUNDS);
    },
    once,
  );
});

afterAll(() => {
  if (!wrkAvailable)
    console.warn('The servers were not measured: wrk is not installed (apt-get install wrk).');
  else if (prefix === undefined)
    console.warn(
      'No Clixon found (CLIXON_HOME, or clixon_backend on the PATH): the servers are measured beside the node:http floor.',
    );
  if (!gnuTimeAvailable)
    console.warn('yang-convert was not measured: GNU time (/usr/bin/time) is not installed.');
  else if (!yanglintAvailable)
    console.warn('yanglint is not installed (apt-get install libyang2-tools): yang-convert alone.');
  const text = `${setting()}\n\n${table()}`;
  console.log(`\n${text}\n`);
  if (updateFigures && rows.length > 0 && convert !== undefined) writeReadmeFigures('side-by-side', text);
});
