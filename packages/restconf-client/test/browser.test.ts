import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer } from './test-server.js';

// The browser build runs in headless Chromium (Debian's /usr/bin/chromium). Without it the test
// is skipped with a message, except on CI, where its absence is a failure.
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const run = available || process.env.CI === 'true';
if (!run) console.warn(`browser.test.ts skipped: ${CHROMIUM} not found (apt-get install chromium)`);

let browser: BrowserContext;
let server: Awaited<ReturnType<typeof startTestServer>>;
const profile = mkdtempSync(path.join(tmpdir(), 'yangkit-chromium-'));

/** Bundles the main entry for browsers; esbuild fails on any `node:` import left in it. */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.resolve(__dirname, '../src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source', 'browser', 'import'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

// The page loads the bundle as a module and exposes its exports as `window.restconf`.
const PAGE =
  '<!doctype html><title>restconf-client</title><script type="module">' +
  "import * as restconf from '/restconf-client.js'; window.restconf = restconf;</script>";

describe.runIf(run)('in headless Chromium', () => {
  beforeAll(async () => {
    const script = await bundle();
    server = await startTestServer({
      files: {
        '/index.html': { type: 'text/html', body: PAGE },
        '/restconf-client.js': { type: 'text/javascript', body: script },
      },
    });
    // A fresh profile directory (playwright passes it as --user-data-dir).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  test('discovers, reads both encodings and conditionally, decodes an error and reads a stream', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => 'restconf' in globalThis);
    const result = await page.evaluate(async () => {
      const { RestconfClient, RestconfResponseError } = (
        globalThis as unknown as { restconf: typeof import('../src/index.js') }
      ).restconf;
      const { origin } = (globalThis as unknown as { location: URL }).location;
      const client = new RestconfClient({
        baseUrl: origin,
        auth: { user: 'admin', password: 'sécret' },
      });
      const library = '/example-jukebox:jukebox/library';
      const root = await client.root();
      const first = await client.get(library);
      const json = first.data;
      const conditional = (await client.get(library, { ifNoneMatch: first.etag as string })).status;
      const xml = (await client.get(library, { encoding: 'xml' })).data;
      const created = await client.create(library, { 'example-jukebox:artist': [{ name: 'Nirvana' }] });
      const error = await client
        .create(library, { 'example-jukebox:artist': [{ name: 'Nirvana' }] })
        .catch((e: unknown) => e);
      const events: string[] = [];
      for await (const n of client.subscribe('NETCONF') as AsyncIterable<{ id?: string; event: string }>) {
        events.push(`${n.id} ${n.event}`);
        if (events.length === 2) break;
      }
      return {
        root,
        json,
        conditional,
        xml,
        status: created.status,
        isResponseError: RestconfResponseError.isInstance(error),
        errorTag: (error as { errorTag?: string }).errorTag,
        events,
      };
    });
    expect(result).toEqual({
      root: '/top/restconf',
      json: { 'example-jukebox:library': { artist: [{ name: 'Foo Fighters' }] } },
      conditional: 304,
      xml: '<library xmlns="http://example.com/ns/example-jukebox"><artist><name>Foo Fighters</name></artist></library>',
      status: 201,
      isResponseError: true,
      errorTag: 'data-exists',
      events: ['1 example-jukebox:tick', '2 example-jukebox:tick'],
    });
    expect(server.seen.find((r) => r.url.endsWith('/library'))?.headers.authorization).toBe(
      `Basic ${Buffer.from('admin:sécret').toString('base64')}`,
    );
    await page.close();
  });
});

test('the main entry bundles for browsers without Node built-ins', async () => {
  const script = await bundle();
  expect(script).toMatch(/export \{[^}]*\bRestconfClient\b/);
  expect(script).not.toMatch(/from\s*["']node:/);
});
