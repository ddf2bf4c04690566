import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';

const JSON_DATA = 'application/yang-data+json';
const JB = 'http://example.com/ns/example-jukebox';
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ port: 0, initialData: '' }, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw.close());

function request(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(gw.url + path, {
    ...init,
    headers: { Accept: JSON_DATA, ...(init.body ? { 'Content-Type': JSON_DATA } : {}), ...init.headers },
  });
}

const artist = (name: string) => JSON.stringify({ 'example-jukebox:artist': [{ name }] });

/** A NETCONF client of the embedded server, as one over --netconf-ssh-listen would be. */
async function netconfClient(): Promise<NetconfSession> {
  const [a, b] = duplexPair();
  gw.backend.netconf!.connect(a, { username: 'ops' });
  return connectStream(b);
}

describe('the embedded backend', () => {
  test('data requests send no NETCONF rpc', async () => {
    const netconf = gw.backend.netconf!;
    const rpcs = () => [...netconf.sessions.values()].reduce((n, s) => n + s.counters.inRpcs, 0);
    const before = { sessions: netconf.statistics.inSessions, rpcs: rpcs() };
    expect((await request(`${LIBRARY}/artist=Foo`, { method: 'PUT', body: artist('Foo') })).status).toBe(201);
    expect((await request(`${LIBRARY}/artist=Foo`)).status).toBe(200);
    expect((await request(`${LIBRARY}/artist=Foo`, { method: 'DELETE' })).status).toBe(204);
    expect({ sessions: netconf.statistics.inSessions, rpcs: rpcs() }).toEqual(before);
  });

  test('an edit by a NETCONF client moves the entity-tag of the datastore', async () => {
    const before = (await request('/restconf/data/example-jukebox:jukebox')).headers.get('etag');
    const session = await netconfClient();
    await session.editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library><artist><name>Bar</name></artist></library></jukebox>`,
    });
    await session.close();
    const after = await request('/restconf/data/example-jukebox:jukebox');
    expect(after.headers.get('etag')).not.toBe(before);
    expect(await after.text()).toContain('Bar');
  });

  test('a candidate locked by a NETCONF client refuses an edit with 409 in-use, changing nothing', async () => {
    const session = await netconfClient();
    await session.lock({ target: 'candidate' });
    const r = await request(`${LIBRARY}/artist=Baz`, { method: 'PUT', body: artist('Baz') });
    expect(r.status).toBe(409);
    expect(await r.text()).toContain('in-use');
    await session.close();
    expect((await request(`${LIBRARY}/artist=Baz`)).status).toBe(404);
  });

  test('a YANG Patch names its failing edit and leaves nothing behind in the candidate', async () => {
    const patch = {
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'p',
        edit: [
          {
            'edit-id': 'one',
            operation: 'create',
            target: '/artist=Qux',
            value: { 'example-jukebox:artist': [{ name: 'Qux' }] },
          },
          { 'edit-id': 'two', operation: 'delete', target: '/artist=Nobody' },
        ],
      },
    };
    const r = await request(LIBRARY, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/yang-patch+json' },
      body: JSON.stringify(patch),
    });
    expect(r.status).toBe(409);
    const status = (await r.json()) as {
      'ietf-yang-patch:yang-patch-status': {
        'edit-status': { edit: { 'edit-id': string; errors?: unknown }[] };
      };
    };
    const failed = status['ietf-yang-patch:yang-patch-status']['edit-status'].edit.filter((e) => e.errors);
    expect(failed.map((e) => e['edit-id'])).toEqual(['two']);
    expect((await request(`${LIBRARY}/artist=Qux`)).status).toBe(404);
    const session = await netconfClient();
    expect(await session.getConfig({ source: 'candidate' })).not.toContain('Qux');
    await session.close();
  });
});
