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
const EX = 'http://example.com/event/1.0';

/** The notifications of a session, read one at a time in order. */
function reader(session: NetconfSession): { next(match?: RegExp): Promise<string> } {
  const it = session.notifications();
  return {
    async next(match?: RegExp): Promise<string> {
      for (;;) {
        const n = (await it.next()) as IteratorResult<NetconfNotification>;
        if (n.done) throw new Error('the session ended');
        if (!match || match.test(n.value.xml)) return n.value.xml;
      }
    },
  };
}

function event(eventClass: string): string {
  return `<event xmlns="${EX}"><event-class>${eventClass}</event-class></event>`;
}

async function establish(session: NetconfSession, inner: string): Promise<number> {
  const reply = await session.rpc(
    `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}">${inner}</establish-subscription>`,
  );
  return Number(/<id[^>]*>(\d+)<\/id>/.exec(reply.xml)![1]);
}

function modify(session: NetconfSession, id: number, inner: string) {
  return session.rpc(
    `<modify-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><id>${id}</id>${inner}</modify-subscription>`,
  );
}

const xpathOf = (cls: string): string =>
  `<stream-xpath-filter xmlns:ex="${EX}">/ex:event[ex:event-class='${cls}']</stream-xpath-filter>`;

describe('modify-subscription of a stream subscription', () => {
  test('a new xpath filter is announced by subscription-modified, then only matching events follow', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `<stream>NETCONF</stream>${xpathOf('old')}`);
    const r = reader(c);
    expect((await modify(c, id, xpathOf('new'))).ok).toBe(true);
    const modified = await r.next();
    expect(modified).toContain('<subscription-modified');
    expect(modified).toContain(`<id>${id}</id>`);
    expect(modified).toContain("ex:event-class='new'");
    server.publish(event('old'));
    server.publish(event('new'));
    expect(await r.next()).toContain('<event-class>new</event-class>');
  });

  test('the subscription state read by get keeps the declaration of an xpath prefix of the client', async () => {
    server = await testServer();
    const c = await client(server);
    await establish(c, `<stream>NETCONF</stream>${xpathOf('kept')}`);
    const data = await c.get({
      filter: {
        subtree: `<subscriptions xmlns="${SN}"><subscription><stream-xpath-filter/></subscription></subscriptions>`,
      },
    });
    const filter = /<stream-xpath-filter[^>]*>[^<]*<\/stream-xpath-filter>/.exec(data)![0];
    const prefix = /xmlns:([\w.-]+)="http:\/\/example.com\/event\/1.0"/.exec(filter)?.[1];
    expect(prefix).toBeDefined();
    expect(filter).toContain(`>/${prefix}:event[${prefix}:event-class='kept']<`);
  });

  test('a subtree filter replaces an xpath filter', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `<stream>NETCONF</stream>${xpathOf('old')}`);
    const r = reader(c);
    await modify(
      c,
      id,
      `<stream-subtree-filter><event xmlns="${EX}"><event-class>sub</event-class></event></stream-subtree-filter>`,
    );
    const modified = await r.next();
    expect(modified).toMatch(/<stream-subtree-filter[^>]*><event xmlns="http:\/\/example.com\/event\/1.0"/);
    server.publish(event('old'));
    server.publish(event('sub'));
    expect(await r.next()).toContain('<event-class>sub</event-class>');
  });

  test('a new stop-time is announced and ends the subscription with subscription-completed', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, '<stream>NETCONF</stream>');
    const r = reader(c);
    const stop = new Date(Date.now() + 100).toISOString();
    await modify(c, id, `<stop-time>${stop}</stop-time>`);
    expect(await r.next()).toContain(`<stop-time>${stop}</stop-time>`);
    expect(await r.next()).toContain('<subscription-completed');
    expect(server.dynamic.holds(server.sessions.get(c.sessionId)!)).toBe(false);
  });

  test('a stop-time in the past is refused', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, '<stream>NETCONF</stream>');
    const e = await rpcErrorOf(modify(c, id, '<stop-time>2001-01-01T00:00:00Z</stop-time>'));
    expect(e.errors[0]!.errorTag).toBe('invalid-value');
  });

  test('another session cannot modify the subscription, which keeps its filter', async () => {
    server = await testServer();
    const owner = await client(server);
    const other = await client(server);
    const id = await establish(owner, `<stream>NETCONF</stream>${xpathOf('kept')}`);
    const e = await rpcErrorOf(modify(other, id, xpathOf('stolen')));
    expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:no-such-subscription');
    const r = reader(owner);
    server.publish(event('stolen'));
    server.publish(event('kept'));
    expect(await r.next()).toContain('<event-class>kept</event-class>');
  });

  test('an unknown subscription id is refused with no-such-subscription', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcErrorOf(modify(c, 4242, xpathOf('x')));
    expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:no-such-subscription');
  });

  test('an xpath filter that does not compile is refused and the old filter stays', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `<stream>NETCONF</stream>${xpathOf('kept')}`);
    const e = await rpcErrorOf(modify(c, id, '<stream-xpath-filter>/nosuch:event[</stream-xpath-filter>'));
    expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:filter-unsupported');
    const r = reader(c);
    server.publish(event('other'));
    server.publish(event('kept'));
    expect(await r.next()).toContain('<event-class>kept</event-class>');
  });

  test('a refused modify sends no subscription-modified', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, '<stream>NETCONF</stream>');
    const r = reader(c);
    await rpcErrorOf(modify(c, id, '<stop-time>not-a-time</stop-time>'));
    server.publish(event('after'));
    expect(await r.next()).toContain('<event-class>after</event-class>');
  });

  test('a stream subscription cannot take datastore parameters', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, '<stream>NETCONF</stream>');
    const e = await rpcErrorOf(modify(c, id, '<yp:periodic><yp:period>10</yp:period></yp:periodic>'));
    expect(e.errors[0]!.errorTag).toBe('invalid-value');
  });

  test('an unknown filter name is refused with filter-unsupported', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, '<stream>NETCONF</stream>');
    const e = await rpcErrorOf(modify(c, id, '<stream-filter-name>nosuch</stream-filter-name>'));
    expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:filter-unsupported');
  });

  test('a configured stream filter is used by name and named in subscription-modified', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({
      target: 'running',
      config: `<filters xmlns="${SN}"><stream-filter><name>only-a</name><stream-xpath-filter>/example-mod:event[example-mod:event-class='a']</stream-xpath-filter></stream-filter><stream-filter><name>only-b</name><stream-subtree-filter><event xmlns="${EX}"><event-class>b</event-class></event></stream-subtree-filter></stream-filter></filters>`,
    });
    const id = await establish(c, '<stream>NETCONF</stream><stream-filter-name>only-a</stream-filter-name>');
    const r = reader(c);
    server.publish(event('b'));
    server.publish(event('a'));
    expect(await r.next()).toContain('<event-class>a</event-class>');
    await modify(c, id, '<stream-filter-name>only-b</stream-filter-name>');
    expect(await r.next()).toMatch(/<stream-filter-name[^>]*>only-b<\/stream-filter-name>/);
    server.publish(event('a'));
    server.publish(event('b'));
    expect(await r.next()).toContain('<event-class>b</event-class>');
  });
});

