import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, testServer } from './helpers.js';

// A stream subscription's filter is evaluated on every event: one whose cost grows with the square
// of the event (a walk of the whole event for every node) is bounded by the server's maxXPathWork,
// and every filter is evaluated in slices, each subscriber's events in order, so that a big event
// holds neither the event loop nor the other subscribers.
const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const NCN = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';
const EVENT_NS = 'http://example.com/event/1.0';
/** A walk of the whole event for every node of it. */
const QUADRATIC = '//*[count(//*) > 0]';
/** Edits of the big event: 60,001 nodes, 3,600,000,000 units under {@link QUADRATIC}. */
const EDITS = 20_000;
const BOUND = 200_000;

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

/**
 * A netconf-config-change of {@link EDITS} edits (the server writes at most 64 in its own; an
 * application's events are as big as it makes them), the last one a delete.
 */
function bigConfigChange(): string {
  const edits = Array.from(
    { length: EDITS },
    (_, i) =>
      `<edit><target xmlns:if="${IF}">/if:interfaces/if:interface[if:name='eth${i}']</target><operation>${i === EDITS - 1 ? 'delete' : 'create'}</operation></edit>`,
  ).join('');
  return `<netconf-config-change xmlns="${NCN}"><changed-by><server/></changed-by><datastore>running</datastore>${edits}</netconf-config-change>`;
}

/** A small application event naming `card`. */
function smallEvent(card: string): string {
  return `<event xmlns="${EVENT_NS}"><event-class>fault</event-class><reporting-entity><card>${card}</card></reporting-entity><severity>major</severity></event>`;
}

/** The next `count` notifications of `session` that `keep` keeps. */
async function take(
  session: NetconfSession,
  count: number,
  keep: (n: NetconfNotification) => boolean = () => true,
): Promise<string[]> {
  const out: string[] = [];
  if (count === 0) return out;
  for await (const n of session.notifications()) {
    if (!keep(n)) continue;
    out.push(n.xml);
    if (out.length === count) break;
  }
  return out;
}

/** What each notification of `texts` is: `config-change`, a card's name, or a subscription state change. */
function kinds(texts: readonly string[]): string[] {
  return texts.map(
    (x) =>
      /<card>([^<]*)<\/card>/.exec(x)?.[1] ??
      (x.includes('netconf-config-change') ? 'config-change' : (/<(subscription-[a-z]+)/.exec(x)?.[1] ?? x)),
  );
}

const isEvent = (n: NetconfNotification) =>
  n.xml.includes('<card>') || n.xml.includes('netconf-config-change');

test('an RFC 5277 filter that passes the bound on a big event does not select it, once warned, and the other subscribers get every event in order', async () => {
  const warnings: string[] = [];
  server = await testServer({ maxXPathWork: BOUND, logger: { warn: (m) => warnings.push(m) } });
  const quadratic = await client(server);
  await quadratic.createSubscription({ filter: { xpath: QUADRATIC } });
  const plain = await client(server);
  await plain.createSubscription();
  const plainEvents = take(plain, 4, isEvent);
  const quadraticEvents = take(quadratic, 2, isEvent);
  const started = performance.now();
  server.publish(smallEvent('before'));
  server.publish(bigConfigChange());
  server.publish(bigConfigChange());
  server.publish(smallEvent('after'));
  expect(kinds(await plainEvents)).toEqual(['before', 'config-change', 'config-change', 'after']);
  // The small events are selected (the expression is evaluated on them within the bound), not the big ones.
  expect(kinds(await quadraticEvents)).toEqual(['before', 'after']);
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`${BOUND} units of work`);
}, 30_000);

