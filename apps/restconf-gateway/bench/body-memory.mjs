// What request bodies cost the gateway at their peak, and what the body admission bounds: spawns
// dist/cli.js (embedded backend, no authentication), PUTs the jukebox once so that the datastore
// already holds what the measured PUTs replace, then sends the same PUT once alone and N times at
// once, and reads the peak growth over the process before: of the live size in a process with
// live-peak.mjs preloaded (garbage collected every 10 ms: what the requests hold), and of the
// resident size in another without it (VmHWM after resetting it through /proc/PID/clear_refs:
// what the garbage collector let grow as well). Linux only, after `pnpm build`:
//   node bench/body-memory.mjs [N] [HEAP_MB]   (default 8 bodies at once; HEAP_MB gives the
//   gateway processes --max-old-space-size, and a case whose process runs out of heap says so)
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../dist/cli.js');
const SAMPLER = path.resolve(HERE, 'live-peak.mjs');
const N = Number(process.argv[2] ?? 8);
const HEAP_MB = process.argv[3];

/** Playlists with a description of `descriptionBytes` each: two data nodes and a leaf per entry. */
function jukebox(count, descriptionBytes) {
  const description = 'd'.repeat(descriptionBytes);
  const entries = Array.from({ length: count }, (_, i) =>
    descriptionBytes === 0 ? `{"name":"p${i}"}` : `{"name":"p${i}","description":"${description}"}`,
  );
  return `{"example-jukebox:jukebox":{"playlist":[${entries.join(',')}]}}`;
}

const SHAPES = [
  // 199,999 data nodes (the container, 99,999 entries and their keys): the node limit is 200,000.
  { name: '99,999 playlists (199,999 data nodes)', body: jukebox(99_999, 0) },
  // Near the 16 MiB body limit in long values: 1,000 entries of 16,000-byte descriptions.
  { name: '1,000 playlists with 16,000-byte descriptions', body: jukebox(1_000, 16_000) },
];

function start(args, sampled) {
  const node = [
    ...(HEAP_MB === undefined ? [] : [`--max-old-space-size=${HEAP_MB}`]),
    ...(sampled ? ['--expose-gc', '--import', SAMPLER] : []),
  ];
  const child = spawn(
    process.execPath,
    [...node, CLI, '--port=0', '--initial-data=', '--log-level=info', ...args],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  const livePeaks = [];
  const livePeak = () =>
    new Promise((resolve) => {
      livePeaks.push(resolve);
      child.kill('SIGUSR2');
    });
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      log += chunk;
      for (const m of chunk.matchAll(/live-peak-mb (\d+)/g)) livePeaks.shift()?.(Number(m[1]));
      const m = /serving RESTCONF at (http\S+?)\/restconf/.exec(log);
      if (m !== null) resolve({ child, url: m[1], livePeak });
    });
    child.once('exit', () => reject(new Error(`the gateway exited: ${log}`)));
  });
}

const status = (pid) => readFileSync(`/proc/${pid}/status`, 'utf8');
const mb = (pid, field) =>
  Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status(pid))[1]) / 1024);

async function put(url, body) {
  const r = await fetch(`${url}/restconf/data/example-jukebox:jukebox`, {
    method: 'PUT',
    headers: { 'content-type': 'application/yang-data+json' },
    body,
  });
  await r.arrayBuffer();
  return r.status;
}

/**
 * The peak growth in MB of the live size (`sampled`) or else the resident size of a gateway while
 * `run` runs, over the size before, and the answers.
 */
async function peakGrowth(gateway, sampled, run) {
  const pid = gateway.child.pid;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = sampled ? await gateway.livePeak() : mb(pid, 'VmRSS');
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const statuses = await run();
  const after = sampled ? await gateway.livePeak() : mb(pid, 'VmHWM');
  return { growth: after - before, statuses: [...new Set(statuses)].join('/') };
}

/** One body alone, then N at once, with `k` bodies decoding at once. */
async function measure(body, k, sampled) {
  const gateway = await start([`--max-bodies-decoding=${k}`, `--max-bodies-waiting=${N}`], sampled);
  await put(gateway.url, body);
  const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
  const alive = () => gateway.child.exitCode === null && gateway.child.signalCode === null;
  const ended = { growth: 'out of heap', statuses: 'reset' };
  const attempt = async (run) => {
    if (!alive()) return ended;
    try {
      return await peakGrowth(gateway, sampled, run);
    } catch (error) {
      // A request may fail before the exit of the process that failed it is seen.
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (alive()) throw error;
      return ended;
    }
  };
  try {
    const one = await attempt(async () => [await put(gateway.url, body)]);
    const many = await attempt(() => Promise.all(Array.from({ length: N }, () => put(gateway.url, body))));
    gateway.child.kill('SIGTERM');
    return { one, many };
  } finally {
    await exited;
  }
}

console.log(
  `| body | MB | --max-bodies-decoding | one body: live / resident | ${N} at once: live / resident | answers |`,
);
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
for (const shape of SHAPES) {
  for (const k of [2, N]) {
    const live = await measure(shape.body, k, true);
    const resident = await measure(shape.body, k, false);
    const mbOf = (m) => (typeof m.growth === 'number' ? `${m.growth} MB` : m.growth);
    const size = (Buffer.byteLength(shape.body) / 2 ** 20).toFixed(1);
    const answers = [live.one, live.many, resident.one, resident.many].map((m) => m.statuses);
    console.log(
      `| ${shape.name} | ${size} | ${k} | ${mbOf(live.one)} / ${mbOf(resident.one)} | ${mbOf(live.many)} / ${mbOf(resident.many)} | ${[...new Set(answers)].join(', ')} |`,
    );
  }
}
