import { connectStream, type NetconfNotification, type NetconfSession } from '@yangkit/netconf-client';
import type * as codec from '@yangkit/yang-json-codec';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { duplexPair } from '../src/index.js';
import { NetconfServer, type NetconfServerOptions } from '../src/server.js';
import { client, configMerges, JB, NC, serverWithArtists } from './helpers.js';
import { NACM, nacmSchema, recoverySession } from './nacm-helpers.js';

// An RFC 8641 update is read as a NETCONF read is: from running's own nodes, held so that it stays
// one snapshot, its selection made and its content encoded in slices, so that a big datastore does
// not hold the event loop for a whole update every period; and its content is bounded, the
// subscription suspended with update-too-big (and resumed) rather than the encoding run to the end.

/** The XML the codec's chunk encoder made, counted across the module (see the mock below). */
const encoded = vi.hoisted(() => ({ chars: 0, whenSuspended: 0 }));
vi.mock('@yangkit/yang-json-codec', async (importOriginal) => {
  const original = await importOriginal<typeof codec>();
  return {
    ...original,
    *encodeXmlChunks(...args: Parameters<typeof codec.encodeXmlChunks>) {
      for (const chunk of original.encodeXmlChunks(...args)) {
        encoded.chars += chunk.length;
        yield chunk;
      }
    },
  };
});

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const DS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

/** Artists enough for an update of about 2 MB: many chunks of the codec's encoder. */
const BIG = 50_000;

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

/** A server whose running datastore holds `count` artists. */
async function serverWith(
  count: number,
  options: Partial<NetconfServerOptions> = {},
): Promise<NetconfServer> {
  server = await serverWithArtists(count, options);
  return server;
}

/** A client session whose server side's notifications are recorded as they are sent. */
async function receiver(s: NetconfServer): Promise<{ client: NetconfSession; sent: string[] }> {
  const [a, b] = duplexPair();
  const session = s.connect(a, { username: 'reader' });
  const sent: string[] = [];
  const notify = session.notify.bind(session);
  session.notify = (xml: string) => {
    sent.push(xml);
    if (xml.includes('subscription-suspended')) encoded.whenSuspended = encoded.chars;
    if (xml.includes('<push-update')) ticksWhenSent.push(counted.ticks);
    notify(xml);
  };
  return { client: await connectStream(b), sent };
}

/** A periodic subscription to running, one update every `period` centiseconds. */
function periodic(period: number, filter = ''): string {
  return `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore>${filter}<yp:periodic><yp:period>${period}</yp:period></yp:periodic></establish-subscription>`;
}

/** Resolves with the first notification `session` receives that `match` accepts. */
async function first(session: NetconfSession, match: (xml: string) => boolean): Promise<NetconfNotification> {
  for await (const n of session.notifications()) if (match(n.xml)) return n;
  throw new Error('the session ended');
}

/**
 * Changes running (the player's gap), so that the next update reads it again rather than taking the
 * content made at establishment (see the next describe).
 */
function changeRunning(s: NetconfServer): void {
  s.localSession('admin').editConfig(
    'running',
    configMerges(s.schema, { 'example-jukebox:jukebox': { player: { gap: '0.7' } } }),
  );
}

/** The content of a push-update. */
function contentsOf(xml: string): string {
  return xml.slice(xml.indexOf('<datastore-contents>') + 20, xml.indexOf('</datastore-contents>'));
}

/** The ticks of {@link timerFrom}'s timer when each push-update was sent. */
const ticksWhenSent: number[] = [];
const counted = { ticks: 0 };

/**
 * Counts the turns of a 1 ms timer from each read of running's tree (the start of an update) on, and
 * runs `atTurn` at the first of them.
 */
function timerFrom(s: NetconfServer, atTurn: () => void = () => {}) {
  const state = counted;
  let reading = false;
  const running = s.running;
  const tree = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(running), 'tree')!.get!;
  Object.defineProperty(running, 'tree', {
    configurable: true,
    get() {
      state.ticks = 0;
      reading = true;
      return tree.call(running);
    },
  });
  const interval = setInterval(() => {
    if (reading && state.ticks++ === 0) atTurn();
  }, 1);
  return { stop: () => clearInterval(interval) };
}

