import type { NetconfNotification } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_MAX_XPATH_WORK } from '../src/index.js';
import type { NetconfServer } from '../src/server.js';
import { client, JB, rpcErrorOf, serverWithArtists } from './helpers.js';

// A client's XPath filter can cost the square of the datastore (a walk of the whole tree for every
// entry): its evaluation is bounded by the server's maxXPathWork, past which the request is refused
// with resource-denied (RFC 6241 appendix A: insufficient resources).
const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const DS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';
/** A walk of the whole tree for every artist. */
const QUADRATIC = '//j:artist[count(//j:name) > 0]';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

function subscribe(xpath: string): string {
  return `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:datastore-xpath-filter xmlns:j="${JB}">${xpath}</yp:datastore-xpath-filter><yp:periodic><yp:period>10</yp:period></yp:periodic></establish-subscription>`;
}

test('a read whose filter passes the bound is refused with resource-denied, and the session goes on', async () => {
  // 4,000 artists: 4,000 walks of about 8,000 nodes, 32,000,000 units
  server = await serverWithArtists(4000, { maxXPathWork: 100_000 });
  const c = await client(server);
  const started = performance.now();
  const e = await rpcErrorOf(
    c.getConfig({ source: 'running', filter: { xpath: QUADRATIC, namespaces: { j: JB } } }),
  );
  expect(performance.now() - started).toBeLessThan(2000);
  expect([e.errors[0]?.errorType, e.errors[0]?.errorTag]).toEqual(['application', 'resource-denied']);
  expect(e.errors[0]?.errorMessage).toContain('100000');
  const one = await c.getConfig({
    source: 'running',
    filter: { xpath: "//j:artist[j:name='artist-7']", namespaces: { j: JB } },
  });
  expect(one).toContain('artist-7');
});

test('<get> and <get-data> are bounded too', async () => {
  server = await serverWithArtists(2000, { maxXPathWork: 100_000 });
  const c = await client(server);
  const get = await rpcErrorOf(c.get({ filter: { xpath: QUADRATIC, namespaces: { j: JB } } }));
  expect(get.errors[0]?.errorTag).toBe('resource-denied');
  const getData = await rpcErrorOf(
    c.rpc(
      `<get-data xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-nmda" xmlns:ds="${DS}" xmlns:j="${JB}"><datastore>ds:running</datastore><xpath-filter>${QUADRATIC}</xpath-filter></get-data>`,
    ),
  );
  expect(getData.errors[0]?.errorTag).toBe('resource-denied');
});

test('a linear filter over 100,000 artists passes the default bound', async () => {
  expect(DEFAULT_MAX_XPATH_WORK).toBe(5_000_000);
  server = await serverWithArtists(100_000);
  const c = await client(server);
  const data = await c.getConfig({
    source: 'running',
    filter: {
      xpath: "//j:artist[contains(j:name, '99999')] | //j:name[. = 'artist-5']",
      namespaces: { j: JB },
    },
  });
  expect(data).toContain('artist-99999');
  expect(data).toContain('artist-5<');
});

test('a subscription whose filter passes the bound is refused at establishment', async () => {
  server = await serverWithArtists(2000, { maxXPathWork: 100_000 });
  const c = await client(server);
  const e = await rpcErrorOf(c.rpc(subscribe(QUADRATIC)));
  expect(e.errors[0]?.errorTag).toBe('resource-denied');
  await c.rpc(subscribe("/j:jukebox/j:library/j:artist[j:name='artist-7']"));
});

test('a subscription whose update passes the bound once the datastore grew is terminated', async () => {
  server = await serverWithArtists(100, { maxXPathWork: 100_000 });
  const c = await client(server);
  const terminated = (async () => {
    for await (const n of c.notifications() as AsyncIterable<NetconfNotification>)
      if (n.xml.includes('subscription-terminated')) return n.xml;
    return '';
  })();
  await c.rpc(subscribe(QUADRATIC));
  const artist = Array.from({ length: 2000 }, (_, i) => `<artist><name>more-${i}</name></artist>`).join('');
  await c.editConfig({
    target: 'running',
    config: `<jukebox xmlns="${JB}"><library>${artist}</library></jukebox>`,
  });
  expect(await terminated).toContain('filter-unavailable');
});

test('a modify-subscription whose new filter passes the bound is refused, and the subscription goes on as it was', async () => {
  server = await serverWithArtists(2000, { maxXPathWork: 100_000 });
  const c = await client(server);
  const reply = await c.rpc(subscribe("/j:jukebox/j:library/j:artist[j:name='artist-7']"));
  const id = /<id[^>]*>(\d+)<\/id>/.exec(reply.xml)![1]!;
  const e = await rpcErrorOf(
    c.rpc(
      `<modify-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><id>${id}</id><yp:datastore>ds:running</yp:datastore><yp:datastore-xpath-filter xmlns:j="${JB}">${QUADRATIC}</yp:datastore-xpath-filter></modify-subscription>`,
    ),
  );
  expect(e.errors[0]?.errorTag).toBe('resource-denied');
  // Its next update still holds the one artist of its filter.
  for await (const n of c.notifications() as AsyncIterable<NetconfNotification>) {
    if (!n.xml.includes('<push-update')) continue;
    expect(n.xml).toContain('<name>artist-7</name>');
    expect(n.xml).not.toContain('<name>artist-8</name>');
    break;
  }
});
