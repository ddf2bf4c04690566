import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { DATA_JSON } from './harness.js';
import { KillableNetconfServer } from './netconf-pair.js';
import { type GatewayProcess, spawnGateway } from './process.js';
import { openEventStream, readUntilEnd } from './sse.js';

// Issue 12, graceful shutdown: on SIGTERM or SIGINT the gateway stops accepting connections,
// lets the requests in progress finish, ends its event streams, ends its NETCONF sessions with
// <close-session>, and exits with code 0.
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** A liveness bound for every wait of this file, not a benchmark. */
const BOUND_MS = 15_000;

/** What one signal did to a gateway, for the figures. */
interface Shutdown {
  backend: 'embedded' | 'external';
  signal: string;
  /** The status of the request in progress at the signal. */
  inFlight?: number;
  refused?: boolean;
  streamEnded: boolean;
  exit: number | string;
  sessionsLeft?: number;
  dropped?: number;
}
const shutdowns: Shutdown[] = [];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yangkit-shutdown-'));
});
afterAll(() => {
  if (updateFigures && shutdowns.length === 2 * SIGNALS.length) recordFigures();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A PUT whose body is sent in two parts: `started` resolves once the gateway has the request (it
 * answered `100 Continue`), `finish()` sends the rest, `response` resolves with the status.
 */
function slowPut(url: string, name: string) {
  const body = JSON.stringify({ 'example-jukebox:artist': [{ name }] });
  const half = Math.floor(body.length / 2);
  const req = request(`${url}${LIBRARY}/artist=${encodeURIComponent(name)}`, {
    method: 'PUT',
    agent: false,
    headers: { 'Content-Type': DATA_JSON, 'Content-Length': body.length, Expect: '100-continue' },
  });
  const started = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const response = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  void started.then(() => req.write(body.slice(0, half)));
  return { started, response, finish: () => req.end(body.slice(half)) };
}

/** Resolves true once a new TCP connection to `url` is refused; false if none is within the bound. */
async function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + BOUND_MS;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe.each(SIGNALS)('%s with the embedded backend', (signal) => {
  const record: Shutdown = { backend: 'embedded', signal, streamEnded: false, exit: -1 };
  let startup: string;
  let g: GatewayProcess;
  let refused: boolean;
  let exitedEarly: boolean;
  let status: number;
  let stream: Awaited<ReturnType<typeof readUntilEnd>>;

  beforeAll(async () => {
    startup = path.join(dir, `${signal}.json`);
    g = await spawnGateway([`--startup-file=${startup}`, '--log-level=info']);
    const events = await openEventStream(g.url);
    const put = slowPut(g.url, `in-flight-${signal}`);
    await put.started;
    g.child.kill(signal);
    await g.waitForLog(new RegExp(`${signal}: stopping`));
    refused = await refusesConnections(g.url);
    // Still running: the request whose body is not complete holds the shutdown.
    exitedEarly = g.child.exitCode !== null;
    put.finish();
    status = await put.response;
    stream = await readUntilEnd(events, BOUND_MS);
    Object.assign(record, { inFlight: status, refused, streamEnded: stream.how === 'done' });
    shutdowns.push(record);
  });

  test('new connections are refused once the signal arrived', () => {
    expect(refused).toBe(true);
  });

  test('the process waits for the request in progress', () => {
    expect(exitedEarly).toBe(false);
  });

  test('the request in progress completes with 2xx', () => {
    expect(status).toBe(201);
  });

  test('the open event stream ends', () => {
    expect(stream.how).toBe('done');
  });

  test('the process exits with code 0', async () => {
    record.exit = await g.exited;
    expect(record.exit).toBe(0);
  });

  test('the edit of the request in progress is kept in the startup datastore', async () => {
    await g.exited;
    const again = await spawnGateway([`--startup-file=${startup}`, '--log-level=info']);
    try {
      const r = await fetch(`${again.url}${LIBRARY}/artist=in-flight-${signal}`, {
        headers: { Accept: DATA_JSON },
      });
      expect(r.status).toBe(200);
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });
});

describe.each(SIGNALS)('%s with an external NETCONF server', (signal) => {
  const record: Shutdown = { backend: 'external', signal, streamEnded: false, exit: -1 };
  let server: KillableNetconfServer;
  let before: { sessions: number; dropped: number };
  let getStatus: number;

  beforeAll(async () => {
    server = await KillableNetconfServer.start(mkdtempSync(path.join(dir, `${signal}-`)));
    const g = await server.gateway();
    // Sessions of every kind: an idle one after a GET, the change watcher, a live event feed.
    getStatus = (await fetch(`${g.url}${LIBRARY}`, { headers: { Accept: DATA_JSON } })).status;
    const events = await openEventStream(g.url);
    before = await server.monitoring();
    g.child.kill(signal);
    record.streamEnded = (await readUntilEnd(events, BOUND_MS)).how === 'done';
    record.exit = await g.exited;
    shutdowns.push(record);
  });
  afterAll(() => server.kill());

  test('the gateway had NETCONF sessions open on the server before the signal', () => {
    expect(getStatus).toBe(200);
    expect(before.sessions).toBeGreaterThanOrEqual(2);
  });

  test('the gateway ends the event stream and exits with code 0', () => {
    expect(record.streamEnded).toBe(true);
    expect(record.exit).toBe(0);
  });

  test("the server's session list no longer holds any session of the gateway", async () => {
    await expect
      .poll(async () => (await server.monitoring()).sessions, { timeout: BOUND_MS, interval: 50 })
      .toBe(0);
    record.sessionsLeft = 0;
  });

  test('every session ended with <close-session>: none counted as dropped (RFC 6022)', async () => {
    const after = await server.monitoring();
    record.dropped = after.dropped - before.dropped;
    expect(record.dropped).toBe(0);
  });
});

/** Writes the block of figures of this file into test-suites/README.md. */
function recordFigures(): void {
  const rows = shutdowns.map(
    (s) =>
      `| ${s.backend} | ${s.signal} | ${s.inFlight ?? '-'} | ${s.refused === undefined ? '-' : s.refused ? 'yes' : 'no'} | ${s.streamEnded ? 'yes' : 'no'} | ${s.exit} | ${s.sessionsLeft ?? '-'} | ${s.dropped ?? '-'} |`,
  );
  writeFigures(
    'shutdown',
    [
      '### Graceful shutdown on SIGTERM and SIGINT',
      '',
      'The gateway process gets the signal while a PUT is in progress (its body half sent) and an event stream is open; with an external NETCONF server the sessions it held are then read from that server.',
      '',
      '| backend | signal | request in progress answered | new connections refused | event stream ended | exit code | gateway sessions left on the NETCONF server | sessions dropped without close-session |',
      '| --- | --- | ---: | --- | --- | ---: | ---: | ---: |',
      ...rows,
    ].join('\n'),
  );
}
