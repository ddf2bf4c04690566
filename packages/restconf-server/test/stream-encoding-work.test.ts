import { encodeEvent } from '@yangkit/sse-stream';
import { decodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { expect, test } from 'vitest';
import { turnsUntil } from '../../../test-support/turns.js';
import type { BackendNotification } from '../src/backend.js';
import type { Encoding } from '../src/media.js';
import { EventDelivery } from '../src/streams/event-delivery.js';
import { MessageCache, notificationMessage } from '../src/streams/notification-message.js';
import { exampleSchema } from './harness.js';

// The SSE event of a notification is encoded in steps run by each client's queue, shared by the
// clients: a big event (the config-change of a big edit) holds neither the event loop nor the other
// clients, and is encoded once per encoding.
const NCN = 'urn:ietf:params:xml:ns:yang:ietf-netconf-notifications';

/** A netconf-config-change (RFC 6470) of `count` playlist creations, as the backend gives it. */
function configChange(schema: SchemaTree, count: number, eventTime: string): BackendNotification {
  const edits = Array.from(
    { length: count },
    (_, i) =>
      `<edit><target xmlns:jbox="http://example.com/ns/example-jukebox">/jbox:jukebox/jbox:playlist[jbox:name='p-${i}']</target><operation>create</operation></edit>`,
  ).join('');
  const xml = `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>${eventTime}</eventTime><netconf-config-change xmlns="${NCN}"><changed-by><server/></changed-by><datastore>running</datastore>${edits}</netconf-config-change></notification>`;
  return { eventTime, tree: decodeXml(schema, xml, { kind: 'notification' }) };
}

let decodedBig: Promise<BackendNotification> | undefined;

/**
 * A config-change of 50,000 edits, decoded once for the tests (each has a cache of its own): its
 * encoding takes slices enough for the event loop to turn in between on any machine.
 */
function bigChange(): Promise<BackendNotification> {
  decodedBig ??= exampleSchema().then((schema) => configChange(schema, 50_000, '2026-01-01T00:00:00Z'));
  return decodedBig;
}

/** A client of `messages` without a filter: what it is sent, by event time, and its bytes. */
function client(schema: SchemaTree, messages: MessageCache, encoding: Encoding, indent = 0) {
  const sent: { eventTime: string; event: Uint8Array }[] = [];
  const delivery = new EventDelivery(
    { schema, filter: undefined, messages, format: { encoding, indent }, maxWaiting: 1000 },
    {
      send: (n, event) => sent.push({ eventTime: n.eventTime, event }),
      notEncoded: (n) => sent.push({ eventTime: `not encoded: ${n.eventTime}`, event: new Uint8Array() }),
      overBound: () => {},
      overflow: () => sent.push({ eventTime: 'overflow', event: new Uint8Array() }),
    },
  );
  return { delivery, sent, times: () => sent.map((s) => s.eventTime) };
}

test.each([
  ['json', 0],
  ['json', 2],
  ['xml', 0],
] as const)(
  'a big event in %s (indent %d) is encoded in slices, once for its clients, with the bytes of the whole message, and a small one after it keeps its place',
  async (encoding, indent) => {
    const schema = await exampleSchema();
    const big = await bigChange();
    const small = configChange(schema, 1, '2026-01-01T00:00:01Z');
    const messages = new MessageCache();
    const a = client(schema, messages, encoding, indent);
    const b = client(schema, messages, encoding, indent);
    for (const c of [a, b]) {
      c.delivery.deliver(big);
      c.delivery.deliver(small);
    }
    // Still being encoded when deliver returns; the event loop gets turns until it ends.
    expect(a.sent).toEqual([]);
    const turns = await turnsUntil(Promise.all([a.delivery.sent(), b.delivery.sent()]));
    expect(turns).toBeGreaterThan(1);
    expect(a.times()).toEqual([big.eventTime, small.eventTime]);
    expect(b.times()).toEqual([big.eventTime, small.eventTime]);
    // The same bytes as the message encoded whole, and one encoding the two clients share.
    const whole = encodeEvent({ data: notificationMessage(schema, big, encoding, indent) });
    expect(Buffer.from(a.sent[0]!.event).equals(Buffer.from(whole))).toBe(true);
    expect(b.sent[0]!.event).toBe(a.sent[0]!.event);
  },
  60_000,
);

test('an event another client has encoded waits behind the events before it', async () => {
  const schema = await exampleSchema();
  const big = await bigChange();
  const small = configChange(schema, 1, '2026-01-01T00:00:01Z');
  const messages = new MessageCache();
  const first = client(schema, messages, 'json');
  const behind = client(schema, messages, 'json');
  // Encoded at once for the first client, while the big event waits for the other's steps.
  behind.delivery.deliver(big);
  first.delivery.deliver(small);
  behind.delivery.deliver(small);
  expect(first.times()).toEqual([small.eventTime]);
  expect(behind.times()).toEqual([]);
  await behind.delivery.sent();
  expect(behind.times()).toEqual([big.eventTime, small.eventTime]);
  expect(behind.sent[1]!.event).toBe(first.sent[0]!.event);
}, 60_000);

test('a client that leaves while a big event is encoded leaves the rest of the encoding to the others', async () => {
  const schema = await exampleSchema();
  const big = await bigChange();
  const messages = new MessageCache();
  const leaving = client(schema, messages, 'json');
  const staying = client(schema, messages, 'json');
  leaving.delivery.deliver(big);
  staying.delivery.deliver(big);
  await new Promise((resolve) => setImmediate(resolve));
  leaving.delivery.clear();
  await staying.delivery.sent();
  expect(leaving.sent).toEqual([]);
  expect(staying.times()).toEqual([big.eventTime]);
  const whole = encodeEvent({ data: notificationMessage(schema, big, 'json', 0) });
  expect(Buffer.from(staying.sent[0]!.event).equals(Buffer.from(whole))).toBe(true);
}, 60_000);

test('a small event is encoded and sent in the turn it came in', async () => {
  const schema = await exampleSchema();
  const c = client(schema, new MessageCache(), 'xml');
  c.delivery.deliver(configChange(schema, 1, '2026-01-01T00:00:00Z'));
  expect(c.times()).toEqual(['2026-01-01T00:00:00Z']);
});
