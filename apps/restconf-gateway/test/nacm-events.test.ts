import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { addUser } from '../src/security/users-file.js';
import { listen } from './event-stream.js';

const JSON_DATA = 'application/yang-data+json';
const PASSWORDS: Record<string, string> = { admin: 'admin-pw', alice: 'alice-pw', bob: 'bob-pw' };
const SN = 'ietf-subscribed-notifications';

/**
 * alice administers; bob may not read netconf-config-change events and, with no rule for
 * kill-subscription (`nacm:default-deny-all` in RFC 8639), may not kill subscriptions.
 */
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
            name: 'no-config-change-events',
            'module-name': 'ietf-netconf-notifications',
            'notification-name': 'netconf-config-change',
            'access-operations': 'read',
            action: 'deny',
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

function authOf(user: string): string {
  return `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString('base64')}`;
}

function as(user: string, url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${gw.url}/restconf${url}`, {
    ...init,
    headers: {
      Authorization: authOf(user),
      Accept: JSON_DATA,
      ...(init.body ? { 'Content-Type': JSON_DATA } : {}),
    },
  });
}

/** An open SSE response of `user`. */
const listenAs = (user: string, url: string) => listen(url, { Authorization: authOf(user) });

/** An example-mod event both users may read: once it arrived, every earlier event has too. */
function marker(tag: string): string {
  return `<event xmlns="http://example.com/event/1.0"><event-class>${tag}</event-class></event>`;
}

async function streamLocation(): Promise<string> {
  const r = await as('alice', '/data/ietf-restconf-monitoring:restconf-state/streams');
  const body = (await r.json()) as Record<string, { stream: { access: { location: string }[] }[] }>;
  const locations = Object.values(body)[0]!.stream[0]!.access.map((a) => a.location);
  return locations.find((l) => l.includes('/json-')) ?? locations[0]!;
}

async function establish(user: string): Promise<number> {
  const r = await as(user, `/operations/${SN}:establish-subscription`, {
    method: 'POST',
    body: JSON.stringify({
      [`${SN}:input`]: { stream: 'NETCONF', 'stream-xpath-filter': '/example-mod:event' },
    }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as Record<string, { id: number }>)[`${SN}:output`]!.id;
}

function kill(user: string, id: number): Promise<Response> {
  return as(user, `/operations/${SN}:kill-subscription`, {
    method: 'POST',
    body: JSON.stringify({ [`${SN}:input`]: { id } }),
  });
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-nacm-events-'));
  const usersFile = path.join(dir, 'users.txt');
  for (const [user, password] of Object.entries(PASSWORDS)) await addUser(usersFile, user, password);
  gw = await startGateway({ port: 0, usersFile, nacmAdmin: 'admin' }, { logger: pino({ level: 'silent' }) });
  const r = await as('admin', '/data/ietf-netconf-acm:nacm', { method: 'PUT', body: JSON.stringify(RULES) });
  expect([201, 204]).toContain(r.status);
});
afterAll(() => gw.close());

describe('event streams of several users at once', () => {
  test.each([
    ['alice', 'bob'],
    ['bob', 'alice'],
  ])(
    'with %s connected first, alice gets a config change on the stream and bob does not',
    async (first, second) => {
      const location = await streamLocation();
      const streams = {
        [first]: await listenAs(first, location),
        [second]: await listenAs(second, location),
      };
      const artist = `Artist of ${first}`;
      const put = await as(
        'alice',
        `/data/example-jukebox:jukebox/library/artist=${encodeURIComponent(artist)}`,
        {
          method: 'PUT',
          body: JSON.stringify({ 'example-jukebox:artist': [{ name: artist }] }),
        },
      );
      expect(put.status).toBe(201);
      gw.backend.netconf!.publish(marker(`after-${first}`));
      const alice = await streams.alice!.until(new RegExp(`after-${first}`));
      const bob = await streams.bob!.until(new RegExp(`after-${first}`));
      await Promise.all([streams.alice!.close(), streams.bob!.close()]);
      expect(alice).toContain('netconf-config-change');
      expect(bob).toContain(`after-${first}`);
      expect(bob).not.toContain('netconf-config-change');
    },
  );
});

describe('kill-subscription is judged by the calling user', () => {
  test("bob's kill-subscription of alice's subscription is 403 and her subscription goes on", async () => {
    const id = await establish('alice');
    const received = await listenAs('alice', `${gw.url}/restconf/subscriptions/${id}`);
    const r = await kill('bob', id);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('access-denied');
    gw.backend.netconf!.publish(marker('still-alive'));
    const text = await received.until(/still-alive/);
    await received.close();
    expect(text).toContain('still-alive');
    expect(text).not.toContain('subscription-terminated');
  });

  test("alice's kill-subscription ends bob's subscription with subscription-terminated", async () => {
    const id = await establish('bob');
    const received = await listenAs('bob', `${gw.url}/restconf/subscriptions/${id}`);
    const r = await kill('alice', id);
    expect(r.status).toBe(204);
    const text = await received.until(/subscription-terminated/);
    expect(text).toContain('subscription-terminated');
    const after = await as('bob', `/subscriptions/${id}`);
    expect(after.status).toBe(404);
  });
});
