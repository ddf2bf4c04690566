import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readmeExamples, runExample } from '../../../test-support/readme-examples.js';
import { startTestServer } from './test-server.js';

// The first two examples of README.md, from its text, against an RFC 8040 test server; the
// HTTPS one runs in node-tls.test.ts.
const [jukebox, events] = readmeExamples(path.resolve(__dirname, '../README.md'));

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

test('the README jukebox example adds an artist, reads it back and reports a duplicate', async () => {
  const { addArtist } = (await runExample(jukebox!)) as {
    addArtist: (baseUrl: string, name: string) => Promise<string>;
  };
  expect(await addArtist(server.url, 'AC/DC')).toBe('{"example-jukebox:artist":[{"name":"AC/DC"}]} "rev-2"');
  expect(server.seen.at(-1)?.url).toBe(`${server.root}/data/example-jukebox:jukebox/library/artist=AC%2FDC`);
  expect(await addArtist(server.url, 'AC/DC')).toBe('exists');
});

test('the README events example prints the first notifications of a stream', async () => {
  const { watch } = (await runExample(events!)) as {
    watch: (baseUrl: string, stream: string, count: number) => Promise<string[]>;
  };
  expect(await watch(server.url, 'NETCONF', 2)).toEqual([
    '2026-01-01T00:00:01Z example-jukebox:tick',
    '2026-01-01T00:00:02Z example-jukebox:tick',
  ]);
});
