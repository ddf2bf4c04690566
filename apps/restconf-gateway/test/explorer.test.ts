import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/options.js';

const CHROMIUM = '/usr/bin/chromium';

/**
 * `expect.poll` with room for a loaded machine: the page fetches from the gateway and renders, which
 * took over the default second once when the whole suite ran.
 */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout: number } = { timeout: 15_000 }) =>
  expect.poll(fn, options);
const present = existsSync(CHROMIUM);
if (!present && process.env.CI === 'true') {
  throw new Error(`${CHROMIUM} is missing: CI must install Debian chromium for the explorer tests`);
}
if (!present) console.warn(`skipping the explorer tests: ${CHROMIUM} is not installed`);

/** The screenshot the gateway README shows, made by this test. */
const SCREENSHOT = path.resolve(__dirname, '../docs/explorer.png');
const silent = { logger: pino({ level: 'silent' }) };
const YEAR =
  '/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light/year';

/** A headless Chromium with a fresh profile; closing it removes the profile. */
async function browser(options: Parameters<typeof chromium.launchPersistentContext>[1] = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'yangkit-explorer-'));
  const context = await chromium.launchPersistentContext(profile, {
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
    viewport: { width: 1280, height: 860 },
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function start(options: GatewayOptions = {}): Promise<Gateway> {
  return startGateway({ port: 0, ...options }, silent);
}

/** The tree button of a node, by its RFC 8340 line. */
const node = (page: Page, line: RegExp) =>
  page.getByRole('navigation', { name: 'schema' }).getByRole('button', { name: line });

describe.skipIf(!present)('the explorer in a browser', () => {
  let gw: Gateway;
  let chrome: Awaited<ReturnType<typeof browser>>;
  let page: Page;

  beforeAll(async () => {
    gw = await start();
    chrome = await browser();
    page = await chrome.context.newPage();
  });
  afterAll(async () => {
    await chrome?.close();
    await gw?.close();
  });

  test('loads and browses the schema tree to a list entry and its data', { timeout: 60_000 }, async () => {
    await page.goto(`${gw.url}/explorer/`);
    await node(page, /^rw example-jukebox:jukebox!$/).click();
    await node(page, /^rw library$/).click();
    await node(page, /^rw artist\* \[name\]$/).click();
    await page.getByRole('list', { name: 'entries' }).getByRole('button', { name: 'Foo Fighters' }).click();
    await poll(() => page.getByLabel('body').first().textContent()).toContain('"name": "Wasting Light"');
    await node(page, /^rw album\* \[name\]$/).click();
    await page.getByRole('list', { name: 'entries' }).getByRole('button', { name: 'Wasting Light' }).click();
    await poll(() => page.getByLabel('year').inputValue()).toBe('2011');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  test('edits a leaf with the form and shows the new value', { timeout: 60_000 }, async () => {
    await node(page, /^rw year\?/).click();
    await poll(() => page.getByLabel('year').inputValue()).toBe('2011');
    await page.getByLabel('year').fill('2012');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByRole('region', { name: 'answer' }).last().textContent()).toContain('204');
    await poll(() => page.getByLabel('body').first().textContent()).toContain('2012');
    const res = await fetch(`${gw.url}${YEAR}`);
    expect(await res.json()).toEqual({ 'example-jukebox:year': 2012 });
  });

  test("shows the server's error body inline when a value is refused", { timeout: 60_000 }, async () => {
    await page.getByLabel('year').fill('soon');
    await page.getByRole('button', { name: 'Save' }).click();
    const errors = page.getByRole('list', { name: 'errors' });
    await poll(() => errors.textContent()).toContain('invalid-value');
    expect(await page.getByRole('region', { name: 'answer' }).last().textContent()).toContain('400');
    expect(await (await fetch(`${gw.url}${YEAR}`)).json()).toEqual({ 'example-jukebox:year': 2012 });
  });

  test('invokes an rpc with its input and shows the output of another', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Operations' }).click();
    await node(page, /reboot$/).click();
    await poll(() => page.getByLabel('input').inputValue()).toContain('"example-ops:input"');
    await page
      .getByLabel('input')
      .fill('{"example-ops:input": {"delay": 0, "message": "from the explorer"}}');
    await page.getByRole('button', { name: 'Invoke' }).click();
    await poll(() => page.getByRole('region', { name: 'answer' }).textContent()).toContain('204');
    await node(page, /get-reboot-info$/).click();
    await page.getByRole('button', { name: 'Invoke' }).click();
    await poll(() => page.getByLabel('body').textContent()).toContain('from the explorer');
  });

  test('opens an event stream and shows a notification of an edit live', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('button', { name: 'open json-NETCONF' }).click();
    await poll(() => page.getByLabel('stream state').textContent()).toContain('json-NETCONF');
    const edit = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/yang-data+json' },
      body: JSON.stringify({ 'example-jukebox:gap': '1.5' }),
    });
    expect(edit.status).toBe(204);
    const list = page.getByRole('list', { name: 'notifications' });
    await poll(() => list.textContent(), { timeout: 20_000 }).toContain('netconf-config-change');
    expect(await list.textContent()).toContain('/example-jukebox:jukebox/player/gap');
  });

  test('shows the OpenAPI document', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'OpenAPI' }).click();
    await poll(() => page.getByRole('article', { name: 'openapi' }).textContent()).toContain(
      '"openapi": "3.1.0"',
    );
  });
});

describe.skipIf(!present)('the explorer behind HTTP Basic', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ httpUser: 'operator', httpPassword: 's3cret' });
  });
  afterAll(() => gw?.close());

  test("uses the browser's credentials for the page, the documents and RESTCONF", {
    timeout: 60_000,
  }, async () => {
    const chrome = await browser({ httpCredentials: { username: 'operator', password: 's3cret' } });
    try {
      const page = await chrome.context.newPage();
      await page.goto(`${gw.url}/explorer/`);
      await node(page, /^rw example-jukebox:jukebox!$/).click();
      await poll(() => page.getByRole('region', { name: 'answer' }).first().textContent()).toContain('200');
    } finally {
      await chrome.close();
    }
  });

  test('answers 401 without credentials', async () => {
    expect((await fetch(`${gw.url}/explorer/`)).status).toBe(401);
    expect((await fetch(`${gw.url}/openapi.json`)).status).toBe(401);
  });
});