describe('a periodic update of a big list', () => {
  /** Over the update of {@link BIG} artists. */
  const ROOMY = { maxUpdateBytes: 16 * 1024 * 1024 };

  test('lets a timer run between its slices', async () => {
    const s = await serverWith(BIG, ROOMY);
    const { client: c, sent } = await receiver(s);
    await c.rpc(periodic(20));
    changeRunning(s);
    ticksWhenSent.length = 0;
    const counting = timerFrom(s);
    try {
      const update = await first(c, (xml) => xml.includes('<push-update'));
      expect(contentsOf(update.xml)).toContain('<name>artist-49999</name>');
      expect(sent.some((xml) => xml.includes('<push-update'))).toBe(true);
      // Ticks counted from the update's read of running to its sending: several came between slices.
      expect(ticksWhenSent[0]).toBeGreaterThanOrEqual(3);
    } finally {
      counting.stop();
    }
  });

  test('does not show a change of running made during its slices', async () => {
    const s = await serverWith(BIG, ROOMY);
    const { client: c } = await receiver(s);
    await c.rpc(periodic(20));
    changeRunning(s);
    let changedDuring = false;
    const counting = timerFrom(s, () => {
      s.localSession('admin').editConfig(
        'running',
        configMerges(s.schema, { 'example-jukebox:jukebox': { library: { artist: [{ name: 'late' }] } } }),
      );
      changedDuring = true;
    });
    try {
      const update = await first(c, (xml) => xml.includes('<push-update'));
      expect(changedDuring).toBe(true);
      const contents = contentsOf(update.xml);
      expect(contents).toContain('<name>artist-49999</name>');
      expect(contents).not.toContain('<name>late</name>');
      const next = await first(c, (xml) => xml.includes('<push-update'));
      expect(contentsOf(next.xml)).toContain('<name>late</name>');
    } finally {
      counting.stop();
    }
  });
});

describe('a periodic update of a running that does not change', () => {
  test('is read and encoded once, then again after running changes', async () => {
    const s = await serverWith(1000);
    const { client: c } = await receiver(s);
    encoded.chars = 0;
    await c.rpc(periodic(5));
    const once = encoded.chars;
    expect(once).toBeGreaterThan(0);
    const updates: string[] = [];
    for (let i = 0; i < 3; i++)
      updates.push(contentsOf((await first(c, (xml) => xml.includes('<push-update'))).xml));
    expect(new Set(updates).size).toBe(1);
    expect(encoded.chars).toBe(once);
    s.localSession('admin').editConfig(
      'running',
      configMerges(s.schema, { 'example-jukebox:jukebox': { library: { artist: [{ name: 'late' }] } } }),
    );
    const next = await first(c, (xml) => xml.includes('<push-update') && xml.includes('late'));
    expect(contentsOf(next.xml)).toContain('<name>late</name>');
    expect(encoded.chars).toBeGreaterThan(once);
  });
});

describe('a periodic update slower than its period', () => {
  test('is made one at a time', async () => {
    const s = await serverWith(BIG, { maxUpdateBytes: 16 * 1024 * 1024 });
    const { client: c, sent } = await receiver(s);
    await c.rpc(periodic(1));
    const updates = () => sent.filter((xml) => xml.includes('<push-update')).length;
    const state = { reads: 0, most: 0 };
    const running = s.running;
    const tree = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(running), 'tree')!.get!;
    Object.defineProperty(running, 'tree', {
      configurable: true,
      get() {
        state.reads++;
        state.most = Math.max(state.most, state.reads - updates());
        return tree.call(running);
      },
    });
    // Periods of 10 ms, each update some tens of milliseconds of slices.
    const before = updates();
    await new Promise((r) => setTimeout(r, 1000));
    expect(updates()).toBeGreaterThan(before);
    expect(state.most).toBeLessThanOrEqual(1);
  });
});

