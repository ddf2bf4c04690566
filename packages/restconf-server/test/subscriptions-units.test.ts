import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadServerSchema } from '@yangkit/netconf-server';
import { decodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { BackendNotification, BackendSubscription } from '../src/backend.js';
import type { Encoding } from '../src/media.js';
import { RESTCONF_MODULES } from '../src/modules.js';
import { Responder } from '../src/response.js';
import { streamSettings } from '../src/streams/index.js';
import {
  clientOf,
  type EndReason,
  recordBasicUser,
  requesterOf,
  Subscription,
  subscriptionModules,
} from '../src/subscriptions/index.js';
import { basicUserOf } from '../src/subscriptions/requester.js';
import { YANG_DIR } from './harness.js';
import { openStream } from './streams-helpers.js';

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const URI = 'http://localhost/restconf/subscriptions/7';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadServerSchema({
    paths: [YANG_DIR],
    modules: ['example-mod', ...RESTCONF_MODULES, 'ietf-restconf-subscribed-notifications', 'ietf-yang-push'],
  });
});

type FakeSubscription = BackendSubscription & { closed: boolean; reading: boolean };

/** A backend subscription stand-in that records whether it was closed and whether it is taken from. */
function fakeSubscription(): FakeSubscription {
  const s = {
    closed: false,
    reading: true,
    output: undefined,
    close: () => {
      s.closed = true;
    },
    pause: () => {
      s.reading = false;
    },
    resume: () => {
      s.reading = true;
    },
    invoke: async () => {
      s.reading = true;
      return decodeXml(
        schema,
        '<output xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"/>',
        {
          kind: 'rpc-output',
          operation: 'ietf-subscribed-notifications:delete-subscription',
        },
      );
    },
    async *[Symbol.asyncIterator]() {},
  };
  return s;
}

