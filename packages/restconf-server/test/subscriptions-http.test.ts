import { connectStream } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventXml, openStream, until } from './streams-helpers.js';
import { basic, establish, type Gateway, JSON_TYPE, OP, post, start } from './subscriptions-helpers.js';

type Message = Record<string, Record<string, unknown>>;

function notificationOf(data: string): Record<string, unknown> {
  return (JSON.parse(data) as Message)['ietf-restconf:notification']!;
}

let gw: Gateway;

beforeAll(async () => {
  gw = await start();
});
afterAll(async () => {
  await gw.close();
});

describe('establish-subscription over RESTCONF', () => {
  test('establish-subscription answers the id and the ietf-restconf-subscribed-notifications uri', async () => {
    const { id, uri } = await establish(gw, { stream: 'NETCONF' });
    expect(Number.isInteger(id)).toBe(true);
    expect(uri).toBe(`http://localhost/restconf/subscriptions/${id}`);
  });

  test('a GET on the uri delivers the subscription notifications as SSE in JSON', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    expect(s.response.status).toBe(200);
    expect(s.response.headers.get('content-type')).toBe('text/event-stream');
    gw.netconf.publish(eventXml('sub-json'));
    const [event] = await s.takeWith(/sub-json/, 1);
    s.close();
    const n = notificationOf(event!.data);
    expect(typeof n.eventTime).toBe('string');
    expect((n['example-mod:event'] as Record<string, unknown>)['event-class']).toBe('sub-json');
  });

  test('an XML establish-subscription delivers XML notifications', async () => {
    const res = await fetch(`${gw.url}${OP}:establish-subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml', accept: 'application/yang-data+xml' },
      body: '<input xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"><stream>NETCONF</stream></input>',
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const uri =
      /<uri xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications">([^<]+)<\/uri>/.exec(
        text,
      )![1]!;
    const s = await openStream(gw.url + new URL(uri).pathname);
    gw.netconf.publish(eventXml('sub-xml'));
    const [event] = await s.takeWith(/sub-xml/, 1);
    s.close();
    expect(event!.data).toMatch(/^<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0">/);
    expect(event!.data).toContain('<event-class>sub-xml</event-class>');
  });

  test('a stream-xpath-filter is passed to the backend', async () => {
    const { path } = await establish(gw, {
      stream: 'NETCONF',
      'stream-xpath-filter': "/example-mod:event[example-mod:event-class='wanted']",
    });
    const s = await openStream(gw.url + path);
    gw.netconf.publish(eventXml('unwanted'));
    gw.netconf.publish(eventXml('wanted'));
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('"wanted"');
  });

  test('encoding encode-json, bare or module-qualified, is accepted and delivers JSON', async () => {
    for (const encoding of ['encode-json', 'ietf-subscribed-notifications:encode-json']) {
      const res = await post(
        gw,
        'establish-subscription',
        { stream: 'NETCONF', encoding },
        {
          accept: 'application/yang-data+xml',
        },
      );
      expect(res.status).toBe(200);
      const text = await res.text();
      const uri = /<uri [^>]*>([^<]+)<\/uri>/.exec(text)![1]!;
      const s = await openStream(gw.url + new URL(uri).pathname);
      gw.netconf.publish(eventXml(`as-json-${encoding.length}`));
      const [event] = await s.takeWith(new RegExp(`as-json-${encoding.length}`), 1);
      expect(notificationOf(event!.data)).toHaveProperty('eventTime');
      const id = Number(/<id>(\d+)<\/id>/.exec(text)![1]);
      expect((await post(gw, 'delete-subscription', { id })).status).toBe(204);
      s.close();
    }
  });

  test('the output holds the id and the uri (ietf-distributed-notif augments no establish-subscription output)', async () => {
    const res = await post(gw, 'establish-subscription', { stream: 'NETCONF' });
    const output = ((await res.json()) as Record<string, Record<string, unknown>>)[
      'ietf-subscribed-notifications:output'
    ]!;
    expect(Object.keys(output).sort()).toEqual(['id', 'ietf-restconf-subscribed-notifications:uri']);
    expect((await post(gw, 'delete-subscription', { id: output.id })).status).toBe(204);
  });

  test('a JSON stream filter with unprefixed child steps (RFC 7951 names) selects as meant', async () => {
    const { path } = await establish(gw, {
      stream: 'NETCONF',
      'stream-xpath-filter': "/example-mod:event[event-class='json-wanted']",
    });
    const s = await openStream(gw.url + path);
    gw.netconf.publish(eventXml('json-unwanted'));
    gw.netconf.publish(eventXml('json-wanted'));
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('"json-wanted"');
  });

  test('an XML stream filter with its own declared prefix selects as meant', async () => {
    const res = await fetch(`${gw.url}${OP}:establish-subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml', accept: JSON_TYPE },
      body:
        '<input xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"><stream>NETCONF</stream>' +
        '<stream-xpath-filter xmlns:ev="http://example.com/event/1.0">/ev:event[ev:event-class=\'xml-wanted\']</stream-xpath-filter></input>',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const output = ((await res.json()) as Record<string, Record<string, unknown>>)[
      'ietf-subscribed-notifications:output'
    ]!;
    const s = await openStream(
      gw.url + new URL(output['ietf-restconf-subscribed-notifications:uri'] as string).pathname,
    );
    gw.netconf.publish(eventXml('xml-unwanted'));
    gw.netconf.publish(eventXml('xml-wanted'));
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('<event-class>xml-wanted</event-class>');
  });

  test('an establish-subscription the backend refuses answers its rpc-error', async () => {
    const res = await post(gw, 'establish-subscription', { stream: 'no-such-stream' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('ietf-subscribed-notifications:stream-unavailable');
  });

  test('a datastore the backend cannot subscribe to is refused', async () => {
    const res = await post(gw, 'establish-subscription', {
      'ietf-yang-push:datastore': 'ietf-datastores:candidate',
      'ietf-yang-push:periodic': { period: 100 },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('datastore-not-subscribable');
  });

  test('OPTIONS on a subscription lists GET, HEAD and OPTIONS', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    const res = await fetch(gw.url + path, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  test('replay-start-time is refused with 400', async () => {
    const res = await post(gw, 'establish-subscription', {
      stream: 'NETCONF',
      'replay-start-time': '2020-01-01T00:00:00Z',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid-value');
  });

  test('a second GET on a subscription being received is 409', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    const again = await fetch(gw.url + path, { headers: { accept: 'text/event-stream' } });
    s.close();
    expect(again.status).toBe(409);
  });

  test('an unknown subscription is 404', async () => {
    const res = await fetch(`${gw.url}/restconf/subscriptions/999999`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(404);
  });

  test('a subscription asked for as JSON data is 406', async () => {
    const { path } = await establish(gw, { stream: 'NETCONF' });
    const res = await fetch(gw.url + path, { headers: { accept: JSON_TYPE } });
    expect(res.status).toBe(406);
  });

  test('a client that leaves ends the subscription and its NETCONF session', async () => {
    const { id, path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    gw.netconf.publish(eventXml('before-leave'));
    await s.takeWith(/before-leave/, 1);
    s.close();
    await until(
      () => !gw.netconf.dynamic.stateXml().includes(`<id>${id}</id>`),
      'the backend subscription to end',
    );
    const res = await fetch(gw.url + path, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(404);
  });
  // subscription-completed is if-feature "configured" (RFC 8639 section 2.7.4): a schema without
  // the feature cannot express it, in either encoding, but it still ends the stream.
  test('a stop-time ends the stream in the requested XML encoding', async () => {
    const { path } = await establish(gw, {
      stream: 'NETCONF',
      'stop-time': new Date(Date.now() + 300).toISOString(),
      encoding: 'ietf-subscribed-notifications:encode-xml',
    });
    const s = await openStream(gw.url + path);
    expect(await s.take(1)).toEqual([]);
  });

  test('in JSON, an event outside the schema (subscription-completed of the configured feature) is skipped', async () => {
    const { path } = await establish(gw, {
      stream: 'NETCONF',
      'stop-time': new Date(Date.now() + 300).toISOString(),
    });
    const s = await openStream(gw.url + path);
    expect(await s.take(1)).toEqual([]);
  });
});

describe('modify, delete and kill', () => {
  test('delete-subscription ends the stream', async () => {
    const { id, path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    const res = await post(gw, 'delete-subscription', { id });
    expect(res.status).toBe(204);
    expect(await s.take(1)).toEqual([]);
  });

  test('kill-subscription delivers subscription-terminated and ends the stream', async () => {
    // The filter keeps out the session-start of the session the kill runs on.
    const { id, path } = await establish(gw, {
      stream: 'NETCONF',
      'stream-xpath-filter': '/example-mod:event',
    });
    const s = await openStream(gw.url + path);
    const res = await post(gw, 'kill-subscription', { id });
    expect(res.status).toBe(204);
    const events = await s.take(2);
    expect(events).toHaveLength(1);
    const n = notificationOf(events[0]!.data);
    // RFC 7951 section 6.8: an identity of the leaf's own module may be written unqualified.
    expect(n['ietf-subscribed-notifications:subscription-terminated']).toEqual({
      id,
      reason: 'no-such-subscription',
    });
  });

  test('modify-subscription of a stream filter is answered 204', async () => {
    const { id } = await establish(gw, { stream: 'NETCONF' });
    const res = await post(gw, 'modify-subscription', { id, 'stream-xpath-filter': '/example-mod:event' });
    expect(res.status).toBe(204);
  });

  test('after a new stream filter the receiver gets subscription-modified with the uri, then only new matches', async () => {
    const { id, uri, path } = await establish(gw, {
      stream: 'NETCONF',
      'stream-xpath-filter': "/example-mod:event[example-mod:event-class='before']",
    });
    const s = await openStream(gw.url + path);
    await post(gw, 'modify-subscription', {
      id,
      'stream-xpath-filter': "/example-mod:event[example-mod:event-class='after']",
    });
    const [modified] = await s.take(1);
    expect(notificationOf(modified!.data)['ietf-subscribed-notifications:subscription-modified']).toEqual({
      id,
      stream: 'NETCONF',
      'stream-xpath-filter': "/example-mod:event[example-mod:event-class='after']",
      encoding: 'encode-json',
      'ietf-distributed-notif:message-publisher-id': [1],
      'ietf-restconf-subscribed-notifications:uri': uri,
    });
    gw.netconf.publish(eventXml('before'));
    gw.netconf.publish(eventXml('after'));
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('"after"');
  });

  test('an XML receiver gets subscription-modified with the uri and its encode-xml encoding', async () => {
    const { id, uri, path } = await establish(gw, {
      stream: 'NETCONF',
      encoding: 'ietf-subscribed-notifications:encode-xml',
    });
    const s = await openStream(gw.url + path);
    await post(gw, 'modify-subscription', { id, 'stream-xpath-filter': '/example-mod:event' });
    const [modified] = await s.takeWith(/subscription-modified/, 1);
    s.close();
    expect(modified!.data).toContain(
      `<uri xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications">${uri}</uri>`,
    );
    // The identity as the codec writes it: prefixed, its prefix declared.
    expect(modified!.data).toMatch(/<encoding xmlns:(\w+)="[^"]+">\1:encode-xml<\/encoding>/);
  });

  test('a modify the backend refuses answers its rpc-error and keeps the subscription', async () => {
    const { id, path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    const res = await post(gw, 'modify-subscription', { id, 'stop-time': '2001-01-01T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid-value');
    gw.netconf.publish(eventXml('still-there'));
    const events = await s.takeWith(/subscription-modified|still-there/, 1);
    s.close();
    expect(events[0]!.data).toContain('still-there');
  });

  test('modify-subscription of an unknown subscription is 404', async () => {
    const res = await post(gw, 'modify-subscription', {
      id: 434343,
      'stream-xpath-filter': '/example-mod:event',
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('no-such-subscription');
  });

  test('deleting an unknown subscription is refused with no-such-subscription', async () => {
    const res = await post(gw, 'delete-subscription', { id: 424242 });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('no-such-subscription');
  });
});

/** Sets the player gap, subscribes periodically to running through `filter`, answers the first push-update. */
async function pushUpdateOf(gap: string, filter: string): Promise<Record<string, unknown>> {
  const put = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox`, {
    method: 'PUT',
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap } } }),
  });
  expect(put.status).toBeLessThan(300);
  const { path } = await establish(gw, {
    'ietf-yang-push:datastore': 'ietf-datastores:running',
    'ietf-yang-push:datastore-xpath-filter': filter,
    'ietf-yang-push:periodic': { period: 5 },
  });
  const s = await openStream(gw.url + path);
  const [event] = await s.takeWith(/push-update/, 1);
  s.close();
  return notificationOf(event!.data)['ietf-yang-push:push-update'] as Record<string, unknown>;
}

describe('YANG Push', () => {
  test('a periodic datastore subscription delivers push-update with the selected contents', async () => {
    const update = await pushUpdateOf('0.5', '/example-jukebox:jukebox');
    expect(JSON.stringify(update['datastore-contents'])).toContain('0.5');
  });

  test('a JSON datastore filter with unprefixed child steps selects as meant', async () => {
    const update = await pushUpdateOf('0.7', '/example-jukebox:jukebox/player/gap');
    expect(update['datastore-contents']).toEqual({ 'example-jukebox:jukebox': { player: { gap: '0.7' } } });
  });

  test('an on-change subscription with a dampening-period delivers push-change-update after an edit', async () => {
    const { path } = await establish(gw, {
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
      'ietf-yang-push:on-change': { 'dampening-period': 1 },
    });
    const s = await openStream(gw.url + path);
    const res = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox`, {
      method: 'PUT',
      headers: { 'content-type': JSON_TYPE },
      body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap: '1.5' } } }),
    });
    expect(res.status, await res.text()).toBeLessThan(300);
    const [event] = await s.takeWith(/push-change-update/, 1);
    s.close();
    expect(event!.data).toContain('1.5');
  });
});

describe('modify-subscription of YANG Push', () => {
  test('a new period is announced with the uri, then push-update follows', async () => {
    const { id, uri, path } = await establish(gw, {
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
      'ietf-yang-push:periodic': { period: 360000 },
    });
    const s = await openStream(gw.url + path);
    const res = await post(gw, 'modify-subscription', {
      id,
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:periodic': { period: 5 },
    });
    expect(res.status).toBe(204);
    const [modified, update] = await s.take(2);
    s.close();
    const m = notificationOf(modified!.data)['ietf-subscribed-notifications:subscription-modified'] as Record<
      string,
      unknown
    >;
    expect(m['ietf-yang-push:periodic']).toEqual({ period: 5 });
    expect(m['ietf-yang-push:datastore']).toBe('ietf-datastores:running');
    expect(m['ietf-restconf-subscribed-notifications:uri']).toBe(uri);
    expect(Object.keys(notificationOf(update!.data))).toContain('ietf-yang-push:push-update');
  });

  test('a new dampening-period of an on-change subscription is announced', async () => {
    const { id, path } = await establish(gw, {
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
      'ietf-yang-push:on-change': { 'dampening-period': 100 },
    });
    const s = await openStream(gw.url + path);
    await s.takeWith(/push-update/, 1);
    const res = await post(gw, 'modify-subscription', {
      id,
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:on-change': { 'dampening-period': 2 },
    });
    expect(res.status).toBe(204);
    const [modified] = await s.take(1);
    s.close();
    const m = notificationOf(modified!.data)['ietf-subscribed-notifications:subscription-modified'] as Record<
      string,
      unknown
    >;
    expect(m['ietf-yang-push:on-change']).toMatchObject({ 'dampening-period': 2 });
  });
});

describe('the subscriptions state', () => {
  type Entry = Record<string, unknown>;
  async function entries(): Promise<Entry[]> {
    const res = await fetch(`${gw.url}/restconf/data/ietf-subscribed-notifications:subscriptions`, {
      headers: { accept: JSON_TYPE },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { subscription: Entry[] }>;
    return body['ietf-subscribed-notifications:subscriptions']!.subscription;
  }

  test('a GET lists a subscription of this handler with its RFC 8650 uri', async () => {
    const { id, uri } = await establish(gw, {
      stream: 'NETCONF',
      'stream-xpath-filter': '/example-mod:event',
    });
    const entry = (await entries()).find((e) => e.id === id)!;
    expect(entry['ietf-restconf-subscribed-notifications:uri']).toBe(uri);
    expect(entry.stream).toBe('NETCONF');
    expect(entry['stream-xpath-filter']).toBe('/example-mod:event');
  });

  test('a JSON receiver is not listed with the backend encode-xml', async () => {
    const { id } = await establish(gw, { stream: 'NETCONF' });
    const entry = (await entries()).find((e) => e.id === id)!;
    expect(entry.encoding).not.toBe('ietf-subscribed-notifications:encode-xml');
  });

  test('a receiver is listed with its counters and state', async () => {
    const { id, path } = await establish(gw, { stream: 'NETCONF' });
    const s = await openStream(gw.url + path);
    gw.netconf.publish(eventXml('counted-once'));
    await s.takeWith(/counted-once/, 1);
    const entry = (await entries()).find((e) => e.id === id)!;
    s.close();
    const receiver = (entry.receivers as { receiver: Entry[] }).receiver[0]!;
    expect(receiver.state).toBe('active');
    expect(Number(receiver['sent-event-records'])).toBeGreaterThanOrEqual(1);
  });

  test('the XML state carries the uri of the subscription', async () => {
    const { id, uri } = await establish(gw, { stream: 'NETCONF' });
    const res = await fetch(`${gw.url}/restconf/data/ietf-subscribed-notifications:subscriptions`, {
      headers: { accept: 'application/yang-data+xml' },
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const entry = new RegExp(`<subscription><id>${id}</id>.*?</subscription>`).exec(text)![0];
    expect(entry).toContain(
      `<uri xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications">${uri}</uri>`,
    );
  });

  test('a subscription established directly on the backend has no uri', async () => {
    const [a, b] = duplexPair();
    gw.netconf.connect(a, { username: 'direct' });
    const direct = await connectStream(b);
    const reply = await direct.rpc(
      '<establish-subscription xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"><stream>NETCONF</stream></establish-subscription>',
    );
    const id = Number(/<id[^>]*>(\d+)<\/id>/.exec(reply.xml)![1]);
    const entry = (await entries()).find((e) => e.id === id)!;
    await direct.close();
    expect(entry).toBeDefined();
    expect(entry['ietf-restconf-subscribed-notifications:uri']).toBeUndefined();
  });
});

describe('the subscriptions state through NMDA', () => {
  const OPERATIONAL = '/restconf/ds/ietf-datastores:operational/ietf-subscribed-notifications:subscriptions';
  let nmda: Gateway;
  beforeAll(async () => {
    nmda = await start({ handler: { withNmda: true } });
  });
  afterAll(async () => {
    await nmda.close();
  });

  test('a JSON read of the operational datastore lists a subscription with its RFC 8650 uri', async () => {
    const { id, uri } = await establish(nmda, { stream: 'NETCONF' });
    const res = await fetch(nmda.url + OPERATIONAL, { headers: { accept: JSON_TYPE } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { subscription: Record<string, unknown>[] }>;
    const entry = body['ietf-subscribed-notifications:subscriptions']!.subscription.find((e) => e.id === id)!;
    expect(entry['ietf-restconf-subscribed-notifications:uri']).toBe(uri);
  });

  test('an XML read of one subscription in the operational datastore carries its uri', async () => {
    const { id, uri } = await establish(nmda, { stream: 'NETCONF' });
    const res = await fetch(`${nmda.url}${OPERATIONAL}/subscription=${id}`, {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      `<uri xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications">${uri}</uri>`,
    );
  });
});

describe('users', () => {
  let auth: Gateway;
  beforeAll(async () => {
    auth = await start({ users: { alice: 'a-secret', bob: 'b-secret' } });
  });
  afterAll(async () => {
    await auth.close();
  });

  test('the user who established a subscription receives it', async () => {
    const { path } = await establish(auth, { stream: 'NETCONF' }, basic('alice', 'a-secret'));
    const s = await openStream(auth.url + path, basic('alice', 'a-secret'));
    expect(s.response.status).toBe(200);
    auth.netconf.publish(eventXml('for-alice'));
    const [event] = await s.takeWith(/for-alice/, 1);
    s.close();
    expect(event).toBeDefined();
  });

  test('another user cannot read or delete the subscription', async () => {
    const { id, path } = await establish(auth, { stream: 'NETCONF' }, basic('alice', 'a-secret'));
    const read = await fetch(auth.url + path, {
      headers: { accept: 'text/event-stream', ...basic('bob', 'b-secret') },
    });
    expect(read.status).toBe(404);
    const del = await post(auth, 'delete-subscription', { id }, basic('bob', 'b-secret'));
    expect(del.status).toBe(404);
  });

  test('another user cannot modify the subscription', async () => {
    const { id } = await establish(auth, { stream: 'NETCONF' }, basic('alice', 'a-secret'));
    const res = await post(
      auth,
      'modify-subscription',
      { id, 'stream-xpath-filter': '/example-mod:event' },
      basic('bob', 'b-secret'),
    );
    expect(res.status).toBe(404);
    const own = await post(
      auth,
      'modify-subscription',
      { id, 'stream-xpath-filter': '/example-mod:event' },
      basic('alice', 'a-secret'),
    );
    expect(own.status).toBe(204);
  });
});
