import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { DATA_JSON, startServer } from './harness.js';
import { type GatewayProcess, spawnGateway } from './process.js';

// Issue 12, faults: the gateway killed with SIGKILL during a stream of acknowledged edits to the
// embedded backend keeps every acknowledged edit (the startup journal is fsynced before the
// reply), SIGTERM stops it gracefully, and a confirmed commit nobody confirms is rolled back.
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const KILL_AFTER = Number(process.env.KILL_AFTER ?? 150);
const IN_FLIGHT = 4;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yangkit-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** POSTs artists `${prefix}-0`, `${prefix}-1`, ... with `IN_FLIGHT` requests open until `stop` says so. */
async function editStream(g: GatewayProcess, prefix: string, stop: (acked: number) => boolean) {
  const acked: string[] = [];
  let sent = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (!stop(acked.length)) {
      const name = `${prefix}-${sent++}`;
      try {
        const r = await fetch(g.url + LIBRARY, {
          method: 'POST',
          headers: { 'Content-Type': DATA_JSON },
          body: JSON.stringify({ 'example-jukebox:artist': [{ name }] }),
        });
        await r.arrayBuffer();
        if (r.status === 201) acked.push(name);
        else failed++;
      } catch {
        // The connection died with the process: not acknowledged.
        failed++;
        return;
      }
    }
  };
  return {
    run: Promise.all(Array.from({ length: IN_FLIGHT }, worker)),
    acked,
    sent: () => sent,
    failed: () => failed,
  };
}

/** The artist names in running, read over RESTCONF. */
async function artists(g: GatewayProcess): Promise<Set<string>> {
  const r = await fetch(`${g.url}${LIBRARY}?depth=3`, { headers: { Accept: DATA_JSON } });
  expect(r.status).toBe(200);
  const body = (await r.json()) as { 'example-jukebox:library': { artist?: { name: string }[] } };
  return new Set((body['example-jukebox:library'].artist ?? []).map((a) => a.name));
}

describe('faults', () => {
  test('every edit acknowledged before SIGKILL is present after the restart', async () => {
    const startup = path.join(dir, 'startup.json');
    const first = await spawnGateway([`--startup-file=${startup}`, '--log-level=info']);
    let killed = false;
    const stream = await editStream(first, 'kill', (n) => {
      if (n >= KILL_AFTER && !killed) {
        killed = true;
        // Killed with requests still in flight: some edits are sent but never acknowledged.
        first.child.kill('SIGKILL');
      }
      return killed;
    });
    await stream.run;
    expect(await first.exited).toBe('SIGKILL');

    const second = await spawnGateway([`--startup-file=${startup}`, '--log-level=info']);
    try {
      const present = await artists(second);
      const lost = stream.acked.filter((name) => !present.has(name));
      if (updateFigures) {
        writeFigures(
          'sigkill',
          [
            '### SIGKILL during a stream of acknowledged edits (embedded backend, `--startup-file`)',
            '',
            `${IN_FLIGHT} requests in flight; the gateway process is killed once ${KILL_AFTER} edits are acknowledged, then restarted on the same file.`,
            '',
            '| edits sent | acknowledged (201) | not acknowledged | acknowledged and present after restart | acknowledged but lost |',
            '| ---: | ---: | ---: | ---: | ---: |',
            `| ${stream.sent()} | ${stream.acked.length} | ${stream.sent() - stream.acked.length} | ${stream.acked.length - lost.length} | ${lost.length} |`,
          ].join('\n'),
        );
      }
      expect(stream.acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(lost).toEqual([]);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  });

  test('SIGTERM ends an open event stream and the process exits with code 0', async () => {
    const g = await spawnGateway(['--log-level=info']);
    const streams = await fetch(`${g.url}/restconf/data/ietf-restconf-monitoring:restconf-state/streams`, {
      headers: { Accept: DATA_JSON },
    });
    const body = (await streams.json()) as Record<string, { stream: { access: { location: string }[] }[] }>;
    const location = Object.values(body)[0]?.stream[0]?.access[0]?.location;
    expect(location).toBeDefined();
    const sse = await fetch(location!, { headers: { Accept: 'text/event-stream' } });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    g.child.kill('SIGTERM');
    // Drains whatever was sent; the stream must end (done) or be cut, never stay open.
    const ended = (async () => {
      for (;;) {
        try {
          if ((await reader.read()).done) return 'done';
        } catch {
          return 'cut';
        }
      }
    })();
    expect(['done', 'cut']).toContain(await ended);
    expect(await g.exited).toBe(0);
    expect(g.stderr()).toContain('SIGTERM: stopping');
  });
});

describe('confirmed commit', () => {
  const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
  const TIMEOUT_S = 3;
  const readGap = async (get: (p: string, i?: RequestInit) => Promise<Response>) =>
    (
      (await (await get(GAP, { headers: { Accept: DATA_JSON } })).json()) as { 'example-jukebox:gap': string }
    )['example-jukebox:gap'];

  test('an edit with confirmed=1 that is never confirmed is rolled back after confirm-timeout', async () => {
    const s = await startServer();
    try {
      const before = await readGap(s.fetch);
      const r = await s.fetch(`${GAP}?confirmed=1&confirm-timeout=${TIMEOUT_S}&persist=faults`, {
        method: 'PUT',
        headers: { 'Content-Type': DATA_JSON },
        body: JSON.stringify({ 'example-jukebox:gap': '1.3' }),
      });
      expect(r.status).toBe(204);
      const applied = performance.now();
      expect(await readGap(s.fetch)).toBe('1.3');
      // Bounded polling: the rollback is due after TIMEOUT_S seconds; the bound only stops a hang.
      await expect
        .poll(() => readGap(s.fetch), { timeout: TIMEOUT_S * 1000 + 10_000, interval: 50 })
        .toBe(before);
      const rolledBackMs = performance.now() - applied;
      if (updateFigures) {
        writeFigures(
          'confirmed-commit',
          [
            '### Confirmed commit never confirmed (embedded backend, over HTTP)',
            '',
            '| confirm-timeout | value before | value of the confirmed PUT | value after the timeout | rolled back after (polled every 50 ms) |',
            '| ---: | ---: | ---: | ---: | ---: |',
            `| ${TIMEOUT_S} s | ${before} | 1.3 | ${await readGap(s.fetch)} | ${(rolledBackMs / 1000).toFixed(1)} s |`,
          ].join('\n'),
        );
      }
    } finally {
      await s.close();
    }
  });
});
