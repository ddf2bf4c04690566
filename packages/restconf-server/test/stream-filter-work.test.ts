import { decodeXml } from '@yangkit/yang-json-codec';
import { afterEach, expect, test } from 'vitest';
import { compileEventFilter } from '../src/streams/event-filter.js';
import { FilteredDelivery } from '../src/streams/filtered-delivery.js';
import { MessageCache } from '../src/streams/notification-message.js';
import { exampleSchema, type Gateway, startGateway } from './harness.js';
import { eventXml, openStream } from './streams-helpers.js';

// The filter query parameter (RFC 8040 section 4.8.4) is evaluated on every event: one whose cost
// grows with the square of the event is bounded by streams.maxXPathWork, and every filter is
// evaluated in slices, each client's events in order, so that a big event holds neither the event
// loop nor the other clients.
const NCN = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';
const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
/** Edits of the big event: 60,001 nodes, 3,600,000,000 units under `//*[count(//*) > 0]`. */
const EDITS = 20_000;
/**
 * Edits of the big event clients receive: 6,001 nodes, 36,000,000 units under `//*[count(//*) > 0]`
 * (their SSE messages stay within the test reader's event size).
 */
const RECEIVED_EDITS = 2_000;
const BOUND = 200_000;

let gw: Gateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/** A netconf-config-change of `count` edits, the last one a delete. */
function bigConfigChange(count = EDITS): string {
  const edits = Array.from(
    { length: count },
    (_, i) =>
      `<edit><target xmlns:if="${IF}">/if:interfaces/if:interface[if:name='eth${i}']</target><operation>${i === count - 1 ? 'delete' : 'create'}</operation></edit>`,
  ).join('');
  return `<netconf-config-change xmlns="${NCN}"><changed-by><server/></changed-by><datastore>running</datastore>${edits}</netconf-config-change>`;
}

/** What each event's data is: an example event's class, or `config-change`. */
function kinds(data: readonly string[]): string[] {
  return data.map(
    (d) =>
      /"event-class":"([^"]*)"/.exec(d)?.[1] ?? (d.includes('netconf-config-change') ? 'config-change' : d),
  );
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
  gw.netconf.publish(eventXml('before'));
  gw.netconf.publish(bigConfigChange(RECEIVED_EDITS));
  gw.netconf.publish(bigConfigChange(RECEIVED_EDITS));
  gw.netconf.publish(eventXml('after'));
  const plainEvents = (await plain.takeWith(/event-class|netconf-config-change/, 4)).map((e) => e.data);
  const quadraticEvents = (await quadratic.takeWith(/event-class|netconf-config-change/, 2)).map(
    (e) => e.data,
  );
  quadratic.close();
  plain.close();
  expect(kinds(plainEvents)).toEqual(['before', 'config-change', 'config-change', 'after']);
  // The small events are selected (the expression is evaluated on them within the bound), not the big ones.
  expect(kinds(quadraticEvents)).toEqual(['before', 'after']);
  expect(performance.now() - started).toBeLessThan(20_000);
  const told = warnings.filter((w) => w.includes('units of work'));
  expect(told).toHaveLength(1);
  expect(told[0]).toContain(`${BOUND} units of work`);
}, 60_000);

test('a linear filter over a big event selects it, tested in slices with turns of the event loop between them', async () => {
  const schema = await exampleSchema();
  const tree = decodeXml(
    schema,
    `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>${bigConfigChange()}</notification>`,
    { kind: 'notification' },
  );
  const filter = compileEventFilter(
    schema,
    "//ietf-netconf-notifications:edit[ietf-netconf-notifications:operation = 'delete']",
    5_000_000,
  );
  const sent: string[] = [];
  const delivery = new FilteredDelivery(filter, new MessageCache(), 1000, {
    send: (n) => sent.push(n.eventTime),
    overBound: () => sent.push('over the bound'),
    overflow: () => sent.push('overflow'),
  });
  delivery.deliver({ eventTime: 'big', tree });
  delivery.deliver({ eventTime: 'end', tree, control: 'notificationComplete' });
  // Still being tested when deliver returns: the rest runs in later turns.
  expect(sent).toEqual([]);
  let turns = 0;
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    turns++;
  }, 0);
  await delivery.sent();
  clearInterval(ticker);
  expect(sent).toEqual(['big', 'end']);
  expect(turns).toBeGreaterThan(1);
  // Generous: a slice is about 5 ms; a loaded machine stretches it.
  expect(longest).toBeLessThan(200);
}, 30_000);