describe('an update over the bound of the server', () => {
  const LIMIT = 64 * 1024;

  test('suspends the subscription with update-too-big and stops the encoding at the bound', async () => {
    const s = await serverWith(BIG, { maxUpdateBytes: LIMIT });
    const { client: c, sent } = await receiver(s);
    // Establishment evaluates the selection once, stopped at the bound.
    encoded.chars = 0;
    await c.rpc(periodic(20));
    const suspended = await first(c, (xml) => xml.includes('subscription-suspended'));
    expect(suspended.xml).toMatch(/<reason xmlns:yp="[^"]+">yp:update-too-big<\/reason>/);
    // One chunk (about 64 KiB) past the bound at most, of an update of about 2 MB.
    expect(encoded.whenSuspended).toBeLessThanOrEqual(LIMIT + 2 * 64 * 1024);
    expect(sent.some((xml) => xml.includes('<push-update'))).toBe(false);
    // Told once: the periods that follow, still too big, send nothing, and running unchanged, they
    // encode nothing either.
    await new Promise((r) => setTimeout(r, 500));
    expect(sent.filter((xml) => xml.includes('subscription-suspended'))).toHaveLength(1);
    expect(sent.some((xml) => xml.includes('<push-update'))).toBe(false);
    expect(encoded.chars).toBeLessThanOrEqual(LIMIT + 2 * 64 * 1024);
  });

  test('resumes the subscription with subscription-resumed and the whole content once an update fits', async () => {
    const s = await serverWith(BIG, { maxUpdateBytes: LIMIT });
    const { client: c, sent } = await receiver(s);
    await c.rpc(periodic(10));
    await first(c, (xml) => xml.includes('subscription-suspended'));
    await (await client(s, 'admin')).editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library xmlns:nc="${NC}" nc:operation="remove"/></jukebox>`,
    });
    const update = await first(c, (xml) => xml.includes('<push-update'));
    expect(contentsOf(update.xml)).not.toContain('<artist>');
    const resumed = sent.findIndex((xml) => xml.includes('subscription-resumed'));
    expect(resumed).toBeGreaterThan(sent.findIndex((xml) => xml.includes('subscription-suspended')));
    expect(resumed).toBeLessThan(sent.findIndex((xml) => xml.includes('<push-update')));
  });
});

describe('an on-change subscription whose first update is over the bound', () => {
  test('starts suspended, and a change that makes the content fit resumes it with the whole content', async () => {
    const s = await serverWith(BIG, { maxUpdateBytes: 64 * 1024 });
    const { client: c, sent } = await receiver(s);
    // Sent right after the reply: listened for before.
    const suspended = first(c, (xml) => xml.includes('subscription-suspended'));
    await c.rpc(
      `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore><yp:on-change><yp:dampening-period>0</yp:dampening-period></yp:on-change></establish-subscription>`,
    );
    await suspended;
    expect(sent.some((xml) => xml.includes('<push-'))).toBe(false);
    await (await client(s, 'admin')).editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library xmlns:nc="${NC}" nc:operation="remove"/></jukebox>`,
    });
    const update = await first(c, (xml) => xml.includes('<push-'));
    expect(update.xml).toContain('<push-update');
    expect(contentsOf(update.xml)).not.toContain('<artist>');
    expect(sent.findIndex((xml) => xml.includes('subscription-resumed'))).toBe(sent.length - 2);
  });
});

