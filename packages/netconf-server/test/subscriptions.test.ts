import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import { afterEach, describe, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, rpcErrorOf, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const DS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

function collect(
  session: NetconfSession,
  count: number,
  match: (n: NetconfNotification) => boolean,
): Promise<NetconfNotification[]> {
  return (async () => {
    const out: NetconfNotification[] = [];
    for await (const n of session.notifications()) {
      if (match(n)) out.push(n);
      if (out.length >= count) return out;
    }
    return out;
  })();
}

function idOf(xml: string): number {
  return Number(/<id[^>]*>(\d+)<\/id>/.exec(xml)![1]);
}

test('establish-subscription to the NETCONF stream delivers events with its filter', async () => {
  server = await testServer();
  const sub = await client(server);
  const reply = await sub.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream><stream-subtree-filter><netconf-config-change xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications"/></stream-subtree-filter></establish-subscription>`,
  );
  expect(idOf(reply.xml)).toBeGreaterThan(0);
  const got = collect(sub, 1, () => true);
  await (await client(server)).editConfig({ target: 'running', config: iface('eth0') });
  expect((await got)[0]!.xml).toContain('netconf-config-change');
});

test('a periodic YANG Push subscription sends push-update with the datastore contents', async () => {
  server = await testServer();
  const c = await client(server);
  await c.editConfig({ target: 'running', config: iface('eth0') });
  const got = collect(c, 2, (n) => n.xml.includes('push-update'));
  await c.rpc(
    `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:datastore-subtree-filter><interfaces xmlns="${IF}"/></yp:datastore-subtree-filter><yp:periodic><yp:period>10</yp:period></yp:periodic></establish-subscription>`,
  );
  const updates = await got;
  expect(updates[1]!.xml).toContain('<name>eth0</name>');
});

test('a periodic subscription whose xpath filter cannot be evaluated is refused at establishment', async () => {
  server = await testServer();
  const c = await client(server);
  const error = await rpcErrorOf(
    c.rpc(
      `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:datastore-xpath-filter>/nosuchprefix:interfaces</yp:datastore-xpath-filter><yp:periodic><yp:period>10</yp:period></yp:periodic></establish-subscription>`,
    ),
  );
  expect(error.errors.length).toBeGreaterThan(0);
  // The session is still usable: nothing escaped as an unhandled rejection.
  expect((await c.getConfig({ source: 'running' })).length).toBeGreaterThanOrEqual(0);
});

test('an on-change subscription sends the initial state, then a push-change-update after an edit', async () => {
  server = await testServer();
  const c = await client(server);
  const got = collect(c, 2, (n) => n.xml.includes('push-'));
  await c.rpc(
    `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:datastore-subtree-filter><interfaces xmlns="${IF}"/></yp:datastore-subtree-filter><yp:on-change><yp:dampening-period>5</yp:dampening-period></yp:on-change></establish-subscription>`,
  );
  await new Promise((r) => setTimeout(r, 20));
  await (await client(server)).editConfig({ target: 'running', config: iface('eth9') });
  const [first, change] = await got;
  expect(first!.xml).toContain('push-update');
  expect(change!.xml).toContain('push-change-update');
  expect(change!.xml).toContain('<operation>replace</operation>');
  expect(change!.xml).toContain('<name>eth9</name>');
});

test("delete-subscription of another session's subscription is refused, kill-subscription is not", async () => {
  server = await testServer();
  const a = await client(server);
  const b = await client(server);
  const id = idOf(
    (await a.rpc(`<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`))
      .xml,
  );
  const e = await rpcErrorOf(
    b.rpc(`<delete-subscription xmlns="${SN}"><id>${id}</id></delete-subscription>`),
  );
  expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:no-such-subscription');
  expect((await b.rpc(`<kill-subscription xmlns="${SN}"><id>${id}</id></kill-subscription>`)).ok).toBe(true);
});

test('the subscribed-notifications streams list is served', async () => {
  server = await testServer();
  const c = await client(server);
  const data = await c.get({ filter: { subtree: `<streams xmlns="${SN}"/>` } });
  expect(data).toContain('<name>NETCONF</name>');
});

test('an active subscription is listed in the subscriptions state', async () => {
  server = await testServer();
  const c = await client(server);
  const id = idOf(
    (await c.rpc(`<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`))
      .xml,
  );
  const data = await c.get({ filter: { subtree: `<subscriptions xmlns="${SN}"/>` } });
  expect(data).toContain(`<id>${id}</id>`);
});

describe('the Message Publisher ID (draft-ietf-netconf-distributed-notif)', () => {
  const PUBLISHER =
    '<message-publisher-id xmlns="urn:ietf:params:xml:ns:yang:ietf-distributed-notif">1</message-publisher-id>';

  test('the subscriptions state names the server as the one publisher of a subscription', async () => {
    server = await testServer();
    const c = await client(server);
    await c.rpc(`<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`);
    const data = await c.get({ filter: { subtree: `<subscriptions xmlns="${SN}"/>` } });
    expect(data).toContain(PUBLISHER);
  });

  test('a push-update names the server as its publisher', async () => {
    server = await testServer();
    const c = await client(server);
    const updates = collect(c, 1, (n) => n.xml.includes('<push-update'));
    await c.rpc(
      `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:periodic><yp:period>10</yp:period></yp:periodic></establish-subscription>`,
    );
    expect((await updates)[0]!.xml).toContain(PUBLISHER);
  });
});

describe('a YANG Push receiver that reads nothing', () => {
  const big = iface('eth0', `<description>${'x'.repeat(100_000)}</description>`);
  const periodic = (period: number) =>
    `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:datastore-subtree-filter><interfaces xmlns="${IF}"/></yp:datastore-subtree-filter><yp:periodic><yp:period>${period}</yp:period></yp:periodic></establish-subscription>`;
  const sentOf = (id: number): number => {
    const entry = server.dynamic
      .stateXml()
      .split('<subscription>')
      .find((e) => e.includes(`<id>${id}</id>`));
    return Number(/<sent-event-records>(\d+)</.exec(entry ?? '')?.[1]);
  };

  test('gets no periodic update computed while its transport is backed up', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: big });
    const id = idOf((await c.rpc(periodic(5))).xml);
    c.pauseReading();
    // Ten periods of 50 ms: only the update that filled the transport was made.
    await new Promise((r) => setTimeout(r, 500));
    expect(sentOf(id)).toBeLessThanOrEqual(1);
  });

  test('gets the current content once it reads again, and the periods go on', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: big });
    c.pauseReading();
    const id = idOf((await c.rpc(periodic(5))).xml);
    c.pauseReading();
    await new Promise((r) => setTimeout(r, 200));
    const updates = collect(c, 3, (n) => n.xml.includes('push-update'));
    c.resumeReading();
    expect(await updates).toHaveLength(3);
    expect(sentOf(id)).toBeGreaterThanOrEqual(3);
  });
});
