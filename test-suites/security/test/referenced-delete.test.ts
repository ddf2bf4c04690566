import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, type Server, startServer } from './harness.js';

// Found by the fuzz suite: deleting an artist that the sample playlist references through a
// require-instance instance-identifier is refused by validation (RFC 7950 section 15.5,
// data-missing / instance-required). The target exists, so the answer is 409 (RFC 8040 section 7),
// never 404, and the artist is still there afterwards.
const FOO = '/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters';
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('DELETE of a referenced list entry', () => {
  test('is answered 409 data-missing with error-app-tag instance-required', async () => {
    const r = await s.fetch(FOO, { method: 'DELETE', headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(409);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } };
    expect(body['ietf-restconf:errors'].error[0]?.['error-tag']).toBe('data-missing');
    expect(body['ietf-restconf:errors'].error[0]?.['error-app-tag']).toBe('instance-required');
  });

  test('leaves the artist in place', async () => {
    const r = await s.fetch(FOO, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
  });
});
