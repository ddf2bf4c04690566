import { pino } from 'pino';
import { expect, test } from 'vitest';
import { startGateway } from '../src/gateway.js';

const JB = '/restconf/data/example-jukebox:jukebox';

/** The collections of `/server-status`: full ones, and those of the young generation. */
async function counted(url: string): Promise<{ full: number; young: number }> {
  const status = (await (await fetch(`${url}/server-status`)).json()) as {
    'request-bodies': { 'idle-collections': number; 'young-collections': number };
  };
  return {
    full: status['request-bodies']['idle-collections'],
    young: status['request-bodies']['young-collections'],
  };
}

/** `idle-collections` of `/server-status`. */
async function collections(url: string): Promise<number> {
  return (await counted(url)).full;
}

/** Waits for `ms` without a request to the gateway: reading its status would end the quiet time. */
const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PATCHes 6,000 playlists (about 140 KB, over the 64 KiB of a big body); resolves with the status. */
async function bigPatch(url: string): Promise<number> {
  const playlist = Array.from({ length: 6000 }, (_, i) => ({ name: `big-${i}` }));
  const r = await fetch(`${url}${JB}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/yang-data+json' },
    body: JSON.stringify({ 'example-jukebox:jukebox': { playlist } }),
  });
  return r.status;
}

/** The debug lines of a gateway's collection once quiet: each says that it ran, or why not. */
const ONCE_QUIET = /garbage collected once quiet|no collection once quiet/;

test('with --idle-collection=false no collection runs after a big body', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  const gw = await startGateway({ port: 0, serverStatus: true, idleCollection: false }, { logger });
  try {
    expect(await bigPatch(gw.url)).toBe(204);
    // The collection would run 2 s after the body; waited for well past that.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await collections(gw.url)).toBe(0);
    expect(lines.filter((line) => ONCE_QUIET.test(line))).toEqual([]);
  } finally {
    await gw.close();
  }
});

test('by default the collection once quiet weighs a big body: it runs, or says why not', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  const gw = await startGateway({ port: 0, serverStatus: true }, { logger });
  try {
    expect(await bigPatch(gw.url)).toBe(204);
    await quiet(3000);
    // What V8's own full collections left live while the body was read is weighed: in this process,
    // the test runner's heap with the gateway's, the pause may be over the budget (a gateway of its own,
    // about 20 MB live, collects in about 20 ms).
    const decided = lines.filter((line) => ONCE_QUIET.test(line));
    expect(decided).toHaveLength(1);
    const ran = decided[0]!.includes('garbage collected once quiet');
    expect(await collections(gw.url)).toBe(ran ? 1 : 0);
  } finally {
    await gw.close();
  }
});

test('after a busy period of small requests and 2 s of quiet, one collection runs and is counted', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  const gw = await startGateway({ port: 0, serverStatus: true }, { logger });
  try {
    for (let i = 0; i < 200; i++) expect((await fetch(`${gw.url}${JB}/player`)).status).toBe(200);
    expect(await collections(gw.url)).toBe(0);
    await quiet(3000);
    // The first after the start always runs: nothing is known yet of what is live. The young
    // generation is left as V8 sized it (shrunk, it made big reads promote their garbage).
    expect(await counted(gw.url)).toEqual({ full: 1, young: 0 });
    expect(
      lines.some((line) => /garbage collected once quiet in \d+ ms: heap \d+ MB -> \d+ MB/.test(line)),
    ).toBe(true);
    // Requests again, then quiet: the heap has not grown past what that one left live, so no pause.
    for (let i = 0; i < 20; i++) expect((await fetch(`${gw.url}${JB}/player`)).status).toBe(200);
    await quiet(12_500);
    expect((await counted(gw.url)).full).toBe(1);
    expect(lines.some((line) => line.includes('no collection once quiet: heap'))).toBe(true);
  } finally {
    await gw.close();
  }
}, 30_000);