describe('modify-subscription of a YANG Push subscription', () => {
  const running = '<yp:datastore>ds:running</yp:datastore>';
  const ifFilter = `<yp:datastore-subtree-filter><interfaces xmlns="${IF}"/></yp:datastore-subtree-filter>`;

  test('a new period is announced, then push-update follows at that period', async () => {
    server = await testServer();
    const c = await client(server);
    // A period of an hour: any push-update seen below comes from the modified period.
    const id = await establish(
      c,
      `${running}${ifFilter}<yp:periodic><yp:period>360000</yp:period></yp:periodic>`,
    );
    const r = reader(c);
    await modify(c, id, `${running}<yp:periodic><yp:period>5</yp:period></yp:periodic>`);
    const modified = await r.next();
    expect(modified).toContain('<subscription-modified');
    expect(modified).toContain('<period>5</period>');
    // The filter was not in the request: it is kept.
    expect(modified).toContain('<datastore-subtree-filter');
    expect(await r.next()).toContain('<push-update');
  });

  test('an anchor-time is kept in the policy', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `${running}<yp:periodic><yp:period>360000</yp:period></yp:periodic>`);
    const r = reader(c);
    const anchor = '2020-01-01T00:00:00.000Z';
    await modify(
      c,
      id,
      `${running}<yp:periodic><yp:period>360000</yp:period><yp:anchor-time>${anchor}</yp:anchor-time></yp:periodic>`,
    );
    expect(await r.next()).toContain(`<anchor-time>${anchor}</anchor-time>`);
  });

  test('a new dampening-period of an on-change subscription is announced', async () => {
    server = await testServer();
    const c = await client(server);
    const r = reader(c);
    const id = await establish(
      c,
      `${running}${ifFilter}<yp:on-change><yp:dampening-period>100</yp:dampening-period></yp:on-change>`,
    );
    expect(await r.next()).toContain('<push-update');
    await modify(
      c,
      id,
      `${running}<yp:on-change><yp:dampening-period>1</yp:dampening-period></yp:on-change>`,
    );
    expect(await r.next()).toContain('<dampening-period>1</dampening-period>');
    await (await client(server)).editConfig({ target: 'running', config: iface('eth5') });
    expect(await r.next()).toContain('<name>eth5</name>');
  });

  test('a new filter of an on-change subscription sends the new selection in full', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth1') });
    const r = reader(c);
    const id = await establish(
      c,
      `${running}<yp:datastore-xpath-filter>/nosuch-match</yp:datastore-xpath-filter><yp:on-change/>`,
    );
    await r.next(/push-update/);
    await modify(c, id, `${running}${ifFilter}`);
    expect(await r.next()).toContain('<subscription-modified');
    const update = await r.next();
    expect(update).toContain('<push-update');
    expect(update).toContain('<name>eth1</name>');
  });

  test('the datastore of a subscription cannot change', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `${running}<yp:periodic><yp:period>360000</yp:period></yp:periodic>`);
    const e = await rpcErrorOf(modify(c, id, '<yp:datastore>ds:operational</yp:datastore>'));
    expect(e.errors[0]!.errorAppTag).toBe('ietf-yang-push:datastore-not-subscribable');
  });

  test('a datastore filter that cannot be evaluated is refused and the subscription keeps its period', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `${running}<yp:periodic><yp:period>5</yp:period></yp:periodic>`);
    const e = await rpcErrorOf(
      modify(c, id, `${running}<yp:datastore-xpath-filter>/nosuchprefix:x</yp:datastore-xpath-filter>`),
    );
    expect(e.errors.length).toBeGreaterThan(0);
    expect(await reader(c).next()).toContain('<push-update');
  });

  test('a configured selection filter is used by its filter-id', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({
      target: 'running',
      config: `<filters xmlns="${SN}"><selection-filter xmlns="${YP}"><filter-id>ifs</filter-id><datastore-subtree-filter><interfaces xmlns="${IF}"/></datastore-subtree-filter></selection-filter></filters>${iface('eth7')}`,
    });
    const r = reader(c);
    await establish(
      c,
      `${running}<yp:selection-filter-ref>ifs</yp:selection-filter-ref><yp:periodic><yp:period>5</yp:period></yp:periodic>`,
    );
    const update = await r.next(/push-update/);
    expect(update).toContain('<name>eth7</name>');
    expect(update).not.toContain('<filters');
  });

  test('a period of zero is refused with period-unsupported', async () => {
    server = await testServer();
    const c = await client(server);
    const id = await establish(c, `${running}<yp:periodic><yp:period>360000</yp:period></yp:periodic>`);
    const e = await rpcErrorOf(
      modify(c, id, `${running}<yp:periodic><yp:period>0</yp:period></yp:periodic>`),
    );
    expect(e.errors[0]!.errorAppTag).toBe('ietf-yang-push:period-unsupported');
  });
});

