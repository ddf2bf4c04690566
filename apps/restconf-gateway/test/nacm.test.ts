import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { addUser } from '../src/security/users-file.js';

const JSON_DATA = 'application/yang-data+json';
const PASSWORDS: Record<string, string> = {
  admin: 'admin-pw',
  alice: 'alice-pw',
  bob: 'bob-pw',
  carol: 'carol-pw',
};

/** alice administers; bob may not write the library, read playlists nor run reboot. */
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: {
      group: [
        { name: 'admin', 'user-name': ['alice'] },
        { name: 'operators', 'user-name': ['bob'] },
      ],
    },
    'rule-list': [
      {
        name: 'operators',
        group: ['operators'],
        rule: [
          {
            name: 'deny-library-writes',
            'module-name': 'example-jukebox',
            path: '/example-jukebox:jukebox/library',
            'access-operations': 'create update delete',
            action: 'deny',
          },
          {
            name: 'hide-playlists',
            'module-name': 'example-jukebox',
            path: '/example-jukebox:jukebox/playlist',
            'access-operations': 'read',
            action: 'deny',
          },
          {
            name: 'no-reboot',
            'module-name': 'example-ops',
            'rpc-name': 'reboot',
            'access-operations': 'exec',
            action: 'deny',
          },
          {
            name: 'no-config-change-events',
            'module-name': 'ietf-netconf-notifications',
            'notification-name': 'netconf-config-change',
            'access-operations': 'read',
            action: 'deny',
          },
          {
            name: 'edit-jukebox',
            'module-name': 'example-jukebox',
            'access-operations': 'create update delete',
            action: 'permit',
          },
        ],
      },
      {
        name: 'admin',
        group: ['admin'],
        rule: [{ name: 'permit-all', 'module-name': '*', 'access-operations': '*', action: 'permit' }],
      },
    ],
  },
};

let gw: Gateway;

function as(user: string, url: string, init: RequestInit = {}): Promise<Response> {
  const auth = `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString('base64')}`;
  return fetch(`${gw.url}/restconf${url}`, {
    ...init,
    headers: { Authorization: auth, Accept: JSON_DATA, ...(init.body ? { 'Content-Type': JSON_DATA } : {}) },
  });
}

const artist = (name: string) => ({ 'example-jukebox:artist': [{ name }] });
const artistUrl = (name: string) =>
  `/data/example-jukebox:jukebox/library/artist=${encodeURIComponent(name)}`;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-nacm-'));
  const usersFile = path.join(dir, 'users.txt');
  for (const [user, password] of Object.entries(PASSWORDS)) await addUser(usersFile, user, password);
  gw = await startGateway({ port: 0, usersFile, nacmAdmin: 'admin' }, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw.close());

