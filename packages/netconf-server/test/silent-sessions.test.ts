import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { duplexPair } from '../src/index.js';
import type { NetconfServer } from '../src/server.js';
import { client, testServer } from './helpers.js';

// Sessions an application opens to serve its own clients (a RESTCONF gateway's) are not
// announced with RFC 6470 netconf-session-start/-end: every event subscriber would otherwise learn
// of other clients' requests, and N such sessions open at once would cost N² events.
let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

async function connect(username: string, silent: boolean): Promise<NetconfSession> {
  const [a, b] = duplexPair();
  server.connect(a, { username }, { silent });
  return connectStream(b);
}

test('a silent session publishes neither session-start nor session-end; a client session does', async () => {
  server = await testServer();
  const watcher = await client(server, 'watcher');
  await watcher.createSubscription();
  const seen: string[] = [];
  const watching = (async () => {
    for await (const note of watcher.notifications()) {
      const user = /<username>([^<]*)<\/username>/.exec(note.xml)?.[1];
      const kind = /netconf-session-(start|end)/.exec(note.xml)?.[1];
      if (kind !== undefined) seen.push(`${kind} ${user}`);
      if (seen.includes('end client')) return;
    }
  })();
  await (await connect('plumbing', true)).close();
  await (await connect('client', false)).close();
  await watching;
  expect(seen).toEqual(['start client', 'end client']);
});