describe('the subscriptions state', () => {
  test('lists stream, filter, stop-time, encoding and the receiver with its counters', async () => {
    server = await testServer();
    const c = await client(server);
    const stop = new Date(Date.now() + 3_600_000).toISOString();
    const id = await establish(
      c,
      `<stream>NETCONF</stream>${xpathOf('counted')}<stop-time>${stop}</stop-time>`,
    );
    const r = reader(c);
    server.publish(event('counted'));
    server.publish(event('dropped'));
    server.publish(event('dropped'));
    await r.next();
    const data = await c.get({ filter: { subtree: `<subscriptions xmlns="${SN}"/>` } });
    expect(data).toContain(`<id>${id}</id>`);
    expect(data).toContain('<stream>NETCONF</stream>');
    expect(data).toContain("/ex:event[ex:event-class='counted']");
    expect(data).toContain(`<stop-time>${stop}</stop-time>`);
    expect(data).toMatch(
      /<encoding>(sn:)?encode-xml<\/encoding>|<encoding[^>]*>[\w-]+:encode-xml<\/encoding>/,
    );
    expect(data).toContain('<sent-event-records>1</sent-event-records>');
    expect(data).toContain('<excluded-event-records>2</excluded-event-records>');
    expect(data).toContain('<state>active</state>');
  });

  test('lists a YANG Push subscription with its datastore and trigger', async () => {
    server = await testServer();
    const c = await client(server);
    await establish(
      c,
      `<yp:datastore>ds:running</yp:datastore><yp:on-change><yp:dampening-period>7</yp:dampening-period></yp:on-change>`,
    );
    const data = await c.get({ filter: { subtree: `<subscriptions xmlns="${SN}"/>` } });
    expect(data).toMatch(/<datastore[^>]*>[\w-]+:running<\/datastore>/);
    expect(data).toContain('<dampening-period>7</dampening-period>');
  });

  test('an encoding other than encode-xml is refused at establishment', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcErrorOf(
      c.rpc(
        `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream><encoding>encode-json</encoding></establish-subscription>`,
      ),
    );
    expect(e.errors[0]!.errorAppTag).toBe('ietf-subscribed-notifications:encoding-unsupported');
  });
});

