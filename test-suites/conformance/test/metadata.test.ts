import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, startServer } from './harness.js';

// The spec's `--with-json-metadata` server parameter: RFC 7952 metadata in JSON, over HTTP.
const PLAYER = '/restconf/data/example-jukebox:jukebox/player';
let s: Server;
beforeAll(async () => {
  s = await startServer({ withJsonMetadata: false });
});
afterAll(() => s.close());

describe('--with-json-metadata=false', () => {
  test('with-etag and with-last-modified add no RFC 7952 metadata to JSON', async () => {
    const r = await s.fetch(`${PLAYER}?with-etag&with-last-modified`, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"/);
    expect(r.headers.get('last-modified')).not.toBeNull();
    const body = (await r.json()) as { 'example-jukebox:player': Record<string, unknown> };
    expect(body['example-jukebox:player']).not.toHaveProperty('@');
  });

  test('XML keeps its metadata attributes', async () => {
    const r = await s.fetch(`${PLAYER}?with-etag`, { headers: { Accept: DATA_XML } });
    expect(await r.text()).toMatch(/:etag="/);
  });
});
