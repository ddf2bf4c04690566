import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readStreamUntil, type Server, sendJson, startServer } from './harness.js';

// The specification's event stream and NMDA rows: the stream list, an SSE stream that carries
// a netconf-config-change after an edit, and read-only /ds resources with --with-nmda.
let s: Server;
beforeAll(async () => {
  s = await startServer({ withNmda: true });
});
afterAll(() => s.close());

describe('event streams', () => {
  test('restconf-state/streams lists the NETCONF stream with its locations', async () => {
    const r = await s.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/streams');
    const body = (await r.json()) as {
      'ietf-restconf-monitoring:streams': {
        stream: { name: string; access: { encoding: string; location: string }[] }[];
      };
    };
    const netconf = body['ietf-restconf-monitoring:streams'].stream.find((x) => x.name === 'NETCONF');
    expect(netconf?.access.map((a) => a.location)).toContain(
      `${s.gateway.url}/restconf/streams/json-NETCONF`,
    );
  });

  test('a GET on the JSON stream delivers netconf-config-change after an edit', async () => {
    const edit = async () => {
      const r = await s.fetch(
        '/restconf/data/example-jukebox:jukebox/player/gap',
        sendJson('PUT', { 'example-jukebox:gap': '0.9' }),
      );
      expect(r.status).toBe(204);
    };
    const text = await readStreamUntil(s, '/restconf/streams/json-NETCONF', edit, 'netconf-config-change');
    expect(text).toMatch(/^data: /m);
    expect(text).toContain('"ietf-netconf-notifications:netconf-config-change"');
  });
});

describe('NMDA datastores (--with-nmda)', () => {
  test('GET of the running datastore answers configuration', async () => {
    const r = await s.fetch('/restconf/ds/ietf-datastores:running/example-jukebox:jukebox/player');
    expect(r.status).toBe(200);
    expect(Object.keys((await r.json()) as object)).toEqual(['example-jukebox:player']);
  });

  test('GET of the operational datastore answers state', async () => {
    const r = await s.fetch(
      '/restconf/ds/ietf-datastores:operational/example-jukebox:jukebox/library/artist-count',
    );
    expect(await r.json()).toEqual({ 'example-jukebox:artist-count': 3 });
  });

  test('the operational datastore holds ietf-restconf-monitoring:restconf-state like /data', async () => {
    const data = await s.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities');
    const r = await s.fetch('/restconf/ds/ietf-datastores:operational');
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'ietf-restconf:data': Record<string, { capabilities: unknown }> };
    const state = body['ietf-restconf:data']['ietf-restconf-monitoring:restconf-state'];
    expect(state?.capabilities).toEqual(
      ((await data.json()) as Record<string, unknown>)['ietf-restconf-monitoring:capabilities'],
    );
  });

  test('the operational datastore is read-only: PUT answers 405', async () => {
    const r = await s.fetch(
      '/restconf/ds/ietf-datastores:operational/example-jukebox:jukebox/player/gap',
      sendJson('PUT', { 'example-jukebox:gap': '0.1' }),
    );
    expect(r.status).toBe(405);
  });
});
