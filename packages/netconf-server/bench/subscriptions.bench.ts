import { duplexPair } from '@yangkit/netconf-client';
import { readXmlDocument } from '@yangkit/xml';
import { bench, describe } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import type { ServerSession } from '../src/session.js';
import { testServer } from '../test/helpers.js';

const SUBSCRIBERS = 100;
const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const HELLO =
  '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities></hello>]]>]]>';
const EVENT =
  '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>major</severity></event>';

/** An established session whose peer reads and drops everything the server sends. */
async function session(server: NetconfServer): Promise<ServerSession> {
  const [a, b] = duplexPair();
  const s = server.connect(a, { username: 'bench' });
  b.resume();
  b.write(HELLO);
  while (!s.established) await new Promise((r) => setImmediate(r));
  return s;
}

/** A server with `SUBSCRIBERS` stream subscriptions, each with the filter `filter` (XML). */
async function subscribed(filter: string | undefined): Promise<NetconfServer> {
  // All of one user, past the default bounds of subscriptions.
  const server = await testServer({ maxSubscriptionsPerUser: SUBSCRIBERS, maxSubscriptions: SUBSCRIBERS });
  if (filter === undefined) return server;
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const s = await session(server);
    await server.dynamic.establish(
      s,
      readXmlDocument(
        `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream>${filter}</establish-subscription>`,
      ),
    );
  }
  return server;
}

const none = await subscribed(undefined);
const all = await subscribed('');
const matching = await subscribed(
  "<stream-xpath-filter>/example-mod:event[example-mod:severity='major']</stream-xpath-filter>",
);
const dropping = await subscribed(
  "<stream-xpath-filter>/example-mod:event[example-mod:severity='minor']</stream-xpath-filter>",
);
const subtree = await subscribed(
  '<stream-subtree-filter><event xmlns="http://example.com/event/1.0"><severity>major</severity></event></stream-subtree-filter>',
);

describe(`publish one event (server side) to ${SUBSCRIBERS} RFC 8639 subscriptions`, () => {
  bench('no subscription (baseline: parse and log the event)', () => {
    none.publish(EVENT);
  });
  bench('no filter', () => {
    all.publish(EVENT);
  });
  bench('xpath filter that matches', () => {
    matching.publish(EVENT);
  });
  bench('xpath filter that drops the event', () => {
    dropping.publish(EVENT);
  });
  bench('subtree filter that matches', () => {
    subtree.publish(EVENT);
  });
});