test('an RFC 8639 stream subscription whose filter passes the bound on a big event is terminated with filter-unavailable; the others go on in order', async () => {
  const warnings: string[] = [];
  server = await testServer({ maxXPathWork: BOUND, logger: { warn: (m) => warnings.push(m) } });
  const quadratic = await client(server);
  await quadratic.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream><stream-xpath-filter>${QUADRATIC}</stream-xpath-filter></establish-subscription>`,
  );
  const plain = await client(server);
  await plain.rpc(`<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`);
  const plainEvents = take(plain, 3, isEvent);
  const quadraticSeen = take(quadratic, 2, (n) => isEvent(n) || n.xml.includes('subscription-terminated'));
  const started = performance.now();
  server.publish(smallEvent('before'));
  server.publish(bigConfigChange());
  server.publish(smallEvent('after'));
  expect(kinds(await plainEvents)).toEqual(['before', 'config-change', 'after']);
  const seen = await quadraticSeen;
  expect(kinds(seen)).toEqual(['before', 'subscription-terminated']);
  expect(seen[1]).toContain('<reason>filter-unavailable</reason>');
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`${BOUND} units of work`);
}, 30_000);

test('a linear filter over a big event selects what it names, evaluated in slices that hold the event loop briefly', async () => {
  server = await testServer();
  const linear = await client(server);
  await linear.createSubscription({
    filter: { xpath: "//ncn:edit[ncn:operation = 'delete']", namespaces: { ncn: NCN } },
  });
  const serverSide = [...server.sessions.values()].find((s) => s.id === linear.sessionId)!;
  const received = take(linear, 1, (n) => n.xml.includes('netconf-config-change'));
  const event = bigConfigChange();
  const sentBefore = serverSide.counters.outNotifications;
  server.publish(event);
  // Still on its way when publish returns: the rest of the evaluation runs in later turns.
  expect(serverSide.counters.outNotifications).toBe(sentBefore);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const [xml] = await received;
  delay.disable();
  // Generous: a slice is about 5 ms; a loaded machine stretches it.
  expect(delay.max / 1e6).toBeLessThan(200);
  expect(xml).toContain(`eth${EDITS - 1}`);
  expect(xml).toContain('<operation>delete</operation>');
  expect(xml).not.toContain("'eth0'");
}, 30_000);

test('events that come while as many wait for a stream subscription filter as the replay log keeps are dropped, and an RFC 8639 receiver is told by a suspension', async () => {
  const warnings: string[] = [];
  server = await testServer({ replayLogSize: 3, logger: { warn: (m) => warnings.push(m) } });
  const linear = await client(server);
  await linear.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream><stream-xpath-filter>//ietf-netconf-notifications:edit[ietf-netconf-notifications:operation = 'delete'] | //*[local-name() = 'card']</stream-xpath-filter></establish-subscription>`,
  );
  const relevant = (n: NetconfNotification) => isEvent(n) || n.xml.includes('subscription-');
  const seen = take(linear, 5, relevant);
  // The big event takes its filter many slices: the small ones published meanwhile wait behind it.
  server.publish(bigConfigChange());
  for (const card of ['a', 'b', 'c', 'd', 'e']) server.publish(smallEvent(card));
  const got = await seen;
  expect(kinds(got)).toEqual(['config-change', 'a', 'b', 'subscription-suspended', 'subscription-resumed']);
  expect(got[3]).toContain('<reason>insufficient-resources</reason>');
  expect(warnings.some((w) => w.includes('events are dropped'))).toBe(true);
  // Then the subscription's events go on.
  const next = take(linear, 1, relevant);
  server.publish(smallEvent('later'));
  expect(kinds(await next)).toEqual(['later']);
}, 30_000);

test('events dropped for an RFC 5277 subscription whose filter falls behind end its session once those waiting are written, so that its client knows', async () => {
  const warnings: string[] = [];
  server = await testServer({ replayLogSize: 3, logger: { warn: (m) => warnings.push(m) } });
  const behind = await client(server);
  await behind.createSubscription({
    filter: {
      xpath: "//ncn:edit[ncn:operation = 'delete'] | //*[local-name() = 'card']",
      namespaces: { ncn: NCN },
    },
  });
  const other = await client(server);
  const seen = take(behind, 3, isEvent);
  // The big event takes its filter many slices: the small ones published meanwhile wait behind it.
  server.publish(bigConfigChange());
  for (const card of ['a', 'b', 'c', 'd', 'e']) server.publish(smallEvent(card));
  expect(kinds(await seen)).toEqual(['config-change', 'a', 'b']);
  expect((await behind.closed).reason).toBe('transport-closed');
  expect(warnings.some((w) => w.includes(`session ${behind.sessionId} is ended`))).toBe(true);
  // The other sessions go on.
  expect((await other.rpc('<get-config><source><running/></source></get-config>')).xml).toContain('<data');
}, 30_000);
