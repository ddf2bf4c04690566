import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJson, encodeXml } from '@yangkit/yang-json-codec';
import { standardModulesDir } from '@yangkit/yang-schema';
import { buildSync } from 'esbuild';
import { afterEach, expect, test } from 'vitest';
import { StartupStore } from '../src/persistence.js';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, IF, iface, testSchema, testServer, YANG_DIR } from './helpers.js';

let dir: string;
let server: NetconfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('running is reloaded from the startup file after a restart', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  server = await testServer({ startupFile: file });
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0', '<description>kept</description>') });
  await server.close();
  server = await testServer({ startupFile: file });
  const c2 = await client(server);
  expect(await c2.getConfig({ source: 'running' })).toContain('<description>kept</description>');
});

test('a compaction keeps every change and removes the old journal', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  server = await testServer({ startupFile: file, compactBytes: 512 });
  const c = await client(server);
  for (let i = 0; i < 20; i++) await c.editConfig({ target: 'running', config: iface(`e${i}`) });
  await new Promise((r) => setTimeout(r, 200));
  expect(existsSync(file)).toBe(true);
  expect(readdirSync(dir).filter((n) => n.includes('.journal.')).length).toBeLessThanOrEqual(2);
  await server.close();
  server = await testServer({ startupFile: file });
  const data = await (await client(server)).getConfig({
    source: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"/>` },
  });
  for (let i = 0; i < 20; i++) expect(data).toContain(`<name>e${i}</name>`);
});

test('a compaction of a big running is written in slices, as running was when it began, whatever is committed meanwhile', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  const schema = await testSchema();
  server = await testServer({ startupFile: file, compactBytes: 4096 });
  const local = server.localSession('alice');
  const artist = Array.from({ length: 30_000 }, (_, i) => ({ name: `artist-${i}` }));
  local.editConfig('running', configMerges(schema, { 'example-jukebox:jukebox': { library: { artist } } }));
  // The compaction starts in the next turn and writes its temporary file over several turns.
  await new Promise((r) => setImmediate(r));
  expect(existsSync(`${file}.tmp`)).toBe(true);
  // Its encoder holds running (rather than encoding it whole at once), until a change detaches it.
  expect(server.running.readers).toBe(1);
  local.editConfig(
    'running',
    configMerges(schema, { 'example-jukebox:jukebox': { player: { gap: '0.7' } } }),
  );
  let turns = 1;
  for (; existsSync(`${file}.tmp`) && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
  expect(turns).toBeGreaterThan(2);
  // The snapshot is running before the second edit; that edit is in the journal after it.
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { xml: string };
  expect(snapshot.xml).toContain('<name>artist-29999</name>');
  expect(snapshot.xml).not.toContain('<gap>');
  await server.close();
  server = await testServer({ startupFile: file });
  const data = await (await client(server)).getConfig({ source: 'running' });
  expect(data).toContain('<name>artist-29999</name>');
  expect(data).toContain('<gap>0.7</gap>');
}, 60_000);

test('a server closed while a compaction is written keeps the journal, and loses nothing', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  const schema = await testSchema();
  server = await testServer({ startupFile: file, compactBytes: 4096 });
  const artist = Array.from({ length: 30_000 }, (_, i) => ({ name: `artist-${i}` }));
  server
    .localSession('alice')
    .editConfig('running', configMerges(schema, { 'example-jukebox:jukebox': { library: { artist } } }));
  await new Promise((r) => setImmediate(r));
  expect(existsSync(`${file}.tmp`)).toBe(true);
  await server.close();
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  // Not renamed over the snapshot: the journal it would have covered is still there.
  expect(existsSync(file)).toBe(false);
  expect(readdirSync(dir).some((n) => n.includes('.journal.'))).toBe(true);
  server = await testServer({ startupFile: file });
  const data = await (await client(server)).getConfig({ source: 'running' });
  expect(data).toContain('<name>artist-29999</name>');
}, 60_000);

test('every acknowledged edit survives a SIGKILL of the server process', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const file = path.join(dir, 'startup.json');
  // Bundle the child (TypeScript sources, workspace packages by their `source` condition).
  const outDir = path.resolve(__dirname, '../node_modules/.cache/persist-child');
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, `child-${process.pid}.mjs`);
  buildSync({
    entryPoints: [path.resolve(__dirname, 'persist-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: ['ssh2'],
    outfile,
    logLevel: 'silent',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  const child = spawn(process.execPath, [outfile, file, standardModulesDir, YANG_DIR], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let acked = -1;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (const m of buffer.matchAll(/ACK (\d+)\n/g)) acked = Math.max(acked, Number(m[1]));
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      if (acked >= 300) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => (acked >= 300 ? resolve() : reject(new Error(`child exited early: ${stderr}`))));
  });
  rmSync(outfile, { force: true });
  server = await testServer({ startupFile: file });
  const data = await (await client(server)).getConfig({
    source: 'running',
    filter: { subtree: `<interfaces xmlns="${IF}"/>` },
  });
  const names = new Set([...data.matchAll(/<name>e(\d+)<\/name>/g)].map((m) => Number(m[1])));
  for (let i = 0; i <= acked; i++) expect(names.has(i), `edit ${i} acknowledged but lost`).toBe(true);
}, 60_000);

test('replaceAllSteps writes the snapshot a chunk per step, the same bytes replaceAll writes', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ncs-'));
  const schema = await testSchema();
  const artist = Array.from({ length: 20_000 }, (_, i) => ({
    name: `artist-${i}`,
    album: [{ name: '"é"' }],
  }));
  const tree = decodeJson(schema, { 'example-jukebox:jukebox': { library: { artist } } }, { kind: 'config' });
  const inSteps = new StartupStore(path.join(dir, 'steps.json'), schema);
  const atOnce = new StartupStore(path.join(dir, 'once.json'), schema);
  const steps = inSteps.replaceAllSteps(tree);
  let yields = 0;
  while (steps.next().done !== true) yields++;
  atOnce.replaceAll(tree);
  inSteps.close();
  atOnce.close();
  const text = readFileSync(path.join(dir, 'steps.json'), 'utf8');
  // Over a MiB of XML, in chunks of about 64 KiB.
  expect(text.length).toBeGreaterThan(1024 * 1024);
  expect(yields).toBeGreaterThan(text.length / (128 * 1024));
  expect(text).toBe(JSON.stringify({ format: 'yangkit-startup/1', generation: 0, xml: encodeXml(tree) }));
  expect(text).toBe(readFileSync(path.join(dir, 'once.json'), 'utf8'));
});