describe('an on-change subscription modified to a selection over the bound', () => {
  /** One artist: an update far under the bound. */
  const ONE = `<yp:datastore-xpath-filter xmlns:jb="${JB}">/jb:jukebox/jb:library/jb:artist[jb:name='artist-7']</yp:datastore-xpath-filter>`;
  /** Every artist: an update of about 2 MB. */
  const ALL = `<yp:datastore-xpath-filter xmlns:jb="${JB}">/jb:jukebox/jb:library</yp:datastore-xpath-filter>`;
  const modify = (id: string, filter: string) =>
    `<modify-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><id>${id}</id><yp:datastore>ds:running</yp:datastore>${filter}</modify-subscription>`;

  test('is suspended with update-too-big, and modified back it resumes with the whole content', async () => {
    const s = await serverWith(BIG, { maxUpdateBytes: 64 * 1024 });
    const { client: c, sent } = await receiver(s);
    const synced = first(c, (xml) => xml.includes('<push-update'));
    const reply = await c.rpc(
      `<establish-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}"><yp:datastore>ds:running</yp:datastore>${ONE}<yp:on-change><yp:dampening-period>0</yp:dampening-period></yp:on-change></establish-subscription>`,
    );
    const id = /<id[^>]*>(\d+)<\/id>/.exec(reply.xml)![1]!;
    expect(contentsOf((await synced).xml)).toContain('<name>artist-7</name>');

    const suspended = first(c, (xml) => xml.includes('subscription-suspended'));
    await c.rpc(modify(id, ALL));
    expect((await suspended).xml).toMatch(/yp:update-too-big/);
    expect(sent.filter((xml) => xml.includes('<push-'))).toHaveLength(1);
    const modified = sent.findIndex((xml) => xml.includes('subscription-modified'));
    expect(modified).toBeGreaterThan(0);
    expect(modified).toBeLessThan(sent.findIndex((xml) => xml.includes('subscription-suspended')));

    const resumedUpdate = first(c, (xml) => xml.includes('<push-'));
    await c.rpc(modify(id, ONE));
    const update = await resumedUpdate;
    expect(update.xml).toContain('<push-update');
    expect(contentsOf(update.xml)).toContain('<name>artist-7</name>');
    expect(contentsOf(update.xml)).not.toContain('<name>artist-8</name>');
    const resumed = sent.findIndex((xml) => xml.includes('subscription-resumed'));
    expect(resumed).toBeGreaterThan(sent.findIndex((xml) => xml.includes('subscription-suspended')));
    expect(resumed).toBe(sent.length - 2);
  });
});

describe('an update of a user whom a rule denies something in every entry', () => {
  /** bob may read the library, but no album of any artist (RFC 8341 section 3.4.5). */
  const HIDE_ALBUMS = `<nacm xmlns="${NACM}"><groups><group><name>operators</name><user-name>bob</user-name></group></groups><rule-list><name>operators</name><group>operators</group><rule><name>hide-albums</name><module-name>example-jukebox</module-name><path>/example-jukebox:jukebox/library/artist/album</path><access-operations>read</access-operations><action>deny</action></rule></rule-list></nacm>`;

  test.each([
    ['no filter', '', undefined],
    [
      'a subtree filter',
      `<yp:datastore-subtree-filter><jukebox xmlns="${JB}"><library/></jukebox></yp:datastore-subtree-filter>`,
      { subtree: `<jukebox xmlns="${JB}"><library/></jukebox>` },
    ],
    [
      'an XPath filter',
      `<yp:datastore-xpath-filter xmlns:jb="${JB}">/jb:jukebox/jb:library/jb:artist</yp:datastore-xpath-filter>`,
      { xpath: '/jb:jukebox/jb:library/jb:artist', namespaces: { jb: JB } },
    ],
  ])('with %s holds the bytes that user reads with <get-config>', async (_, filter, read) => {
    server = await NetconfServer.create({ schema: await nacmSchema(), nacm: true });
    const root = await recoverySession(server);
    const library = Array.from(
      { length: 20 },
      (_, i) => `<artist><name>a${i}</name><album><name>x${i}</name><year>2000</year></album></artist>`,
    ).join('');
    await root.editConfig({ target: 'running', config: HIDE_ALBUMS });
    await root.editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><library>${library}</library></jukebox>`,
    });
    const bob = await client(server, 'bob');
    await bob.rpc(periodic(10, filter));
    const contents = contentsOf((await first(bob, (xml) => xml.includes('<push-update'))).xml);
    expect(contents).toContain('<name>a19</name>');
    expect(contents).not.toContain('<album>');
    expect(contents).toBe(await bob.getConfig({ source: 'running', ...(read ? { filter: read } : {}) }));
  });
});
