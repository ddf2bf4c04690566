/**
 * Round trips per second of a small <get> against yuma123 netconfd (start it with
 * test-suites/interop/netconfd/netconfd.sh and export its settings), four ways, plus python3-ncclient on the
 * same server in the same run as the baseline. Skipped when NETCONF_HOST is not set.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { bench, describe } from 'vitest';
import { connectSsh, type NetconfSession, SshConnection, type SshOptions } from '../src/index.js';

const env = process.env;
const enabled = Boolean(env.NETCONF_HOST);
if (!enabled)
  console.log(
    'roundtrip.bench: NETCONF_HOST not set, start test-suites/interop/netconfd/netconfd.sh first; skipping',
  );

const FILTER =
  '<modules-state xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-library"><module-set-id/></modules-state>';
const options = (): SshOptions => ({
  host: env.NETCONF_HOST ?? '127.0.0.1',
  port: Number(env.NETCONF_PORT ?? 830),
  username: env.NETCONF_USER ?? 'netconf',
  password: env.NETCONF_PASSWORD ?? 'netconf',
  hostKey: 'accept-any',
});

/** Round trips and time spent per task, measured inside the tasks, for the ratio table. */
const measured = new Map<string, { roundTrips: number; ms: number }>();
function timed(name: string, roundTripsPerCall: number, fn: () => Promise<unknown>) {
  return async () => {
    const start = performance.now();
    await fn();
    const entry = measured.get(name) ?? { roundTrips: 0, ms: 0 };
    entry.roundTrips += roundTripsPerCall;
    entry.ms += performance.now() - start;
    measured.set(name, entry);
  };
}

const BASELINE = 'python3-ncclient, one session';

interface Fixture {
  one: NetconfSession;
  connection: SshConnection;
  eight: NetconfSession[];
  python?: ChildProcessWithoutNullStreams;
  ask(): Promise<string>;
}

let fixture: Promise<Fixture> | undefined;
let current: Fixture | undefined;

/** Opens everything once, outside the measured calls (tinybench `setup` hook). */
function setup(): Promise<Fixture> {
  fixture ??= (async () => {
    const one = await connectSsh(options());
    const connection = await SshConnection.connect(options());
    const eight = await Promise.all(Array.from({ length: 8 }, () => connection.openSession()));
    const waiting: Array<(line: string) => void> = [];
    let python: ChildProcessWithoutNullStreams | undefined = spawn(
      '/usr/bin/python3',
      [path.resolve(__dirname, 'ncclient-loop.py')],
      { env: process.env },
    );
    python.on('error', () => waiting.shift()?.('exited'));
    python.on('exit', () => waiting.shift()?.('exited'));
    createInterface({ input: python.stdout }).on('line', (line) => waiting.shift()?.(line));
    const ask = () => new Promise<string>((resolve) => waiting.push(resolve));
    if ((await ask()) !== 'ready') {
      console.log('roundtrip.bench: python3-ncclient unavailable (apt-get install python3-ncclient)');
      python = undefined;
    }
    const ready: Fixture = {
      one,
      connection,
      eight,
      ...(python && { python }),
      ask: () => {
        const answer = ask();
        python?.stdin.write('get\n');
        return answer;
      },
    };
    current = ready;
    return ready;
  })();
  return fixture;
}

const TASKS = 4;

/** After the last task: the ratio table, then everything closed. */
async function report(): Promise<void> {
  if (measured.size < TASKS || !current) return;
  const base = measured.get(BASELINE);
  const baseRate = base ? (base.roundTrips / base.ms) * 1000 : undefined;
  console.table(
    [...measured].map(([task, m]) => {
      const rate = (m.roundTrips / m.ms) * 1000;
      return {
        task,
        'round trips/s': Math.round(rate),
        'vs ncclient': baseRate ? `${(rate / baseRate).toFixed(2)}x` : 'n/a',
      };
    }),
  );
  current.python?.stdin.end('quit\n');
  await current.one.close();
  await current.connection.close();
}

const hooks = (warmupIterations = 5) => ({
  time: 3000,
  warmupIterations,
  throws: true,
  setup: async () => {
    await setup();
  },
  teardown: async (_task: unknown, mode: 'warmup' | 'run') => {
    if (mode === 'run') await report();
  },
});

describe.runIf(enabled)('small <get> round trips', () => {
  bench(
    BASELINE,
    timed(BASELINE, 1, async () => {
      const f = current!;
      if (f.python) await f.ask();
    }),
    hooks(),
  );

  bench(
    'yangkit, one session',
    timed('yangkit, one session', 1, () => current!.one.get({ filter: FILTER })),
    hooks(),
  );

  bench(
    'yangkit, 8 sessions over one SSH connection (8 gets per call)',
    timed('yangkit, 8 sessions over one SSH connection', 8, () =>
      Promise.all(current!.eight.map((s) => s.get({ filter: FILTER }))),
    ),
    hooks(),
  );

  bench(
    'yangkit, new SSH connection per request',
    timed('yangkit, new SSH connection per request', 1, async () => {
      const s = await connectSsh(options());
      await s.get({ filter: FILTER });
      await s.close();
    }),
    hooks(1),
  );
});