/** A notification as the backend delivers it: decoded. */
function notification(inner: string): BackendNotification {
  const text = `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>${inner}</notification>`;
  return {
    eventTime: '2026-01-01T00:00:00Z',
    tree: decodeXml(schema, text, { kind: 'notification', strict: false }),
  };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A subscription and an HTTP server whose every GET receives it. */
async function serve(
  encoding: Encoding,
  options: {
    maxQueuedEvents?: number;
    maxQueuedBytes?: number;
    receiveWithinMs?: number;
    datastore?: boolean;
  } = {},
): Promise<{
  sub: Subscription;
  url: string;
  session: FakeSubscription;
  ends: EndReason[];
}> {
  const session = fakeSubscription();
  const ends: EndReason[] = [];
  const sub = new Subscription(
    7,
    undefined,
    encoding,
    session,
    {
      schema,
      streams: streamSettings({
        maxQueuedEvents: options.maxQueuedEvents ?? 100,
        ...(options.maxQueuedBytes === undefined ? {} : { maxQueuedBytes: options.maxQueuedBytes }),
      }),
      messageIndent: -1,
      uri: URI,
      datastore: options.datastore ?? false,
      onEnd: (reason) => ends.push(reason),
    },
    options.receiveWithinMs ?? 60_000,
  );
  const http = createServer((req, res) => void sub.receive(new Responder(req, res)));
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { sub, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`, session, ends };
}

describe('Subscription', () => {
  test('notifications that arrive before the GET are delivered to it in order', async () => {
    const { sub, url } = await serve('json');
    await sub.deliver(
      notification(`<event xmlns="http://example.com/event/1.0"><event-class>one</event-class></event>`),
    );
    await sub.deliver(
      notification(`<event xmlns="http://example.com/event/1.0"><event-class>two</event-class></event>`),
    );
    const s = await openStream(url);
    const events = await s.take(2);
    s.close();
    expect(events.map((e) => /"event-class":"(\w+)"/.exec(e.data)?.[1])).toEqual(['one', 'two']);
  });

  test('subscription-modified carries the RFC 8650 uri in JSON', async () => {
    const { sub, url } = await serve('json');
    const s = await openStream(url);
    await sub.deliver(
      notification(
        `<subscription-modified xmlns="${SN}"><id>7</id><stream>NETCONF</stream></subscription-modified>`,
      ),
    );
    const [event] = await s.take(1);
    s.close();
    const n = (JSON.parse(event!.data) as Record<string, Record<string, Record<string, unknown>>>)[
      'ietf-restconf:notification'
    ]!;
    expect(n['ietf-subscribed-notifications:subscription-modified']).toEqual({
      id: 7,
      stream: 'NETCONF',
      'ietf-restconf-subscribed-notifications:uri': URI,
    });
  });

  test('subscription-modified carries the RFC 8650 uri in XML', async () => {
    const { sub, url } = await serve('xml');
    const s = await openStream(url);
    await sub.deliver(
      notification(`<subscription-modified xmlns="${SN}"><id>7</id></subscription-modified>`),
    );
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain(
      `<uri xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications">${URI}</uri></subscription-modified>`,
    );
  });

  // subscription-started is if-feature "configured" (RFC 8639 section 2.7.1): a schema that leaves
  // the feature out cannot express it, in either encoding.
  test('an event the schema cannot express is skipped, in XML too', async () => {
    const { sub, url } = await serve('xml');
    const s = await openStream(url);
    await sub.deliver(
      notification(
        `<subscription-started xmlns="${SN}"><id>7</id><stream>NETCONF</stream></subscription-started>`,
      ),
    );
    await sub.deliver(
      notification(`<event xmlns="http://example.com/event/1.0"><event-class>one</event-class></event>`),
    );
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('<event-class>one</event-class>');
  });

  test('a backend subscription-terminated is delivered once and ends the stream and session', async () => {
    const { sub, url, session, ends } = await serve('json');
    const s = await openStream(url);
    await sub.deliver(
      notification(
        `<subscription-terminated xmlns="${SN}"><id>7</id><reason>suspension-timeout</reason></subscription-terminated>`,
      ),
    );
    sub.killed();
    const events = await s.take(2);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toContain('subscription-terminated');
    expect(session.closed).toBe(true);
    expect(ends).toEqual(['killed']);
  });

  test('kill-subscription with no backend notice tells the receiver with subscription-terminated', async () => {
    const { sub, url } = await serve('json');
    const s = await openStream(url);
    sub.killed();
    const events = await s.take(2);
    expect(events).toHaveLength(1);
    const n = JSON.parse(events[0]!.data) as Record<string, Record<string, unknown>>;
    expect(n['ietf-restconf:notification']!['ietf-subscribed-notifications:subscription-terminated']).toEqual(
      {
        id: 7,
        reason: 'no-such-subscription',
      },
    );
  });

  test('an XML receiver of a killed subscription gets subscription-terminated in XML', async () => {
    const { sub, url } = await serve('xml');
    const s = await openStream(url);
    sub.killed();
    const [event] = await s.take(1);
    expect(event!.data).toMatch(
      new RegExp(
        `<subscription-terminated xmlns="${SN}"><id>7</id><reason[^>]*>(\\w+:)?no-such-subscription</reason>`,
      ),
    );
  });

  test('subscription-modified to a JSON receiver leaves out the backend encode-xml', async () => {
    const { sub, url } = await serve('json');
    const s = await openStream(url);
    await sub.deliver(
      notification(
        `<subscription-modified xmlns="${SN}"><id>7</id><stream>NETCONF</stream><encoding>encode-xml</encoding></subscription-modified>`,
      ),
    );
    const [event] = await s.take(1);
    s.close();
    const n = JSON.parse(event!.data) as Record<string, Record<string, Record<string, unknown>>>;
    const modified = n['ietf-restconf:notification']!['ietf-subscribed-notifications:subscription-modified']!;
    expect(modified.encoding).toBeUndefined();
    expect(modified['ietf-restconf-subscribed-notifications:uri']).toBe(URI);
  });

  test('a queue that overflows before the GET ends the subscription', async () => {
    const { sub, ends, session } = await serve('xml', { maxQueuedEvents: 2 });
    for (let i = 0; i < 3; i++)
      await sub.deliver(notification(`<event xmlns="http://example.com/event/1.0"/>`));
    expect(ends).toEqual(['overflow']);
    expect(session.closed).toBe(true);
  });

  test('a queue past its byte bound before the GET ends the subscription', async () => {
    const { sub, ends } = await serve('xml', { maxQueuedBytes: 1000 });
    await sub.deliver(
      notification(
        `<event xmlns="http://example.com/event/1.0"><event-class>${'x'.repeat(400)}</event-class></event>`,
      ),
    );
    expect(sub.queuedBytes).toBeGreaterThan(400);
    await sub.deliver(
      notification(
        `<event xmlns="http://example.com/event/1.0"><event-class>${'y'.repeat(600)}</event-class></event>`,
      ),
    );
    expect(ends).toEqual(['overflow']);
    expect(sub.queuedBytes).toBe(0);
  });

  test('the bytes waiting for the GET are counted, and none once it came', async () => {
    const { sub, url } = await serve('json');
    expect(sub.queuedBytes).toBe(0);
    await sub.deliver(
      notification(`<event xmlns="http://example.com/event/1.0"><event-class>one</event-class></event>`),
    );
    const waiting = sub.queuedBytes;
    expect(waiting).toBeGreaterThan(0);
    const s = await openStream(url);
    await s.take(1);
    s.close();
    expect(sub.queuedBytes).toBe(0);
  });

  test('a push-update waiting for the GET replaces the YANG Push updates before it', async () => {
    const { sub, url } = await serve('xml');
    const update = (tag: string) =>
      notification(
        `<push-update xmlns="${YP}"><id>7</id><datastore-contents><event xmlns="http://example.com/event/1.0"><event-class>${tag}</event-class></event></datastore-contents></push-update>`,
      );
    await sub.deliver(update('first'));
    await sub.deliver(
      notification(`<push-change-update xmlns="${YP}"><id>7</id><datastore-changes/></push-change-update>`),
    );
    await sub.deliver(
      notification(`<subscription-modified xmlns="${SN}"><id>7</id></subscription-modified>`),
    );
    const before = sub.queuedBytes;
    await sub.deliver(update('second'));
    expect(sub.queuedBytes).toBeLessThan(before);
    const s = await openStream(url);
    const events = await s.take(2);
    s.close();
    expect(
      events.map((e) => /<(push-update|push-change-update|subscription-modified)/.exec(e.data)?.[1]),
    ).toEqual(['subscription-modified', 'push-update']);
    expect(events[1]!.data).toContain('second');
  });

  test('a big push-update is encoded for its receiver in slices, with turns of the event loop between them', async () => {
    const { sub, url } = await serve('json');
    // Content of the datastore: 20,000 configured stream filters.
    const filters = Array.from(
      { length: 20_000 },
      (_, i) =>
        `<stream-filter><name>c${i}</name><stream-xpath-filter>/a</stream-xpath-filter></stream-filter>`,
    ).join('');
    const big = notification(
      `<push-update xmlns="${YP}"><id>7</id><datastore-contents><filters xmlns="${SN}">${filters}</filters></datastore-contents></push-update>`,
    );
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      await sub.deliver(big);
    } finally {
      clearInterval(ticking);
    }
    expect(turns).toBeGreaterThan(1);
    const s = await openStream(url);
    const [update] = await s.take(1);
    s.close();
    expect(update!.data).toContain('c19999');
  });

  test('a datastore subscription reads nothing from its session until the GET', async () => {
    const { session, url } = await serve('json', { datastore: true });
    expect(session.reading).toBe(false);
    const s = await openStream(url);
    expect(session.reading).toBe(true);
    s.close();
  });

  test('an operation on an unreceived datastore subscription leaves its session paused again', async () => {
    const { sub, session } = await serve('json', { datastore: true });
    const op = schema.rpcs().find((r) => r.name === 'delete-subscription')!;
    await sub.invoke({ operation: op });
    expect(session.reading).toBe(false);
  });

  test('a stream subscription keeps reading its session before the GET', async () => {
    const { session } = await serve('json');
    expect(session.reading).toBe(true);
  });

  test('a subscription nobody receives in time ends', async () => {
    const { ends } = await serve('xml', { receiveWithinMs: 20 });
    await new Promise((r) => setTimeout(r, 100));
    expect(ends).toEqual(['not-received']);
  });
});

