import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Server, startServer } from './harness.js';

// The specification's media type rule 4: with --restconf-strict-headers false (the default)
// application/json, text/json and text/xml are accepted too; with true only RFC 8040 types.
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';

describe('--restconf-strict-headers=false (default)', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  test('answers Accept: application/json in JSON', async () => {
    const r = await s.fetch(GAP, { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ 'example-jukebox:gap': '0.5' });
  });

  test('answers Accept: text/xml in XML', async () => {
    const r = await s.fetch(GAP, { headers: { Accept: 'text/xml' } });
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('<gap xmlns="http://example.com/ns/example-jukebox">0.5</gap>');
  });

  test('takes a text/json body', async () => {
    const r = await s.fetch(GAP, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/json' },
      body: '{"example-jukebox:gap":"0.7"}',
    });
    expect(r.status).toBe(204);
  });
});

describe('--restconf-strict-headers=true', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ restconfStrictHeaders: true });
  });
  afterAll(() => s.close());

  test('answers 406 to Accept: application/json', async () => {
    expect((await s.fetch(GAP, { headers: { Accept: 'application/json' } })).status).toBe(406);
  });

  test('answers 415 to a body typed application/json', async () => {
    const r = await s.fetch(GAP, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{"example-jukebox:gap":"0.7"}',
    });
    expect(r.status).toBe(415);
  });
});
