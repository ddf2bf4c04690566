import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createExplorerHandler } from '../src/index';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'explorer-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'secret.txt'), 'no');
  writeFileSync(
    path.join(dir, 'files.json'),
    JSON.stringify(['assets/app-1234.js', '../index.html', 'secret.txt']),
  );
  const explorer = createExplorerHandler({ appDir: dir });
  server = createServer((req, res) => {
    if (!explorer(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('createExplorerHandler', () => {
  test('answers the page at the base path, uncached, with a content security policy', async () => {
    const res = await fetch(`${base}/explorer/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).toContain('<title>x</title>');
  });

  test('answers a built asset with its type, cached for good', async () => {
    const res = await fetch(`${base}/explorer/assets/app-1234.js`);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toBe('console.log(1)');
  });

  test('redirects the base path without its slash', async () => {
    const res = await fetch(`${base}/explorer`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/explorer/');
  });

  test('answers 404 for what is not a listed file of a known type, outside the folder above all', async () => {
    // Sent as written: fetch would resolve the dot segments itself.
    const status = (p: string) =>
      new Promise<number>((resolve, reject) =>
        get(`${base}${p}`, { path: p }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject),
      );
    for (const p of [
      '/explorer/secret.txt',
      '/explorer/../index.html',
      '/explorer/%2e%2e/index.html',
      '/explorer/files.json',
    ]) {
      expect(await status(p), p).toBe(404);
    }
  });

  test('answers 405 to a method other than GET and HEAD', async () => {
    const res = await fetch(`${base}/explorer/`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  test('answers 503 when the app is not built, instead of failing', () => {
    const explorer = createExplorerHandler({ appDir: path.join(dir, 'missing') });
    let status = 0;
    const res = {
      writeHead: (s: number) => {
        status = s;
        return { end: () => undefined };
      },
    };
    expect(explorer({ url: '/explorer/' } as never, res as never)).toBe(true);
    expect(status).toBe(503);
  });

  test('leaves other paths to the caller', async () => {
    expect((await fetch(`${base}/restconf/data`)).status).toBe(418);
    expect((await fetch(`${base}/explorerx`)).status).toBe(418);
  });
});
