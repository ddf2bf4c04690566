import type { NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, testServer } from './helpers.js';

// RFC 6470 netconf-session-end is published to every subscribed session. Sessions that end
// together (an application closing all its event streams at shutdown) must not each get the
// events of all the others: that is the square of their number.
const SESSIONS = 40;
const SESSION_END = 'netconf-session-end';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

/** Sessions subscribed to the NETCONF stream, each counting the netconf-session-end events it gets. */
async function subscribed(n: number): Promise<{ sessions: NetconfSession[]; ends: () => number }> {
  let ends = 0;
  const sessions = await Promise.all(Array.from({ length: n }, () => client(server)));
  for (const s of sessions) {
    await s.createSubscription();
    void (async () => {
      for await (const note of s.notifications()) if (note.xml.includes(SESSION_END)) ends++;
    })();
  }
  return { sessions, ends: () => ends };
}

test('sessions closing together get no netconf-session-end events of one another', async () => {
  server = await testServer();
  const { sessions, ends } = await subscribed(SESSIONS);
  const watcher = await client(server);
  let seen = 0;
  await watcher.createSubscription();
  const watching = (async () => {
    for await (const note of watcher.notifications()) {
      if (note.xml.includes(SESSION_END) && ++seen === SESSIONS) return;
    }
  })();
  await Promise.all(sessions.map((s) => s.close()));
  await watching;
  // A session still subscribed hears of every end; the ending ones heard of none.
  expect(seen).toBe(SESSIONS);
  expect(ends()).toBe(0);
});

test('closing the server publishes no netconf-session-end for the sessions it ends', async () => {
  server = await testServer();
  await subscribed(SESSIONS);
  const logged = (): number => server.events.between(0, Number.POSITIVE_INFINITY).length;
  const before = logged();
  await server.close();
  expect(logged()).toBe(before);
});