describe('requesterOf', () => {
  const req = (headers: Record<string, string>, extra: object = {}): IncomingMessage =>
    Object.assign({ headers } as unknown as IncomingMessage, extra);
  const alice = `Basic ${Buffer.from('alice:x:y').toString('base64')}`;

  test('the user recorded by authentication in front of the handler is the requester', () => {
    expect(requesterOf(req({}, { remoteUser: 'alice' }))).toBe('alice');
    expect(requesterOf(req({ authorization: 'Basic Ym9iOng=' }, { user: 'carol' }))).toBe('carol');
    expect(requesterOf(req({}, { auth: { user: 'dave' } }))).toBe('dave');
  });

  test('an HTTP Basic Authorization nobody verified names no user', () => {
    expect(requesterOf(req({ authorization: alice }))).toBeUndefined();
  });

  test('recordBasicUser takes the HTTP Basic user name as the requester', () => {
    const r = req({ authorization: alice });
    recordBasicUser(r);
    expect(requesterOf(r)).toBe('alice');
  });

  test('recordBasicUser keeps a user recorded before it', () => {
    const r = req({ authorization: alice }, { user: 'carol' });
    recordBasicUser(r);
    expect(requesterOf(r)).toBe('carol');
  });

  test('no authentication means no user', () => {
    expect(requesterOf(req({}))).toBeUndefined();
    expect(basicUserOf(req({ authorization: 'Bearer abc' }))).toBeUndefined();
  });

  test('any Authorization header yields a string or undefined, never an exception', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (header) => {
        const user = basicUserOf(req({ authorization: header }));
        expect(user === undefined || typeof user === 'string').toBe(true);
      }),
    );
  });
});

