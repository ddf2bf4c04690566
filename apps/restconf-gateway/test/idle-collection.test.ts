import { pino } from 'pino';
import { expect, test } from 'vitest';
import { startGateway } from '../src/gateway.js';

const JB = '/restconf/data/example-jukebox:jukebox';

/** `idle-collections` of `/server-status`. */
async function collections(url: string): Promise<number> {
  const status = (await (await fetch(`${url}/server-status`)).json()) as {
    'request-bodies': { 'idle-collections': number };
  };
  return status['request-bodies']['idle-collections'];
}

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

test('with --idle-collection=false no collection runs after a big body', async () => {
  const gw = await startGateway(
    { port: 0, serverStatus: true, idleCollection: false },
    { logger: pino({ level: 'silent' }) },
  );
  try {
    expect(await bigPatch(gw.url)).toBe(204);
    // The collection would run 2 s after the body; waited for well past that.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await collections(gw.url)).toBe(0);
  } finally {
    await gw.close();
  }
});

test('by default one collection runs after a big body', async () => {
  const gw = await startGateway({ port: 0, serverStatus: true }, { logger: pino({ level: 'silent' }) });
  try {
    expect(await bigPatch(gw.url)).toBe(204);
    let runs = 0;
    for (let i = 0; i < 200 && runs === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      runs = await collections(gw.url);
    }
    expect(runs).toBe(1);
  } finally {
    await gw.close();
  }
});
