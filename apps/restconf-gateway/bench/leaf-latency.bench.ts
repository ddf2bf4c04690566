import { cpus, loadavg } from 'node:os';
import { afterAll, bench, describe } from 'vitest';
import { JSON_DATA, JUKEBOX, jukebox } from './jukebox.js';
import { type Started, startGatewayCommand, stopProcess } from './processes.js';
import { runWrk, type WrkRequest, type WrkResult, wrkAvailable } from './wrk.js';

/**
 * The latency of a small read while a very large one is written: the `restconf-gateway` command
 * (embedded backend) holds a jukebox of BENCH_LEAF_ARTISTS (100,000) artists, and wrk measures the
 * GET of one leaf (`-t1 -c1`, BENCH_SECONDS (8) s) alone, then while a second wrk (`-t1 -c1`)
 * GETs the whole jukebox in a loop. A response is written in chunks that yield to the event loop,
 * so the leaf's p99 during the loop stays near its p99 alone, whatever the size of the large answer.
 */

const DEFAULTS = { BENCH_SECONDS: '8', BENCH_LEAF_ARTISTS: '100000' };
const settings = Object.fromEntries(
  Object.entries(DEFAULTS).map(([name, value]) => [name, process.env[name] || value]),
) as typeof DEFAULTS;
const SECONDS = Number(settings.BENCH_SECONDS);
const ARTISTS = Number(settings.BENCH_LEAF_ARTISTS);

const leaf: WrkRequest = { method: 'GET', path: `${JUKEBOX}/player/gap`, headers: { accept: JSON_DATA } };
const whole: WrkRequest = { method: 'GET', path: JUKEBOX, headers: { accept: JSON_DATA } };

interface Figures {
  readonly alone: WrkResult;
  readonly during: WrkResult;
  readonly large: WrkResult;
  readonly bytes: number;
}

let figures: Figures | undefined;
const loadAtStart = loadavg();

async function measure(): Promise<Figures> {
  const body = jukebox(ARTISTS);
  let gateway: Started | undefined;
  try {
    gateway = await startGatewayCommand([
      '--port=0',
      '--initial-data=',
      '--log-level=info',
      `--max-body-bytes=${body.length * 2}`,
      `--max-body-nodes=${ARTISTS * 10}`,
    ]);
    const url = gateway.url;
    const put = await fetch(url + JUKEBOX, {
      method: 'PUT',
      headers: { 'content-type': JSON_DATA },
      body,
    });
    if (put.status !== 201) throw new Error(`loading the jukebox failed: ${put.status} ${await put.text()}`);
    const bytes = (await (await fetch(url + JUKEBOX, { headers: { accept: JSON_DATA } })).arrayBuffer())
      .byteLength;
    await runWrk(url, leaf, 2, 1);
    const alone = await runWrk(url, leaf, SECONDS, 1);
    const [during, large] = await Promise.all([
      runWrk(url, leaf, SECONDS, 1),
      runWrk(url, whole, SECONDS, 1),
    ]);
    return { alone, during, large, bytes };
  } finally {
    if (gateway !== undefined) await stopProcess(gateway.child);
  }
}

const skipped = wrkAvailable ? '' : ' (skipped: wrk is not installed, apt-get install wrk)';

describe.skipIf(!wrkAvailable)(`a leaf GET beside a large GET in a loop${skipped}`, () => {
  bench(
    `${ARTISTS.toLocaleString('en-US')} artists`,
    async () => {
      figures = await measure();
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});

afterAll(() => {
  if (figures === undefined) return;
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(', ');
  const f = figures;
  const ms = (r: WrkResult) => `${r.p99Ms.toFixed(1)} ms`;
  console.log(
    [
      '',
      `BENCH_SECONDS=${SECONDS} BENCH_LEAF_ARTISTS=${ARTISTS} (Node ${process.version}, ${cpus().length} vCPUs, load average ${load(loadAtStart)} at the start and ${load(loadavg())} at the end), wrk -t1 -c1 each:`,
      '',
      '| work | req/s | p99 | failures |',
      '| --- | ---: | ---: | ---: |',
      `| GET one leaf, alone | ${f.alone.rps.toFixed(0)} | ${ms(f.alone)} | ${f.alone.failures} |`,
      `| GET one leaf, while the whole jukebox is read in a loop | ${f.during.rps.toFixed(0)} | ${ms(f.during)} | ${f.during.failures} |`,
      `| GET whole jukebox (${(f.bytes / 1e6).toFixed(1)} MB), in that loop | ${f.large.rps.toFixed(2)} | ${ms(f.large)} | ${f.large.failures} |`,
      '',
    ].join('\n'),
  );
});
