import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { DATA_JSON, errorsBody, PATCH_JSON, patchStatusErrors } from './harness.js';
import { KillableNetconfServer } from './netconf-pair.js';
import type { GatewayProcess } from './process.js';
import { openEventStream, readUntilEnd, type StreamEnd } from './sse.js';

// Issue 12, faults of the backend: the NETCONF server behind a gateway (`--netconf ssh://...`),
// a process of its own, is SIGKILLed while GETs, PUTs and YANG Patches are in flight and an
// event stream is open, then started again on the same port and datastore. The gateway must
// answer every request (503 or 504 with an errors body, never a 500 or a hang), end the stream,
// stay up, and serve again without a restart of its own.
const KILLS = Number(process.env.BACKEND_KILLS ?? 2);
const KILL_AFTER = Number(process.env.BACKEND_KILL_AFTER ?? 20);
/** Requests each worker sends once the server is down, before the restart. */
const WHILE_DOWN = 2;
/** A liveness bound, not a benchmark: no answer may take this long. */
const BOUND_MS = 15_000;
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const KINDS = ['GET', 'PUT', 'YANG Patch'] as const;
/** The error-message of a request whose NETCONF session was lost while it ran. */
const UNKNOWN_OUTCOME = /may or may not have been applied/;
const WORKERS_PER_KIND = 2;

type Phase = 'before' | 'in flight' | 'while down';

/** One request of the load and what became of it. */
interface Outcome {
  readonly kind: (typeof KINDS)[number];
  /** The artist an edit creates. */
  readonly name?: string;
  phase: Phase;
  /** The HTTP status, or `hang` when nothing came within the bound, `reset` when the connection died. */
  status: number | 'hang' | 'reset';
  /** The error-message of an errors body, when there was one. */
  message?: string;
  ms: number;
}

/** What one SIGKILL of the NETCONF server did. */
interface Cycle {
  readonly outcomes: Outcome[];
  inFlightAtKill: number;
  stream: StreamEnd;
  /** Status of the first request sent once the server was back. */
  firstAfterRestart: number;
  /** Artist names in running after the restart. */
  present: Set<string>;
}

let dir: string;
let server: KillableNetconfServer;
let gateway: GatewayProcess;
const cycles: Cycle[] = [];

function request(kind: Outcome['kind'], name: string): { path: string; init: RequestInit } {
  if (kind === 'GET') {
    return { path: `${LIBRARY}/artist=Foo%20Fighters`, init: { headers: { Accept: DATA_JSON } } };
  }
  if (kind === 'PUT') {
    return {
      path: `${LIBRARY}/artist=${encodeURIComponent(name)}`,
      init: {
        method: 'PUT',
        headers: { 'Content-Type': DATA_JSON },
        body: JSON.stringify({ 'example-jukebox:artist': [{ name }] }),
      },
    };
  }
  // RFC 8072 section 2.5: a YANG Patch creating one artist.
  const patch = {
    'ietf-yang-patch:yang-patch': {
      'patch-id': name,
      edit: [
        {
          'edit-id': 'e1',
          operation: 'create',
          target: `/artist=${name}`,
          value: { 'example-jukebox:artist': [{ name }] },
        },
      ],
    },
  };
  return {
    path: LIBRARY,
    init: { method: 'PATCH', headers: { 'Content-Type': PATCH_JSON }, body: JSON.stringify(patch) },
  };
}

/**
 * The first error-message of an `ietf-restconf:errors` body, or of the errors of a
 * `yang-patch-status` (RFC 8072 section 2.3: a failed YANG Patch reports its errors there).
 */
function errorMessage(text: string, contentType: string | null): string | undefined {
  type Errors = { error?: { 'error-message'?: string }[] };
  const errors = (errorsBody(text, contentType) ?? patchStatusErrors(text, contentType)) as
    | Errors
    | undefined;
  return errors?.error?.[0]?.['error-message'];
}

