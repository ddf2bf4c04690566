import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, sendJson, startServer } from './harness.js';

// The spec's `--wildcard-keys` server parameter, over HTTP.
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
let s: Server;
beforeAll(async () => {
  s = await startServer({ wildcardKeys: true, initialData: '' });
  const r = await s.fetch(
    '/restconf/data/example-jukebox:jukebox',
    sendJson('PUT', {
      'example-jukebox:jukebox': { library: { artist: [{ name: '*' }, { name: 'Beck' }] } },
    }),
  );
  expect(r.status).toBeLessThan(300);
});
afterAll(() => s.close());

describe('--wildcard-keys', () => {
  test('a bare * key matches every entry', async () => {
    const r = await s.fetch(`${LIBRARY}/artist=*`, { headers: { Accept: DATA_JSON } });
    expect(await r.json()).toEqual({ 'example-jukebox:artist': [{ name: '*' }, { name: 'Beck' }] });
  });

  test('%2A is the literal key "*", not a wildcard', async () => {
    const r = await s.fetch(`${LIBRARY}/artist=%2A`, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ 'example-jukebox:artist': [{ name: '*' }] });
  });

  test('%2A names one entry for an edit, which a wildcard may not', async () => {
    expect((await s.fetch(`${LIBRARY}/artist=*`, { method: 'DELETE' })).status).toBe(400);
    const r = await s.fetch(
      `${LIBRARY}/artist=%2A`,
      sendJson('PUT', { 'example-jukebox:artist': [{ name: '*' }] }),
    );
    expect(r.status).toBe(204);
  });

  test('a wildcard answer in XML is one well-formed document', async () => {
    const r = await s.fetch(`${LIBRARY}/artist=*`, { headers: { Accept: DATA_XML } });
    expect(r.status).toBe(200);
    const text = await r.text();
    // One root element holding every entry.
    expect(text).toMatch(
      /^<data xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">(<artist [\s\S]*<\/artist>)<\/data>$/,
    );
    expect(text.match(/<artist /g)).toHaveLength(2);
  });
});
