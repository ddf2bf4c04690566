import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsBody, type Server, startServer } from './harness.js';

// Issue 12, limits: a body over --max-body-bytes is refused with 413 before it is parsed, and the
// HTTP server bounds how long a client may take to send headers and a whole request.
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const MAX_BODY = 64 * 1024;
let s: Server;
beforeAll(async () => {
  s = await startServer({ maxBodyBytes: MAX_BODY });
});
afterAll(() => s.close());

describe('limits', () => {
  for (const type of [DATA_JSON, DATA_XML]) {
    test(`a ${type} body one byte over the limit gets 413 with an errors body and changes nothing`, async () => {
      const before = await s.snapshot();
      const r = await s.fetch(LIBRARY, {
        method: 'POST',
        headers: { 'Content-Type': type, Accept: DATA_JSON },
        body: ' '.repeat(MAX_BODY + 1),
      });
      expect(r.status).toBe(413);
      expect(errorsBody(await r.text(), r.headers.get('content-type'))).toBeDefined();
      expect(await s.snapshot()).toBe(before);
    });
  }

  test('a body exactly at the limit is parsed rather than refused for its size', async () => {
    const r = await s.fetch(LIBRARY, {
      method: 'POST',
      headers: { 'Content-Type': DATA_JSON },
      body: `{"example-jukebox:artist":[{"name":"Limit"}]}${' '.repeat(MAX_BODY - 45)}`,
    });
    expect(r.status).toBe(201);
  });

  test('a chunked body without Content-Length is cut off at the limit with 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(LIBRARY, s.gateway.url);
      const req = request(url, { method: 'POST', headers: { 'Content-Type': DATA_JSON } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = 'x'.repeat(16 * 1024);
      for (let i = 0; i < 8; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });

  test('the HTTP server bounds the time to send headers and a whole request', () => {
    const http = s.gateway.http;
    expect(http.headersTimeout).toBeGreaterThan(0);
    expect(http.headersTimeout).toBeLessThanOrEqual(60_000);
    expect(http.requestTimeout).toBeGreaterThan(0);
    expect(http.requestTimeout).toBeLessThanOrEqual(300_000);
  });

  test('headers larger than the server accepts get 431 and leave the server serving', async () => {
    const r = await s.fetch(LIBRARY, { headers: { Accept: DATA_JSON, 'X-Big': 'x'.repeat(64 * 1024) } });
    expect(r.status).toBe(431);
    const ok = await s.fetch(LIBRARY, { headers: { Accept: DATA_JSON } });
    expect(ok.status).toBe(200);
  });
});
