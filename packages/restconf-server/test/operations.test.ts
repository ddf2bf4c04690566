import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

describe('operation resources (RFC 8040 3.6, B.4)', () => {
  test('an rpc without output answers 204', async () => {
    const r = await gw.fetch(
      '/restconf/operations/example-ops:reboot',
      json('POST', {
        'example-ops:input': { delay: 600, message: 'Going down for system maintenance', language: 'en-US' },
      }),
    );
    expect(r.status).toBe(204);
  });

  test('an rpc with output answers 200 with the output wrapped', async () => {
    await gw.fetch(
      '/restconf/operations/example-ops:reboot',
      json('POST', { 'example-ops:input': { delay: 600, message: 'maintenance' } }),
    );
    const r = await gw.fetch('/restconf/operations/example-ops:get-reboot-info', { method: 'POST' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ 'example-ops:output': { 'reboot-time': 600, message: 'maintenance' } });
  });

  test('the module may be left out when one module defines the rpc', async () => {
    const r = await gw.fetch('/restconf/operations/get-reboot-info', { method: 'POST' });
    expect(r.status).toBe(200);
  });

  test('output is XML when the input was XML and Accept names nothing', async () => {
    const r = await gw.fetch('/restconf/operations/example-ops:reboot', {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml' },
      body: '<input xmlns="https://example.com/ns/example-ops"><delay>5</delay></input>',
    });
    expect(r.status).toBe(204);
    const info = await gw.fetch('/restconf/operations/example-ops:get-reboot-info', {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml' },
      body: '',
    });
    expect(info.headers.get('content-type')).toBe('application/yang-data+xml');
    expect(await info.text()).toContain('<reboot-time>5</reboot-time>');
  });

  test('an input that breaks the schema is 400', async () => {
    const r = await gw.fetch(
      '/restconf/operations/example-ops:reboot',
      json('POST', { 'example-ops:input': { delay: 'soon' } }),
    );
    expect(r.status).toBe(400);
  });

  test('an unknown operation is 400 unknown-element', async () => {
    const r = await gw.fetch('/restconf/operations/example-ops:explode', { method: 'POST' });
    expect(r.status).toBe(400);
  });

  test('GET on an operation is 405 with Allow: POST', async () => {
    const r = await gw.fetch('/restconf/operations/example-ops:reboot');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST, OPTIONS');
  });

  test('ietf-netconf:get-config is reachable as an operation', async () => {
    const r = await gw.fetch(
      '/restconf/operations/ietf-netconf:get-config',
      json('POST', { 'ietf-netconf:input': { source: { running: [null] } } }),
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('Foo Fighters');
  });

  test('a lock taken through ietf-netconf:lock ends with its request', async () => {
    const r = await gw.fetch(
      '/restconf/operations/ietf-netconf:lock',
      json('POST', { 'ietf-netconf:input': { target: { candidate: [null] } } }),
    );
    expect(r.status).toBe(204);
    for (let i = 0; i < 3; i++) {
      const edit = await gw.fetch(
        '/restconf/data/example-jukebox:jukebox/player/gap',
        json('PATCH', { 'example-jukebox:gap': `0.${i + 1}` }),
      );
      expect(edit.status).toBe(204);
    }
    const again = await gw.fetch(
      '/restconf/operations/ietf-netconf:lock',
      json('POST', { 'ietf-netconf:input': { target: { candidate: [null] } } }),
    );
    expect(again.status).toBe(204);
  });

  test('jukebox play checks its input against the data (B.4 style rpc)', async () => {
    const r = await gw.fetch(
      '/restconf/operations/example-jukebox:play',
      json('POST', { 'example-jukebox:input': { playlist: 'Foo-One', 'song-number': 1 } }),
    );
    expect(r.status).toBeGreaterThanOrEqual(400);
  });
});

describe('actions (RFC 8040 3.6)', () => {
  test('an action on a list entry runs with its input and answers 204', async () => {
    await gw.fetch(
      '/restconf/data',
      json('PATCH', {
        'ietf-restconf:data': { 'example-actions:interfaces': { interface: [{ name: 'eth0' }] } },
      }),
    );
    const r = await gw.fetch(
      '/restconf/data/example-actions:interfaces/interface=eth0/reset',
      json('POST', { 'example-actions:input': { delay: 0 } }),
    );
    expect(r.status).toBe(204);
  });

  test('an action with output answers it wrapped in output', async () => {
    const r = await gw.fetch('/restconf/data/example-actions:interfaces/interface=eth0/get-last-reset-time', {
      method: 'POST',
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'example-actions:output': { 'last-reset': string } };
    expect(body['example-actions:output']['last-reset']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('GET on an action is 405', async () => {
    const r = await gw.fetch('/restconf/data/example-actions:interfaces/interface=eth0/reset');
    expect(r.status).toBe(405);
  });
});

describe('confirmed commit (states and transitions of the spec)', () => {
  test('an edit with confirmed and persist is rolled back by cancel-commit', async () => {
    const gap = '/restconf/data/example-jukebox:jukebox/player/gap';
    await gw.fetch(gap, json('PATCH', { 'example-jukebox:gap': '0.5' }));
    const r = await gw.fetch(
      `${gap}?confirmed=1&persist=tok1`,
      json('PATCH', { 'example-jukebox:gap': '1.9' }),
    );
    expect(r.status).toBe(204);
    expect(await (await gw.fetch(gap)).json()).toEqual({ 'example-jukebox:gap': '1.9' });
    const c = await gw.fetch(
      '/restconf/operations/ietf-netconf:cancel-commit',
      json('POST', { 'ietf-netconf:input': { 'persist-id': 'tok1' } }),
    );
    expect(c.status).toBe(204);
    expect(await (await gw.fetch(gap)).json()).toEqual({ 'example-jukebox:gap': '0.5' });
  });

  test('an edit with confirmed and persist is kept by commit with persist-id', async () => {
    const gap = '/restconf/data/example-jukebox:jukebox/player/gap';
    const r = await gw.fetch(
      `${gap}?confirmed=1&persist=tok2&confirm-timeout=60`,
      json('PATCH', { 'example-jukebox:gap': '1.1' }),
    );
    expect(r.status).toBe(204);
    const c = await gw.fetch(
      '/restconf/operations/ietf-netconf:commit',
      json('POST', { 'ietf-netconf:input': { 'persist-id': 'tok2' } }),
    );
    expect(c.status).toBe(204);
    expect(await (await gw.fetch(gap)).json()).toEqual({ 'example-jukebox:gap': '1.1' });
  });

  test('confirmed without persist is 400', async () => {
    const r = await gw.fetch(
      '/restconf/data/example-jukebox:jukebox/player/gap?confirmed=1',
      json('PATCH', { 'example-jukebox:gap': '1.0' }),
    );
    expect(r.status).toBe(400);
  });
});
