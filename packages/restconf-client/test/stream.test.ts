import { afterEach, expect, test } from 'vitest';
import { RestconfClient, type RestconfNotification } from '../src/index.js';
import { startTestServer } from './test-server.js';

let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
afterEach(() => server?.close());

async function take(events: AsyncIterable<RestconfNotification>, count: number) {
  const out: RestconfNotification[] = [];
  for await (const n of events) {
    out.push(n);
    if (out.length === count) break;
  }
  return out;
}

test('decodes JSON notifications of the stream the stream list names', async () => {
  server = await startTestServer();
  const client = new RestconfClient({ baseUrl: server.url });
  const events = await take(
    client.subscribe('NETCONF', { filter: '/tick[n>1]', startTime: '2026-01-01T00:00:00Z' }),
    2,
  );
  expect(events.map((e) => [e.id, e.eventTime, e.event])).toEqual([
    ['1', '2026-01-01T00:00:01Z', 'example-jukebox:tick'],
    ['2', '2026-01-01T00:00:02Z', 'example-jukebox:tick'],
  ]);
  expect(events[0]?.data).toEqual({ n: 1, filter: '/tick[n>1]' });
  const request = server.seen.at(-1);
  expect(request?.url).toBe(
    '/top/restconf/streams/json?filter=/tick%5Bn%3E1%5D&start-time=2026-01-01T00:00:00Z',
  );
  expect(request?.headers.accept).toBe('text/event-stream');
});

test('reads the XML location when the client speaks XML', async () => {
  server = await startTestServer();
  const client = new RestconfClient({ baseUrl: server.url, encoding: 'xml' });
  const [first] = await take(client.subscribe('NETCONF'), 1);
  expect(first).toMatchObject({ event: 'tick', eventTime: '2026-01-01T00:00:01Z' });
  expect(first?.data).toContain('<n>1</n>');
});

test('reconnects with Last-Event-ID after the connection drops', async () => {
  server = await startTestServer({ dropStreamAfter: 2 });
  const client = new RestconfClient({ baseUrl: server.url });
  const events = await take(client.subscribe('NETCONF', { retryMs: 5 }), 4);
  expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
  const streamRequests = server.seen.filter((r) => r.url.startsWith('/top/restconf/streams/'));
  expect(streamRequests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '2']);
});

test('ends with NETWORK when reconnection is off and the connection drops', async () => {
  server = await startTestServer({ dropStreamAfter: 1 });
  const client = new RestconfClient({ baseUrl: server.url });
  await expect(take(client.subscribe('NETCONF', { reconnect: false }), 5)).rejects.toMatchObject({
    code: 'NETWORK',
  });
});

test('stops with ABORTED when the signal fires', async () => {
  server = await startTestServer();
  const client = new RestconfClient({ baseUrl: server.url });
  const controller = new AbortController();
  const reading = take(client.subscribe('NETCONF', { signal: controller.signal }), 10);
  setTimeout(() => controller.abort(), 50);
  await expect(reading).rejects.toMatchObject({ code: 'ABORTED' });
});

test('establishes an RFC 8650 subscription and reads its uri to the end', async () => {
  server = await startTestServer();
  const client = new RestconfClient({ baseUrl: server.url });
  const { id, uri } = await client.establishSubscription({
    'ietf-subscribed-notifications:stream': 'NETCONF',
    'ietf-subscribed-notifications:encoding': 'encode-json',
  });
  expect(id).toBe(22);
  expect(uri).toBe(`${server.url}/top/restconf/subscriptions/22`);
  const events: RestconfNotification[] = [];
  // The server sends no ids, so a clean end of the stream ends the loop.
  for await (const n of client.subscription(uri)) events.push(n);
  expect(events.map((e) => [e.event, e.data])).toEqual([['ietf-yang-push:push-update', { id: 22 }]]);
  expect(JSON.parse(server.seen.find((r) => r.method === 'POST')?.body ?? '')).toEqual({
    'ietf-subscribed-notifications:input': {
      'ietf-subscribed-notifications:stream': 'NETCONF',
      'ietf-subscribed-notifications:encoding': 'encode-json',
    },
  });
});