describe('clientOf', () => {
  const req = (headers: Record<string, string>, extra: object = {}): IncomingMessage =>
    Object.assign({ headers, socket: { remoteAddress: '192.0.2.1' } } as unknown as IncomingMessage, extra);

  test('counts a verified user as that user', () => {
    expect(clientOf(req({}, { remoteUser: 'alice' }))).toBe('user:alice');
  });

  test('counts requests with made-up Basic user names by their address', () => {
    const names = ['a', 'b', 'c'].map((u) => clientOf(req({ authorization: `Basic ${btoa(`${u}:x`)}` })));
    expect(new Set(names)).toEqual(new Set(['addr:192.0.2.1']));
  });
});

describe('subscriptionModules', () => {
  test('names no module for a backend without ietf-subscribed-notifications', () => {
    expect(subscriptionModules(['ietf-netconf', 'ietf-yang-push'])).toEqual([]);
  });

  test('adds the RFC 8650 module to a backend with RFC 8639', () => {
    expect(subscriptionModules(['ietf-netconf', 'ietf-subscribed-notifications@2019-09-09'])).toEqual([
      'ietf-subscribed-notifications',
      'ietf-restconf-subscribed-notifications',
    ]);
  });

  test('adds ietf-yang-push when the backend has it', () => {
    expect(subscriptionModules(['ietf-yang-push', 'ietf-subscribed-notifications'])).toEqual([
      'ietf-subscribed-notifications',
      'ietf-restconf-subscribed-notifications',
      'ietf-yang-push',
    ]);
  });

  test('adds ietf-distributed-notif only when the backend has it with ietf-yang-push', () => {
    expect(
      subscriptionModules([
        'ietf-yang-push',
        'ietf-subscribed-notifications',
        'ietf-distributed-notif@2026-10-04',
      ]),
    ).toEqual([
      'ietf-subscribed-notifications',
      'ietf-restconf-subscribed-notifications',
      'ietf-yang-push',
      'ietf-distributed-notif',
    ]);
    expect(subscriptionModules(['ietf-subscribed-notifications', 'ietf-distributed-notif'])).not.toContain(
      'ietf-distributed-notif',
    );
  });
});