describe('kill-subscription', () => {
  test("the killed subscription's receiver gets subscription-terminated", async () => {
    server = await testServer();
    const owner = await client(server);
    const admin = await client(server);
    const id = await establish(owner, `<stream>NETCONF</stream>${xpathOf('none')}`);
    const r = reader(owner);
    await admin.rpc(`<kill-subscription xmlns="${SN}"><id>${id}</id></kill-subscription>`);
    const terminated = await r.next();
    expect(terminated).toContain('<subscription-terminated');
    expect(terminated).toContain('<reason>no-such-subscription</reason>');
  });
});

describe('advertised features', () => {
  test('the hello lists the subscribed-notifications features that work, not configured', async () => {
    server = await testServer();
    const cap = server.capabilities().find((c) => c.includes('module=ietf-subscribed-notifications'))!;
    const features = new URLSearchParams(cap.split('?')[1]).get('features')!.split(',');
    expect(features.sort()).toEqual(['encode-xml', 'replay', 'subtree', 'xpath']);
  });

  test('the hello lists the on-change feature of ietf-yang-push', async () => {
    server = await testServer();
    const cap = server.capabilities().find((c) => c.includes('module=ietf-yang-push'))!;
    expect(new URLSearchParams(cap.split('?')[1]).get('features')).toBe('on-change');
  });
});
