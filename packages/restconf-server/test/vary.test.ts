import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ serverStatus: true });
});
afterAll(() => gw.close());

describe('Vary on negotiated responses (RFC 9110 section 12.5.5)', () => {
  test('a data resource read varies by Accept', async () => {
    const r = await gw.fetch('/restconf/data/example-jukebox:jukebox', {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(r.headers.get('vary')).toBe('Accept');
  });

  test('the JSON and XML answers of one URL differ only by Accept', async () => {
    const a = await gw.fetch('/restconf', { headers: { accept: 'application/yang-data+json' } });
    const b = await gw.fetch('/restconf', { headers: { accept: 'application/yang-data+xml' } });
    expect(a.headers.get('content-type')).toBe('application/yang-data+json');
    expect(b.headers.get('content-type')).toBe('application/yang-data+xml');
    expect(a.headers.get('vary')).toBe('Accept');
    expect(b.headers.get('vary')).toBe('Accept');
  });

  test('host-meta varies by Accept', async () => {
    const r = await gw.fetch('/.well-known/host-meta', { headers: { accept: 'application/json' } });
    expect(r.headers.get('vary')).toBe('Accept');
  });

  test('an error body varies by Accept', async () => {
    const r = await gw.fetch('/restconf/data/example-jukebox:nope', {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.headers.get('vary')).toBe('Accept');
  });

  test('a 304 carries Vary like the 200 it stands for', async () => {
    const first = await gw.fetch('/restconf/data');
    const etag = first.headers.get('etag')!;
    const r = await gw.fetch('/restconf/data', { headers: { 'if-none-match': etag } });
    expect(r.status).toBe(304);
    expect(r.headers.get('vary')).toBe('Accept');
  });

  test('the server status page is not negotiated and does not vary', async () => {
    const r = await gw.fetch('/server-status');
    expect(r.headers.get('vary')).toBeNull();
  });
});
