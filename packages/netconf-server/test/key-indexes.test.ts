import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DataNode, hasKeyIndex, type InstanceTree } from '@yangkit/yang-json-codec';
import { afterEach, expect, test, vi } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, JB, testServer } from './helpers.js';

const ARTISTS = 2000;

let dir: string | undefined;
let server: NetconfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A jukebox library of `ARTISTS` artists (XML config). */
function library(prefix: string): string {
  let artists = '';
  for (let i = 0; i < ARTISTS; i++) artists += `<artist><name>${prefix}-${i}</name></artist>`;
  return `<jukebox xmlns="${JB}"><library>${artists}</library></jukebox>`;
}

/** The artist entries of `tree` (one group: the list's entries under the library). */
function artists(tree: InstanceTree): DataNode[] {
  const jukebox = [...tree.children.values()].flat()[0]!;
  const library = [...jukebox.children!.values()].flat()[0]!;
  return [...library.children!.values()][0]!;
}

/** Waits (generously) until the background work has indexed the artists of `tree()`. */
async function indexed(tree: () => InstanceTree): Promise<void> {
  await vi.waitFor(() => expect(hasKeyIndex(artists(tree()))).toBe(true), { timeout: 20_000, interval: 20 });
}

test('a start from a big startup file indexes running and the candidate before any lookup', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  server = await testServer({ startupFile: file });
  await (await client(server)).editConfig({ target: 'running', config: library('a') });
  await server.close();
  server = await testServer({ startupFile: file });
  const started = server;
  expect(hasKeyIndex(artists(started.running.tree))).toBe(false);
  await indexed(() => started.running.tree);
  await indexed(() => started.datastore('candidate').tree);
  // The first keyed read and edit find the index made (a lookup never builds one that exists).
  const c = await client(started);
  const one = `<jukebox xmlns="${JB}"><library><artist><name>a-1234</name></artist></library></jukebox>`;
  expect(await c.getConfig({ source: 'running', filter: { subtree: one } })).toContain('<name>a-1234</name>');
  const edit = `<jukebox xmlns="${JB}"><library><artist><name>a-7</name><album><name>x</name></album></artist></library></jukebox>`;
  await c.editConfig({ target: 'running', config: edit });
  expect(hasKeyIndex(artists(started.running.tree))).toBe(true);
}, 60_000);

test('a candidate replaced by copy-config is indexed in the background', async () => {
  server = await testServer();
  const started = server;
  await (await client(started)).copyConfig({ target: 'candidate', source: { config: library('b') } });
  await indexed(() => started.datastore('candidate').tree);
}, 60_000);
