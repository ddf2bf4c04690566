import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gatewayFigures } from '../test/gateway-check.js';
import { type Finding, keepInCorpus } from './findings.js';
import { type Job, type Progress, TARGET_NAMES, type WorkerMessage } from './protocol.js';
import { type RunFigures, type TargetFigures, writeRunReport } from './report.js';

// `pnpm fuzz`: every parser in process and the running gateway over HTTP/1.1 and HTTP/2, on
// worker threads, for a time or a number of inputs per target. Findings become corpus files
// that the normal test run replays; the figures go into test-suites/README.md.
const USAGE = `usage: pnpm fuzz [--time=SECONDS | --count=INPUTS_PER_TARGET] [--workers=N] [--targets=a,b] [--seed=N] [--no-report]
targets: ${TARGET_NAMES.join(', ')}`;

const { values } = parseArgs({
  options: {
    time: { type: 'string' },
    count: { type: 'string' },
    workers: { type: 'string' },
    targets: { type: 'string' },
    seed: { type: 'string' },
    'no-report': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const targets = values.targets?.split(',') ?? [...TARGET_NAMES];
for (const t of targets) {
  if (!TARGET_NAMES.includes(t)) {
    process.stderr.write(`unknown target ${t}\n${USAGE}\n`);
    process.exit(2);
  }
}
const workers = Number(values.workers ?? availableParallelism());
const count = values.count === undefined ? undefined : Number(values.count);
const seconds =
  values.time === undefined ? (count === undefined ? 60 : Number.POSITIVE_INFINITY) : Number(values.time);
const baseSeed = Number(values.seed ?? Date.now() % 1_000_000_000);

/** A worker stuck this long inside one input is a hang (a gateway request has its own 5 s deadline). */
const STUCK_MS = 30_000;
/** Time a job may take to start (the TypeScript loader, the schema, a gateway) before its first input. */
const SETUP_MS = 300_000;
/** Longest slice of one target on one worker, so targets take turns on the workers. */
const SLICE_SECONDS = 60;

function plan(): Job[] {
  const jobs: Job[] = [];
  let seed = baseSeed;
  if (count !== undefined) {
    for (const target of targets) jobs.push({ target, seconds, maxInputs: count, seed: (seed += 1_000_000) });
    return jobs;
  }
  // Each target gets an equal share of the worker time, in slices that alternate between targets.
  const share = (seconds * workers) / targets.length;
  const slices = Math.max(1, Math.ceil(share / SLICE_SECONDS));
  for (let i = 0; i < slices; i++) {
    for (const target of targets) {
      jobs.push({
        target,
        seconds: share / slices,
        maxInputs: Number.POSITIVE_INFINITY,
        seed: (seed += 1_000_000),
      });
    }
  }
  return jobs;
}

const figures = new Map<string, TargetFigures>(
  targets.map((t) => [t, { tried: 0, refused: 0, slowestMs: 0, findings: new Map() }]),
);
const started = Date.now();

function add(target: string, p: Progress): void {
  const f = figures.get(target)!;
  f.tried += p.tried;
  f.refused += p.refused;
  f.slowestMs = Math.max(f.slowestMs, p.slowestMs);
  if (p.gateway !== undefined) {
    const g = (f.gateway ??= gatewayFigures());
    for (const k of Object.keys(g) as (keyof typeof g)[]) {
      g[k] = k === 'slowestMs' ? Math.max(g[k], p.gateway[k]) : g[k] + p.gateway[k];
    }
  }
}

function record(finding: Finding): void {
  const f = figures.get(finding.target)!;
  const key = `${finding.kind} ${finding.signature}`;
  const known = f.findings.get(key);
  if (known !== undefined) {
    known.count++;
    return;
  }
  // A rejected request that changed the datastore is a finding of the report, not a crash to
  // replay; a job that failed outside any input has no input to keep.
  const file =
    finding.kind === 'datastore-changed' || finding.input === null ? undefined : keepInCorpus(finding);
  f.findings.set(key, { finding, count: 1, file });
  process.stdout.write(
    `${finding.target}: ${finding.kind}: ${finding.detail.slice(0, 200)}${file ? ` -> ${file}` : ''}\n`,
  );
}

/** Runs `jobs` on `workers` threads, each taking the next job when done; resolves when all are. */
function runAll(jobs: Job[], deadline: number): Promise<void> {
  return new Promise((resolve) => {
    let running = 0;
    const startWorker = (): void => {
      running++;
      const heartbeat = new SharedArrayBuffer(4);
      const current = new SharedArrayBuffer(1 << 20);
      const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
        workerData: { heartbeat, current },
        resourceLimits: { maxOldGenerationSizeMb: 3072 },
      });
      let job: Job | undefined;
      let live: Progress = { tried: 0, refused: 0, slowestMs: 0 };
      let beats = 0;
      let beatsAtStart = 0;
      let lastBeat = Date.now();
      const next = (): void => {
        job = jobs.shift();
        if (job !== undefined && Date.now() < deadline) {
          // The slice ends at the deadline of the run at the latest.
          job = { ...job, seconds: Math.min(job.seconds, (deadline - Date.now()) / 1000) };
          live = { tried: 0, refused: 0, slowestMs: 0 };
          beats = Atomics.load(new Int32Array(heartbeat), 0);
          beatsAtStart = beats;
          lastBeat = Date.now();
          worker.postMessage(job);
          return;
        }
        stop();
      };
      const stop = (): void => {
        clearInterval(watchdog);
        void worker.terminate();
        running--;
        if (running === 0) resolve();
      };
      /** Counts what the worker did in its job and drops the worker for a new one. */
      const replace = (): void => {
        if (job !== undefined) add(job.target, live);
        job = undefined;
        stop();
        if (jobs.length > 0 && Date.now() < deadline) startWorker();
      };
      const inputNow = (): unknown => {
        const length = new DataView(current).getUint32(0);
        try {
          return JSON.parse(new TextDecoder().decode(new Uint8Array(current, 4, length)));
        } catch {
          return null;
        }
      };
      const watchdog = setInterval(() => {
        const now = Atomics.load(new Int32Array(heartbeat), 0);
        if (now !== beats) {
          beats = now;
          lastBeat = Date.now();
        } else if (
          job !== undefined &&
          Date.now() - lastBeat > (beats === beatsAtStart ? SETUP_MS : STUCK_MS)
        ) {
          record({
            target: job.target,
            kind: 'hang',
            signature: 'stuck',
            detail:
              beats === beatsAtStart
                ? `the job did not start within ${SETUP_MS / 1000} s`
                : `no progress within ${STUCK_MS / 1000} s on one input`,
            input: inputNow(),
          });
          replace();
        }
      }, 1000);
      worker.on('message', (m: WorkerMessage) => {
        if (job === undefined) return;
        if (m.type === 'progress') live = m.progress;
        else if (m.type === 'finding') record(m.finding);
        else {
          add(job.target, m.progress);
          next();
        }
      });
      worker.on('error', (error) => {
        // Out of memory, or an error outside any input: a crash of the target with the input in hand.
        if (job === undefined) return;
        record({
          target: job.target,
          kind: 'crash',
          signature: `worker: ${error.name} ${(error as NodeJS.ErrnoException).code ?? ''}`,
          detail: error.message,
          input: inputNow(),
        });
        replace();
      });
      next();
    };
    const n = Math.min(workers, jobs.length);
    if (n === 0) resolve();
    for (let i = 0; i < n; i++) startWorker();
  });
}

const ticker = setInterval(() => {
  const total = [...figures.values()].reduce((n, f) => n + f.tried, 0);
  process.stdout.write(
    `${Math.round((Date.now() - started) / 1000)} s: ${total} inputs done in finished slices\n`,
  );
}, 30_000);
ticker.unref();

process.stdout.write(
  `fuzzing ${targets.join(', ')} with ${workers} workers, ${count === undefined ? `${seconds} s` : `${count} inputs per target`}, seed ${baseSeed}\n`,
);
await runAll(plan(), started + seconds * 1000);
clearInterval(ticker);
const run: RunFigures = {
  seconds: Math.round((Date.now() - started) / 1000),
  workers,
  seed: baseSeed,
  budget: count === undefined ? `--time=${seconds}` : `--count=${count}`,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  targets: figures,
};
if (!values['no-report']) writeRunReport(run);
const failed = [...figures.values()].some((f) =>
  [...f.findings.values()].some((x) => x.finding.kind !== 'datastore-changed'),
);
for (const [name, f] of figures) {
  process.stdout.write(
    `${name}: ${f.tried} inputs, ${f.refused} refused, ${f.findings.size} findings, slowest ${f.slowestMs} ms\n`,
  );
}
const total = [...figures.values()].reduce((n, f) => n + f.tried, 0);
process.stdout.write(`${total} inputs in ${run.seconds} s, peak RSS ${run.peakRssMb} MB\n`);
process.exit(failed ? 1 : 0);
