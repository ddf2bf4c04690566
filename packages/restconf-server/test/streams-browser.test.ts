import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from './harness.js';
import { eventXml } from './streams-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present && process.env.CI === 'true') {
  throw new Error(`${CHROMIUM} is missing: CI must install Debian chromium for the browser EventSource test`);
}
if (!present) console.warn(`skipping the browser EventSource test: ${CHROMIUM} is not installed`);

describe.skipIf(!present)('a browser EventSource', () => {
  let gw: Gateway;
  let pageUrl: string;
  let close: () => Promise<void>;
  let profile: string;

  beforeAll(async () => {
    gw = await startGateway();
    // The page is served from the gateway's origin, as a web application beside RESTCONF would be.
    const site = createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>events</title>');
        return;
      }
      gw.handler(req, res);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    close = async () => {
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
      await gw.close();
    };
    profile = mkdtempSync(path.join(tmpdir(), 'yangkit-chromium-'));
  });
  afterAll(async () => {
    await close();
    rmSync(profile, { recursive: true, force: true });
  });

  test('receives notifications from the stream resource in order', { timeout: 60_000 }, async () => {
    // A fresh profile directory: playwright takes it as the persistent context's user data dir.
    const browser = await chromium.launchPersistentContext(profile, {
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
    try {
      const page = await browser.newPage();
      await page.goto(`${pageUrl}/page`);
      await page.evaluate(() => {
        const w = globalThis as unknown as { received: string[]; opened: boolean };
        w.received = [];
        w.opened = false;
        const es = new EventSource('/restconf/streams/json-NETCONF');
        es.onopen = () => {
          w.opened = true;
        };
        es.onmessage = (e) => {
          if (e.data.includes('browser-')) w.received.push(e.data);
        };
      });
      await page.waitForFunction(() => (globalThis as unknown as { opened: boolean }).opened);
      for (let i = 0; i < 5; i++) gw.netconf.publish(eventXml(`browser-${i}`));
      await page.waitForFunction(
        () => (globalThis as unknown as { received: string[] }).received.length === 5,
      );
      const received = await page.evaluate(() => (globalThis as unknown as { received: string[] }).received);
      const classes = received.map(
        (d) => JSON.parse(d)['ietf-restconf:notification']['example-mod:event']['event-class'],
      );
      expect(classes).toEqual(['browser-0', 'browser-1', 'browser-2', 'browser-3', 'browser-4']);
    } finally {
      await browser.close();
    }
  });
});
