import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Server, sendJson, startServer } from './harness.js';

// Conditional GET by date (RFC 8040 section 3.4.1.3, RFC 7232 section 3.3), over HTTP.
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('If-Modified-Since', () => {
  test('equal to the Last-Modified of the resource answers 304, right after an edit too', async () => {
    const edit = await s.fetch(GAP, sendJson('PUT', { 'example-jukebox:gap': '0.7' }));
    expect(edit.status).toBeLessThan(300);
    const last = edit.headers.get('last-modified')!;
    const read = await s.fetch(GAP);
    expect(read.headers.get('last-modified')).toBe(last);
    const r = await s.fetch(GAP, { headers: { 'If-Modified-Since': last } });
    expect(r.status).toBe(304);
    expect(await r.text()).toBe('');
  });

  test('older than Last-Modified answers 200 with the resource', async () => {
    const r = await s.fetch(GAP, { headers: { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ 'example-jukebox:gap': '0.7' });
  });
});
