import { decodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, expect, test } from 'vitest';
import { turnsUntil } from '../../../test-support/turns.js';
import { EventDelivery, type EventDeliveryTarget } from '../src/streams/event-delivery.js';
import type { EventFilter } from '../src/streams/event-filter.js';
import { compileEventFilter } from '../src/streams/event-filter.js';
import { MessageCache } from '../src/streams/notification-message.js';
import { exampleSchema, type Gateway, startGateway } from './harness.js';
import { eventXml, openStream } from './streams-helpers.js';

// The filter query parameter (RFC 8040 section 4.8.4) is evaluated on every event: one whose cost
// grows with the square of the event is bounded by streams.maxXPathWork, and every filter is
// evaluated in slices, each client's events in order, so that a big event holds neither the event
// loop nor the other clients.
const NCN = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';
const BOUND = 200_000;

let gw: Gateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/**
 * An RFC 6470 netconf-capability-change adding `count` capabilities (`urn:example:capability:i`):
 * `count` + 2 nodes, the square of that in units under `//*[count(//*) > 0]`.
 */
function capabilityChange(count: number): string {
  const added = Array.from({ length: count }, (_, i) => `urn:example:capability:${i}`);
  return `<netconf-capability-change xmlns="${NCN}"><changed-by><server/></changed-by><added-capability>${added.join('</added-capability><added-capability>')}</added-capability></netconf-capability-change>`;
}

/** What each event's data is: an example event's class, or `capability-change`. */
function kinds(data: readonly string[]): string[] {
  return data.map(
    (d) =>
      /"event-class":"([^"]*)"/.exec(d)?.[1] ??
      (d.includes('netconf-capability-change') ? 'capability-change' : d),
  );
}

/** A delivery of JSON events through `filter`, at most `maxWaiting` waiting. */
function jsonDelivery(
  schema: SchemaTree,
  filter: EventFilter | undefined,
  maxWaiting: number,
  target: EventDeliveryTarget,
): EventDelivery {
  const format = { encoding: 'json', indent: 0 } as const;
  return new EventDelivery({ schema, filter, messages: new MessageCache(), format, maxWaiting }, target);
}

test('a filter that passes the bound on a big event does not select it, once warned, and the other clients get every event in order', async () => {
  const warnings: string[] = [];
  const logger = { info() {}, warn: (m: string) => warnings.push(m), error() {} };
  gw = await startGateway({ streams: { maxXPathWork: BOUND }, logger });
  const quadratic = await openStream(
    `${gw.url}/restconf/streams/json-NETCONF?filter=${encodeURIComponent('//*[count(//*) > 0]')}`,
  );
  const plain = await openStream(`${gw.url}/restconf/streams/json-NETCONF`);
  const started = performance.now();
  // 5,000 capabilities: 25,000,000 units each; their messages stay within the test reader's event size.
  gw.netconf.publish(eventXml('before'));
  gw.netconf.publish(capabilityChange(5000));
  gw.netconf.publish(capabilityChange(5000));
  gw.netconf.publish(eventXml('after'));
  const marker = /event-class|netconf-capability-change/;
  const plainEvents = (await plain.takeWith(marker, 4)).map((e) => e.data);
  const quadraticEvents = (await quadratic.takeWith(marker, 2)).map((e) => e.data);
  quadratic.close();
  plain.close();
  expect(kinds(plainEvents)).toEqual(['before', 'capability-change', 'capability-change', 'after']);
  // The small events are selected (the expression is evaluated on them within the bound), not the big ones.
  expect(kinds(quadraticEvents)).toEqual(['before', 'after']);
  expect(performance.now() - started).toBeLessThan(20_000);
  const told = warnings.filter((w) => w.includes('units of work'));
  expect(told).toHaveLength(1);
  expect(told[0]).toContain(`${BOUND} units of work`);
}, 60_000);

test('a linear filter over a big event selects it, tested in slices that give the event loop turns, control events after it', async () => {
  const schema = await exampleSchema();
  const tree = decodeXml(
    schema,
    `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>${capabilityChange(50_000)}</notification>`,
    { kind: 'notification' },
  );
  const filter = compileEventFilter(
    schema,
    "//ietf-netconf-notifications:added-capability[. = 'urn:example:capability:49999']",
    5_000_000,
  );
  const sent: string[] = [];
  const delivery = jsonDelivery(schema, filter, 1000, {
    send: (n) => sent.push(n.eventTime),
    notEncoded: () => sent.push('not encoded'),
    overBound: () => sent.push('over the bound'),
    overflow: () => sent.push('overflow'),
  });
  delivery.deliver({ eventTime: 'big', tree });
  delivery.deliver({ eventTime: 'end', tree, control: 'notificationComplete' });
  // Still being tested when deliver returns; the event loop gets turns until it ends.
  expect(sent).toEqual([]);
  expect(await turnsUntil(delivery.sent())).toBeGreaterThan(1);
  expect(sent).toEqual(['big', 'end']);
}, 30_000);

test("more events waiting for a client's filter than its queue may hold drop what waits and disconnect it", async () => {
  const schema = await exampleSchema();
  const tree = decodeXml(
    schema,
    `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>${capabilityChange(50_000)}</notification>`,
    { kind: 'notification' },
  );
  const filter = compileEventFilter(schema, '//ietf-netconf-notifications:added-capability', 5_000_000);
  const told: string[] = [];
  const delivery = jsonDelivery(schema, filter, 2, {
    send: (n) => told.push(n.eventTime),
    notEncoded: () => told.push('not encoded'),
    overBound: () => told.push('over the bound'),
    overflow: () => told.push('overflow'),
  });
  // The big event is still being tested when the next come: two wait, the third is one too many.
  delivery.deliver({ eventTime: 'big', tree });
  delivery.deliver({ eventTime: 'second', tree });
  delivery.deliver({ eventTime: 'third', tree });
  expect(told).toEqual(['overflow']);
  await delivery.sent();
  // What waited was dropped with the client.
  expect(told).toEqual(['overflow']);
}, 30_000);
