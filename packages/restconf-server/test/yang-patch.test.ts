import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());
beforeEach(async () => {
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});

const LIB = '/restconf/data/example-jukebox:jukebox/library';

function patch(body: unknown, accept = 'application/yang-data+json'): RequestInit {
  return {
    method: 'PATCH',
    headers: { 'content-type': 'application/yang-patch+json', accept },
    body: JSON.stringify(body),
  };
}

describe('YANG Patch (RFC 8072)', () => {
  test('a patch of two creates answers 200 with ok', async () => {
    const r = await gw.fetch(
      LIB,
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'add-artists',
          edit: [
            {
              'edit-id': 'e1',
              operation: 'create',
              target: '/artist=A',
              value: { 'example-jukebox:artist': [{ name: 'A' }] },
            },
            {
              'edit-id': 'e2',
              operation: 'create',
              target: '/artist=B',
              value: { 'example-jukebox:artist': [{ name: 'B' }] },
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      'ietf-yang-patch:yang-patch-status': { 'patch-id': 'add-artists', ok: [null] },
    });
    expect((await gw.fetch(`${LIB}/artist=B`)).status).toBe(200);
  });

  test('a failing edit answers its error in yang-patch-status and nothing is applied', async () => {
    const r = await gw.fetch(
      LIB,
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'dup',
          edit: [
            {
              'edit-id': 'e1',
              operation: 'create',
              target: '/artist=New',
              value: { 'example-jukebox:artist': [{ name: 'New' }] },
            },
            {
              'edit-id': 'e2',
              operation: 'create',
              target: '/artist=Foo%20Fighters',
              value: { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] },
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(409);
    const body = (await r.json()) as Record<
      string,
      { 'edit-status': { edit: { 'edit-id': string; errors: { error: { 'error-tag': string }[] } }[] } }
    >;
    const edit = body['ietf-yang-patch:yang-patch-status']!['edit-status'].edit[0]!;
    expect(edit['edit-id']).toBe('e2');
    expect(edit.errors.error[0]!['error-tag']).toBe('data-exists');
    expect((await gw.fetch(`${LIB}/artist=New`)).status).toBe(404);
  });

  test('a patch on the datastore with merge and delete', async () => {
    const r = await gw.fetch(
      '/restconf/data',
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'p',
          edit: [
            {
              'edit-id': '1',
              operation: 'merge',
              target: '/example-jukebox:jukebox/player',
              value: { 'example-jukebox:player': { gap: '1.7' } },
            },
            {
              'edit-id': '2',
              operation: 'delete',
              target: '/example-jukebox:jukebox/library/artist=Foo%20Fighters',
            },
          ],
        },
      }),
    );
    expect(r.status).toBe(200);
    expect((await gw.fetch(`${LIB}/artist=Foo%20Fighters`)).status).toBe(404);
  });

  test('a patch in XML answers yang-patch-status in XML', async () => {
    const r = await gw.fetch(LIB, {
      method: 'PATCH',
      headers: { 'content-type': 'application/yang-patch+xml' },
      body: `<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>x1</patch-id><edit><edit-id>1</edit-id><operation>create</operation><target>/artist=C</target><value><artist xmlns="http://example.com/ns/example-jukebox"><name>C</name></artist></value></edit></yang-patch>`,
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
    expect(await r.text()).toContain('<ok/>');
  });

  test('a malformed patch is 400 before anything is written', async () => {
    const r = await gw.fetch(
      LIB,
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'bad',
          edit: [{ 'edit-id': '1', operation: 'explode', target: '/artist=A' }],
        },
      }),
    );
    expect(r.status).toBe(400);
  });

  test('a YANG Patch media type on PUT is 415', async () => {
    const r = await gw.fetch(LIB, { ...patch({}), method: 'PUT' });
    expect(r.status).toBe(415);
  });
});
