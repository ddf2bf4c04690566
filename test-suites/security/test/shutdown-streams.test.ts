import { type ClientRequest, get } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { type GatewayProcess, spawnGateway } from './process.js';

// SIGTERM after many event streams: each replay stream (start-time) holds a NETCONF session of
// its own, and every session that ended sent netconf-session-end to all the others, so ending N
// streams cost N² notifications (1,000 open streams took 111 s to stop on 2 busy cores). The
// gateway README promises an exit within 10 s of waiting for requests in progress.
const REPLAY = '/restconf/streams/xml-NETCONF?start-time=2000-01-01T00:00:00Z';
const LIVE = '/restconf/streams/json-NETCONF';
const KEPT = 300;
const DROPPED = 200;
/** The wait the gateway README documents for requests in progress; the exit must come within it. */
const DOCUMENTED_MS = 10_000;

let g: GatewayProcess;
const open: ClientRequest[] = [];
let exit: number | string = -1;
let exitMs = Number.POSITIVE_INFINITY;

/** Opens an event stream; resolves once its head arrived, with the request (its body read and dropped). */
function stream(path: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = get(`${g.url}${path}`, { headers: { Accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
      res.resume();
      resolve(req);
    });
    req.on('error', () => undefined);
  });
}

beforeAll(async () => {
  g = await spawnGateway([`--max-requests-per-client=${KEPT + DROPPED + 10}`]);
  for (let i = 0; i < DROPPED; i++) (await stream(i % 2 === 0 ? REPLAY : LIVE)).destroy();
  for (let i = 0; i < KEPT; i += 50) {
    open.push(...(await Promise.all(Array.from({ length: 50 }, () => stream(REPLAY)))));
  }
  const signalled = performance.now();
  g.child.kill('SIGTERM');
  exit = await Promise.race([
    g.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 6 * DOCUMENTED_MS)),
  ]);
  exitMs = Math.round(performance.now() - signalled);
}, 600_000);

afterAll(() => {
  for (const req of open) req.destroy();
  if (exit === 'still running') g.child.kill('SIGKILL');
  if (updateFigures) {
    writeFigures(
      'shutdown-streams',
      [
        '### SIGTERM with many event streams (embedded backend)',
        '',
        `${DROPPED} event streams opened and dropped (half of them replays from \`start-time\`), then ${KEPT} replay streams open and read when the signal comes.`,
        '',
        '| streams dropped | streams open at the signal | exit code | time to exit |',
        '| ---: | ---: | ---: | ---: |',
        `| ${DROPPED} | ${KEPT} | ${exit} | ${exitMs} ms |`,
      ].join('\n'),
    );
  }
});

describe('SIGTERM after many event streams', () => {
  test('the gateway exits with code 0', () => {
    expect(exit).toBe(0);
  });

  test('the exit comes within the 10 s the README documents', () => {
    expect(exitMs).toBeLessThan(DOCUMENTED_MS);
  });
});