/** Sends one request; never throws, never waits past the bound. */
async function send(kind: Outcome['kind'], name: string, phase: () => Phase): Promise<Outcome> {
  const { path: target, init } = request(kind, name);
  const started = performance.now();
  const outcome: Outcome = { kind, phase: phase(), status: 'hang', ms: 0 };
  if (kind !== 'GET') Object.assign(outcome, { name });
  try {
    const r = await fetch(gateway.url + target, { ...init, signal: AbortSignal.timeout(BOUND_MS) });
    const text = await r.text();
    outcome.status = r.status;
    if (r.status >= 300) {
      const message = errorMessage(text, r.headers.get('content-type'));
      if (message !== undefined) outcome.message = message;
    }
  } catch (error) {
    outcome.status = (error as Error).name === 'TimeoutError' ? 'hang' : 'reset';
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

/** One SIGKILL of the NETCONF server under load and an open stream, then its restart. */
async function killCycle(k: number): Promise<Cycle> {
  const stream = await openEventStream(gateway.url);
  const outcomes: Outcome[] = [];
  let phase: Phase = 'before';
  let acked = 0;
  let open = 0;
  let inFlightAtKill = 0;
  let killing: Promise<void> | undefined;
  const worker = async (kind: Outcome['kind'], w: number): Promise<void> => {
    let down = 0;
    for (let i = 0; down < WHILE_DOWN; i++) {
      if (killing === undefined && acked >= KILL_AFTER) {
        inFlightAtKill = open;
        phase = 'in flight';
        killing = server.kill().then(() => {
          phase = 'while down';
        });
      }
      if (phase === 'in flight') await killing;
      const name = `k${k}-${kind === 'PUT' ? 'put' : 'patch'}-${w}-${i}`;
      open++;
      const outcome = await send(kind, name, () => phase);
      open--;
      // A request sent before the kill but answered after it was in flight at the kill.
      if (outcome.phase === 'before' && phase !== 'before') outcome.phase = 'in flight';
      outcomes.push(outcome);
      if (kind !== 'GET' && typeof outcome.status === 'number' && outcome.status < 300) acked++;
      if (outcome.phase === 'while down') down++;
    }
  };
  const workers: Promise<void>[] = [];
  for (const kind of KINDS) for (let w = 0; w < WORKERS_PER_KIND; w++) workers.push(worker(kind, w));
  await Promise.all(workers);
  const end = await readUntilEnd(stream, BOUND_MS);
  await server.restart();
  const first = await send('GET', '', () => 'before');
  const present = await artists();
  return {
    outcomes,
    inFlightAtKill,
    stream: end,
    firstAfterRestart: typeof first.status === 'number' ? first.status : 0,
    present,
  };
}

/** The artist names in running, read through the gateway. */
async function artists(): Promise<Set<string>> {
  const r = await fetch(`${gateway.url}${LIBRARY}?depth=3`, {
    headers: { Accept: DATA_JSON },
    signal: AbortSignal.timeout(BOUND_MS),
  });
  if (r.status !== 200) throw new Error(`reading the library after the restart: ${r.status}`);
  const body = (await r.json()) as { 'example-jukebox:library': { artist?: { name: string }[] } };
  return new Set((body['example-jukebox:library'].artist ?? []).map((a) => a.name));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'yangkit-backend-faults-'));
  server = await KillableNetconfServer.start(dir);
  gateway = await server.gateway();
  try {
    for (let k = 0; k < KILLS; k++) cycles.push(await killCycle(k));
  } catch (error) {
    // A gateway that died (it must not) says why on stderr.
    const died = gateway.child.exitCode !== null || gateway.child.signalCode !== null;
    if (!died) throw error;
    throw new Error(`the gateway process ended during the kills: ${gateway.stderr().slice(-4000)}`, {
      cause: error,
    });
  }
}, 180_000);

