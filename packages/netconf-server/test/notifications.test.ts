import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, iface, rpcErrorOf, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

async function next(
  session: NetconfSession,
  match: (n: NetconfNotification) => boolean,
): Promise<NetconfNotification> {
  for await (const n of session.notifications()) if (match(n)) return n;
  throw new Error('notification stream ended');
}

test('a commit sends netconf-config-change to a subscribed session', async () => {
  server = await testServer();
  const sub = await client(server);
  const editor = await client(server, 'editor');
  await sub.createSubscription();
  const seen = next(sub, (n) => n.xml.includes('netconf-config-change'));
  await editor.editConfig({ target: 'running', config: iface('eth0') });
  const n = await seen;
  expect(n.xml).toContain('<username>editor</username>');
  expect(n.xml).toContain('<datastore>running</datastore>');
  expect(n.xml).toMatch(/<target[^>]*>\/if:interfaces<\/target><operation>create<\/operation>/);
});

test('replay sends logged events, then replayComplete', async () => {
  server = await testServer();
  const editor = await client(server);
  await editor.editConfig({ target: 'running', config: iface('eth0') });
  const sub = await client(server);
  const received: string[] = [];
  const done = (async () => {
    for await (const n of sub.notifications()) {
      received.push(n.xml);
      if (n.xml.includes('replayComplete')) return;
    }
  })();
  await sub.createSubscription({ startTime: new Date(Date.now() - 60_000).toISOString() });
  await done;
  expect(received.some((x) => x.includes('netconf-config-change'))).toBe(true);
  expect(received.some((x) => x.includes('netconf-session-start'))).toBe(true);
});

test('a subtree filter limits the events delivered', async () => {
  server = await testServer();
  const sub = await client(server);
  await sub.createSubscription({
    filter: {
      subtree: '<netconf-session-start xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications"/>',
    },
  });
  const first = next(sub, () => true);
  const editor = await client(server, 'late');
  await editor.editConfig({ target: 'running', config: iface('eth0') });
  const n = await first;
  expect(n.xml).toContain('netconf-session-start');
  expect(n.xml).toContain('<username>late</username>');
});

test('an application event is checked against the schema and delivered', async () => {
  server = await testServer();
  const sub = await client(server);
  await sub.createSubscription();
  const seen = next(sub, (x) => x.xml.includes('<event'));
  server.publish(
    '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><reporting-entity><card>Ethernet0</card></reporting-entity><severity>major</severity></event>',
  );
  const n = await seen;
  expect(n.xml).toContain('<card>Ethernet0</card>');
});

test('a second subscription on one session is refused', async () => {
  server = await testServer();
  const sub = await client(server);
  await sub.createSubscription();
  const e = await rpcErrorOf(sub.createSubscription());
  expect(e.errors[0]!.errorTag).toBe('in-use');
});

test('an xpath filter selects the events delivered', async () => {
  server = await testServer();
  const sub = await client(server);
  await sub.createSubscription({
    filter: { xpath: "/ev:event[ev:severity='major']", namespaces: { ev: 'http://example.com/event/1.0' } },
  });
  const seen = next(sub, (x) => x.xml.includes('<event'));
  server.publish(
    '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>minor</severity></event>',
  );
  server.publish(
    '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>major</severity></event>',
  );
  expect((await seen).xml).toContain('<severity>major</severity>');
});

test('an xpath filter that does not compile is refused by create-subscription with invalid-value', async () => {
  server = await testServer();
  const sub = await client(server);
  const e = await rpcErrorOf(sub.createSubscription({ filter: { xpath: '/ev:event[', namespaces: {} } }));
  expect(e.errors[0]!.errorTag).toBe('invalid-value');
  // The session has no subscription: a valid one can still be made, and events go on.
  await sub.createSubscription();
  const seen = next(sub, (x) => x.xml.includes('<event'));
  server.publish('<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class></event>');
  expect((await seen).xml).toContain('<event-class>fault</event-class>');
});
