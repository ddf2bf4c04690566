import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, startServer } from './harness.js';

// RFC 8040 Appendix B.1: resource retrieval examples.
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('B.1.1 retrieve the top-level API resource', () => {
  test('answers ietf-restconf:restconf with data, operations and yang-library-version in JSON', async () => {
    const r = await s.fetch('/restconf', { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(DATA_JSON);
    const body = (await r.json()) as Record<string, Record<string, unknown>>;
    const api = body['ietf-restconf:restconf']!;
    expect(api).toHaveProperty('data');
    expect(api).toHaveProperty('operations');
    expect(api['yang-library-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('answers the same resource in XML in the ietf-restconf namespace', async () => {
    const r = await s.fetch('/restconf', { headers: { Accept: DATA_XML } });
    expect(r.headers.get('content-type')).toBe(DATA_XML);
    const text = await r.text();
    expect(text).toMatch(/^<restconf xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">/);
    expect(text).toContain('<yang-library-version>');
  });
});

describe('B.1.2 retrieve the server module information', () => {
  test('lists the implemented modules in the YANG library', async () => {
    const r = await s.fetch('/restconf/data/ietf-yang-library:modules-state', {
      headers: { Accept: DATA_JSON },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'ietf-yang-library:modules-state': { module: { name: string }[] } };
    const names = body['ietf-yang-library:modules-state'].module.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['example-jukebox', 'ietf-restconf', 'ietf-yang-library']));
  });
});

describe('B.1.3 retrieve the server capability information', () => {
  test('lists the query parameter capabilities in XML', async () => {
    const r = await s.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities', {
      headers: { Accept: DATA_XML },
    });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toContain('xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-monitoring"');
    for (const name of ['depth', 'fields', 'with-defaults'])
      expect(text).toContain(`<capability>urn:ietf:params:restconf:capability:${name}:1.0</capability>`);
    expect(text).toContain('urn:ietf:params:restconf:capability:defaults:1.0?basic-mode=explicit');
  });
});