afterAll(async () => {
  if (updateFigures && cycles.length === KILLS) recordFigures();
  gateway?.child.kill('SIGKILL');
  await gateway?.exited;
  await server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const all = (phase?: Phase): Outcome[] =>
  cycles.flatMap((c) => c.outcomes.filter((o) => phase === undefined || o.phase === phase));
const edits = (o: Outcome): boolean => o.kind !== 'GET';
const ok = (o: Outcome): boolean => typeof o.status === 'number' && o.status < 300;
const unavailable = (o: Outcome): boolean => o.status === 503 || o.status === 504;

describe('the NETCONF server SIGKILLed under load', () => {
  test('every load request got an answer within the bound: no hang, no reset connection', () => {
    expect(all().filter((o) => typeof o.status !== 'number')).toEqual([]);
    expect(Math.max(...all().map((o) => o.ms))).toBeLessThan(BOUND_MS);
  });

  test('no request was answered with 500 or any status but 2xx, 503 or 504', () => {
    expect(all().filter((o) => !ok(o) && !unavailable(o))).toEqual([]);
  });

  test('requests in flight at the kill got 2xx (done before it) or 503/504', () => {
    expect(all('in flight').length).toBeGreaterThan(0);
    expect(all('in flight').filter((o) => !ok(o) && !unavailable(o))).toEqual([]);
  });

  test('requests sent while the server is down get 503 or 504', () => {
    expect(all('while down').length).toBe(KILLS * KINDS.length * WORKERS_PER_KIND * WHILE_DOWN);
    expect(all('while down').filter((o) => !unavailable(o))).toEqual([]);
  });

  test('every 503 or 504 carries an errors body (a yang-patch-status for a YANG Patch) naming the NETCONF backend', () => {
    const failed = all().filter(unavailable);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((o) => !/NETCONF/.test(o.message ?? ''))).toEqual([]);
  });

  test('an event stream open at the kill ends cleanly within the bound', () => {
    expect(cycles.map((c) => c.stream.how)).toEqual(cycles.map(() => 'done'));
  });

  test('the gateway process stays up through every kill', () => {
    expect(gateway.child.exitCode).toBeNull();
    expect(gateway.child.signalCode).toBeNull();
  });

  test('the first request after the server restarts succeeds, without restarting the gateway', () => {
    expect(cycles.map((c) => c.firstAfterRestart)).toEqual(cycles.map(() => 200));
  });

  test('every edit answered 2xx is present after the restart', () => {
    const lost = cycles.flatMap((c) =>
      c.outcomes.filter((o) => edits(o) && ok(o) && !c.present.has(o.name!)),
    );
    expect(all().filter((o) => edits(o) && ok(o)).length).toBeGreaterThanOrEqual(KILLS * KILL_AFTER);
    expect(lost).toEqual([]);
  });

  test('an edit whose outcome is unknown is reported as 503, and none sent while down took effect', () => {
    expect(all('in flight').filter((o) => edits(o) && !ok(o) && o.status !== 503)).toEqual([]);
    // An edit applied although answered 503 was lost with the session it ran on: the answer says so.
    const appliedAnyway = cycles.flatMap((c) =>
      c.outcomes.filter((o) => edits(o) && unavailable(o) && c.present.has(o.name!)),
    );
    expect(appliedAnyway.filter((o) => !UNKNOWN_OUTCOME.test(o.message ?? ''))).toEqual([]);
    const applied = cycles.flatMap((c) =>
      c.outcomes.filter((o) => o.phase === 'while down' && edits(o) && c.present.has(o.name!)),
    );
    expect(applied).toEqual([]);
  });

  test('an event stream opens again after the restart', async () => {
    const stream = await openEventStream(gateway.url);
    await stream.reader.cancel();
  });
});

/** Writes the block of figures of this file into test-suites/README.md. */
function recordFigures(): void {
  const inFlight = all('in flight');
  const answeredAfterKill = [...inFlight, ...all('while down')];
  const unknown = cycles.flatMap((c) =>
    c.outcomes.filter((o) => o.phase === 'in flight' && edits(o) && unavailable(o)),
  );
  const unknownApplied = cycles.flatMap((c) =>
    c.outcomes.filter((o) => o.phase === 'in flight' && edits(o) && unavailable(o) && c.present.has(o.name!)),
  );
  const acked = cycles.flatMap((c) => c.outcomes.filter((o) => edits(o) && ok(o)));
  const ackedPresent = cycles.flatMap((c) =>
    c.outcomes.filter((o) => edits(o) && ok(o) && c.present.has(o.name!)),
  );
  const slowest = Math.max(...answeredAfterKill.map((o) => o.ms));
  writeFigures(
    'backend-sigkill',
    [
      '### SIGKILL of the external NETCONF server (`--netconf ssh://...`)',
      '',
      `The NETCONF server (a separate process: @yangkit/netconf-server over SSH with a startup file) is killed ${KILLS} times, each time once ${KILL_AFTER} edits are acknowledged, with ${KINDS.length * WORKERS_PER_KIND} clients sending GETs, PUTs and YANG Patches through the gateway and one event stream open; each client then sends ${WHILE_DOWN} requests while it is down, and the server is restarted on the same port, host key and datastore.`,
      '',
      '| faults injected | requests in flight at the kill | answered after the kill | 2xx (done before the kill) | 503/504 with an errors body | 500 or other | hang | slowest answer after the kill | event streams ended cleanly | first request after restart succeeded |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| ${KILLS} | ${cycles.reduce((n, c) => n + c.inFlightAtKill, 0)} | ${answeredAfterKill.length} | ${answeredAfterKill.filter(ok).length} | ${answeredAfterKill.filter((o) => unavailable(o) && o.message !== undefined).length} | ${all().filter((o) => typeof o.status === 'number' && !ok(o) && !unavailable(o)).length} | ${all().filter((o) => typeof o.status !== 'number').length} | ${Math.round(slowest)} ms | ${cycles.filter((c) => c.stream.how === 'done').length} of ${KILLS} | ${cycles.filter((c) => c.firstAfterRestart === 200).length} of ${KILLS} |`,
      '',
      '| edits acknowledged (2xx) | acknowledged and present after restart | edits in flight answered 503 | of which said "may or may not have been applied" | of which applied after all |',
      '| ---: | ---: | ---: | ---: | ---: |',
      `| ${acked.length} | ${ackedPresent.length} | ${unknown.length} | ${unknown.filter((o) => UNKNOWN_OUTCOME.test(o.message ?? '')).length} | ${unknownApplied.length} |`,
    ].join('\n'),
  );
}