describe('NACM through the gateway with a users file', () => {
  test('before any rule, the RFC 8341 defaults let a user read but not write', async () => {
    expect((await as('bob', '/data/example-jukebox:jukebox')).status).toBe(200);
    const r = await as('bob', artistUrl('Nirvana'), {
      method: 'PUT',
      body: JSON.stringify(artist('Nirvana')),
    });
    expect(r.status).toBe(403);
  });

  test('the --nacm-admin user writes the rules', async () => {
    const r = await as('admin', '/data/ietf-netconf-acm:nacm', {
      method: 'PUT',
      body: JSON.stringify(RULES),
    });
    expect([201, 204]).toContain(r.status);
    const back = await as('alice', '/data/ietf-netconf-acm:nacm/groups');
    expect(await back.text()).toContain('operators');
  });

  test("bob's PUT to the library is 403 access-denied and the datastore is unchanged", async () => {
    const r = await as('bob', artistUrl('Nirvana'), {
      method: 'PUT',
      body: JSON.stringify(artist('Nirvana')),
    });
    expect(r.status).toBe(403);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-tag': string }[] } };
    expect(body['ietf-restconf:errors'].error[0]!['error-tag']).toBe('access-denied');
    expect((await as('alice', artistUrl('Nirvana'))).status).toBe(404);
  });

  test("bob's GET omits the playlists; alice's has them", async () => {
    const mine = await (await as('bob', '/data/example-jukebox:jukebox')).text();
    expect(mine).toContain('library');
    expect(mine).not.toContain('playlist');
    expect(await (await as('alice', '/data/example-jukebox:jukebox')).text()).toContain('playlist');
  });

  test('a GET of exactly a node bob may not read is 404, as for a missing one', async () => {
    const r = await as('bob', '/data/example-jukebox:jukebox/playlist=Foo-One');
    expect(r.status).toBe(404);
    const missing = await as('bob', '/data/example-jukebox:jukebox/playlist=No-Such-List');
    expect(missing.status).toBe(404);
    expect(await r.text()).toBe(await missing.text().then((t) => t.replaceAll('No-Such-List', 'Foo-One')));
    expect((await as('alice', '/data/example-jukebox:jukebox/playlist=Foo-One')).status).toBe(200);
  });

  test("bob's reboot is 403; alice's runs", async () => {
    const input = JSON.stringify({ 'example-ops:input': { delay: 600 } });
    const denied = await as('bob', '/operations/example-ops:reboot', { method: 'POST', body: input });
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain('access-denied');
    const ok = await as('alice', '/operations/example-ops:reboot', { method: 'POST', body: input });
    expect(ok.status).toBe(204);
  });

  test('alice writes the library; bob may write what a rule permits', async () => {
    const r = await as('alice', artistUrl('Nirvana'), {
      method: 'PUT',
      body: JSON.stringify(artist('Nirvana')),
    });
    expect(r.status).toBe(201);
    const gap = await as('bob', '/data/example-jukebox:jukebox/player/gap', {
      method: 'PUT',
      body: JSON.stringify({ 'example-jukebox:gap': '1.5' }),
    });
    expect([201, 204]).toContain(gap.status);
  });

  test("bob's event stream drops the notifications he may not read", async () => {
    const streams = await as('bob', '/data/ietf-restconf-monitoring:restconf-state/streams');
    const body = (await streams.json()) as Record<string, { stream: { access: { location: string }[] }[] }>;
    const location = Object.values(body)[0]!.stream[0]!.access[0]!.location;
    const auth = `Basic ${Buffer.from('bob:bob-pw').toString('base64')}`;
    const sse = await fetch(location, { headers: { Authorization: auth, Accept: 'text/event-stream' } });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    const first = (async (): Promise<string> => {
      let text = '';
      while (!text.includes('<username>carol</username>')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('utf8');
      }
      return text;
    })();
    // A config change bob may not see, then the start of a NETCONF session of carol's (a client of
    // the embedded server; the gateway's own sessions are not announced), which he may.
    await as('alice', artistUrl('Pearl Jam'), { method: 'PUT', body: JSON.stringify(artist('Pearl Jam')) });
    const [a, b] = duplexPair();
    gw.backend.netconf!.connect(a, { username: 'carol' });
    const carol = await connectStream(b);
    const event = await first;
    await reader.cancel();
    await carol.close();
    expect(event).toContain('netconf-session-start');
    expect(event).not.toContain('netconf-config-change');
    expect(await (await as('alice', artistUrl('Pearl Jam'))).text()).toContain('Pearl Jam');
  });

  test('bob cannot change the rules', async () => {
    const r = await as('bob', '/data/ietf-netconf-acm:nacm/write-default', {
      method: 'PUT',
      body: JSON.stringify({ 'ietf-netconf-acm:write-default': 'permit' }),
    });
    expect(r.status).toBe(403);
  });
});

test('--nacm-admin without a users file is refused', async () => {
  await expect(
    startGateway({ port: 0, nacmAdmin: 'root' }, { logger: pino({ level: 'silent' }) }),
  ).rejects.toThrow(/--nacm-admin needs --users-file/);
});
