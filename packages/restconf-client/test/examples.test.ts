import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { watch } from '../examples/events.js';
import { addArtist } from '../examples/jukebox.js';
import { startTestServer } from './test-server.js';

const root = path.resolve(__dirname, '..');
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

test('the README shows the example files as they are', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const file of ['examples/jukebox.ts', 'examples/events.ts']) {
    expect(readme).toContain(readFileSync(path.join(root, file), 'utf8'));
  }
});

test('the jukebox example adds an artist, reads it back and reports a duplicate', async () => {
  expect(await addArtist(server.url, 'AC/DC')).toBe('{"example-jukebox:artist":[{"name":"AC/DC"}]} "rev-2"');
  expect(server.seen.at(-1)?.url).toBe(`${server.root}/data/example-jukebox:jukebox/library/artist=AC%2FDC`);
  expect(await addArtist(server.url, 'AC/DC')).toBe('exists');
});

test('the events example prints the first notifications of a stream', async () => {
  expect(await watch(server.url, 'NETCONF', 2)).toEqual([
    '2026-01-01T00:00:01Z example-jukebox:tick',
    '2026-01-01T00:00:02Z example-jukebox:tick',
  ]);
});
