import { createFramer, duplexPair, encodeMessage, type FramingMode } from '@yangkit/netconf-client';
import { readXmlDocument } from '@yangkit/xml';
import { encodeXml, selectSubtree } from '@yangkit/yang-json-codec';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NMDA_NS } from '../src/nmda.js';
import { filterElements } from '../src/operation-args.js';
import { writeReply } from '../src/reply.js';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer } from '../src/server.js';
import { configMerges, JB, NC, serverWithArtists, testServer, YANG_DIR } from './helpers.js';
import { nacmSchema } from './nacm-helpers.js';

// A reply of a big datastore is written in pieces as the transport takes them: the event loop runs
// other work between them, a slow reader holds the session's reply rather than the server's memory,
// and the bytes are those of the reply written as one string.

/** Artists enough for a `<data>` of about 2 MB: many chunks of the codec's encoder. */
const BIG = 50_000;

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

/** A server whose running datastore holds `count` artists. */
async function serverWith(count: number): Promise<NetconfServer> {
  server = await serverWithArtists(count);
  return server;
}

/** One write of the server on the session's transport, and the timer ticks counted before it. */
interface Write {
  readonly bytes: Buffer;
  readonly ticks: number;
}

/**
 * A session on a transport that records the server's writes; while `full`, it reports each write
 * as filling its buffer (`write()` false, `writableNeedDrain`) until {@link Wire.drain}.
 */
function wire(s: NetconfServer, framing: FramingMode = 'eom') {
  const [a, b] = duplexPair();
  const writes: Write[] = [];
  const state = { full: false, ticks: 0 };
  const write = a.write.bind(a) as (chunk: Buffer) => boolean;
  (a as unknown as { write: (chunk: Buffer) => boolean }).write = (chunk: Buffer) => {
    writes.push({ bytes: Buffer.from(chunk), ticks: state.ticks });
    write(chunk);
    return !state.full;
  };
  Object.defineProperty(a, 'writableNeedDrain', { get: () => state.full });
  // The pipe's own 'drain' (its reader took the bytes) does not count while the buffer is "full".
  const emit = a.emit.bind(a) as (event: string | symbol, ...args: unknown[]) => boolean;
  (a as unknown as { emit: typeof emit }).emit = (event, ...args) =>
    event === 'drain' && state.full ? false : emit(event, ...args);
  const session = s.connect(a, { username: 'reader' });
  b.resume();
  const base = framing === 'eom' ? 'base:1.0' : 'base:1.1';
  b.write(
    `<hello xmlns="${NC}"><capabilities><capability>urn:ietf:params:netconf:${base}</capability></capabilities></hello>]]>]]>`,
  );
  /** The bytes written after the server hello. */
  const afterHello = (): Buffer => {
    const all = Buffer.concat(writes.map((w) => w.bytes));
    return all.subarray(all.indexOf(']]>]]>') + 6);
  };
  return {
    session,
    state,
    writes,
    afterHello,
    /** The messages written after the server hello, deframed. */
    messages(): string[] {
      const messages: string[] = [];
      const framer = createFramer({
        mode: framing,
        onMessage: (m) => messages.push(m),
        onError: (e) => messages.push(`${e}`),
      });
      framer.feed(afterHello());
      return messages;
    },
    send(rpc: string): void {
      b.write(framing === 'eom' ? `${rpc}]]>]]>` : `\n#${Buffer.byteLength(rpc)}\n${rpc}\n##\n`);
    },
    drain(): void {
      state.full = false;
      a.emit('drain');
    },
    close(): void {
      b.destroy();
    },
    pauseReading(): void {
      b.pause();
    },
  };
}

type Wire = ReturnType<typeof wire>;

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

/** Waits for `count` whole messages after the hello. */
async function messagesOf(w: Wire, count: number): Promise<string[]> {
  await until(() => w.messages().length >= count, `${count} messages`);
  return w.messages();
}

const GET_CONFIG = `<rpc message-id="1" xmlns="${NC}"><get-config><source><running/></source></get-config></rpc>`;

/** The reply to {@link GET_CONFIG} as one string: running's XML in `<data>`. */
function oneStringReply(s: NetconfServer, open = '<data>'): string {
  return writeReply(' message-id="1"', `${open}${encodeXml(s.running.tree, { view: {} })}</data>`);
}

/** NACM rules, as JSON, by which `rule` applies to `reader` (group `readers`). */
function readerRules(rule: object): object {
  return {
    'ietf-netconf-acm:nacm': {
      groups: { group: [{ name: 'readers', 'user-name': ['reader'] }] },
      'rule-list': [{ name: 'readers', group: ['readers'], rule: [rule] }],
    },
  };
}

/**
 * Sends `rpc` and runs `meanwhile` once on a timer tick that comes while running is held for the
 * read and nothing of the reply is written yet (a selection runs, or a big list is judged ahead of
 * its first entry); counts those ticks.
 */
async function whileHeld(s: NetconfServer, rpc: string, meanwhile: (w: Wire) => void = () => {}) {
  const w = wire(s);
  await until(() => w.writes.length > 0, 'the hello');
  const before = w.writes.length;
  const seen = { ticks: 0 };
  const timer = setInterval(() => {
    if (s.running.readers === 0 || w.writes.length > before) return;
    if (seen.ticks++ === 0) meanwhile(w);
  }, 1);
  w.send(rpc);
  return { w, before, seen, stop: () => clearInterval(timer) };
}

describe('a big reply', () => {
  beforeAll(async () => {
    // Loads the schema once, outside the tests' time.
    await testServer().then((s) => s.close());
  });

  test('a big <get-config> reply arrives in several writes, with a timer running between them', async () => {
    const s = await serverWith(BIG);
    const w = wire(s);
    await until(() => w.writes.length > 0, 'the hello');
    const timer = setInterval(() => w.state.ticks++, 1);
    try {
      const before = w.writes.length;
      w.send(GET_CONFIG);
      await messagesOf(w, 1);
      const reply = w.writes.slice(before);
      expect(reply.length).toBeGreaterThan(2);
      expect(reply.at(-1)!.ticks).toBeGreaterThan(reply[0]!.ticks);
    } finally {
      clearInterval(timer);
    }
  });

  test.each([
    ['get', `<get/>`],
    [
      'get-data',
      `<get-data xmlns="${NMDA_NS}"><datastore xmlns:ds="urn:ietf:params:xml:ns:yang:ietf-datastores">ds:operational</datastore></get-data>`,
    ],
  ])('a big <%s> reply arrives in several writes and is one well-formed message', async (_, op) => {
    const s = await serverWith(BIG);
    const w = wire(s);
    await until(() => w.writes.length > 0, 'the hello');
    const before = w.writes.length;
    w.send(`<rpc message-id="1" xmlns="${NC}">${op}</rpc>`);
    const [reply] = await messagesOf(w, 1);
    expect(w.writes.length - before).toBeGreaterThan(2);
    expect(readXmlDocument(reply!).local).toBe('rpc-reply');
    expect(reply).toContain(`<name>artist-${BIG - 1}</name>`);
  });

  test.each([
    ['small', 'eom', 3],
    ['small', 'chunked', 3],
    ['big', 'eom', BIG],
    ['big', 'chunked', BIG],
  ] as const)(
    'the %s <get-config> reply in %s framing has the bytes of the one-string reply',
    async (_, framing, count) => {
      const s = await serverWith(count);
      const w = wire(s, framing);
      w.send(GET_CONFIG);
      const [reply] = await messagesOf(w, 1);
      const expected = oneStringReply(s);
      expect(reply).toBe(expected);
      // End-of-message framing writes the same bytes; chunked framing can give each piece a chunk
      // of its own (RFC 6242 section 4.2), except for a reply of one piece.
      if (framing === 'eom' || count === 3)
        expect(w.afterHello().equals(encodeMessage(expected, framing))).toBe(true);
      else
        expect(
          w
            .afterHello()
            .toString()
            .match(/\n#\d+\n/g)!.length,
        ).toBeGreaterThan(2);
    },
  );

  test('a big <get-data> reply of running has the bytes of the one-string reply', async () => {
    const s = await serverWith(BIG);
    const w = wire(s);
    w.send(
      `<rpc message-id="1" xmlns="${NC}"><get-data xmlns="${NMDA_NS}"><datastore xmlns:ds="urn:ietf:params:xml:ns:yang:ietf-datastores">ds:running</datastore></get-data></rpc>`,
    );
    await messagesOf(w, 1);
    expect(w.afterHello().equals(encodeMessage(oneStringReply(s, `<data xmlns="${NMDA_NS}">`), 'eom'))).toBe(
      true,
    );
  });
});

describe('a reply the client does not read', () => {
  /** A session whose transport is full from the first piece of the reply to {@link GET_CONFIG} on. */
  async function stalledReply(s: NetconfServer): Promise<{ w: Wire; before: number }> {
    const w = wire(s);
    await until(() => w.writes.length > 0, 'the hello');
    const before = w.writes.length;
    w.state.full = true;
    w.send(GET_CONFIG);
    await until(() => w.writes.length > before, 'the first piece');
    // The rest of the reply is still to be encoded from the datastore's own nodes.
    expect(s.running.readers).toBe(1);
    return { w, before };
  }

  test('the reply waits for the transport: one piece is written while its buffer is full', async () => {
    const s = await serverWith(BIG);
    const { w, before } = await stalledReply(s);
    await new Promise((r) => setTimeout(r, 100));
    expect(w.writes.length - before).toBe(1);
    expect(s.running.readers).toBe(1);
  });

  test('a session closed mid-reply stops it and releases the datastore', async () => {
    const s = await serverWith(BIG);
    const { w, before } = await stalledReply(s);
    w.close();
    await until(() => s.running.readers === 0, 'the release');
    expect(w.writes.length - before).toBe(1);
    s.localSession('admin').editConfig(
      'running',
      configMerges(s.schema, { 'example-jukebox:jukebox': { player: { gap: '1.5' } } }),
    );
    expect(s.running.readers).toBe(0);
  });

  test('a session killed mid-reply releases the datastore though its client reads nothing', async () => {
    const s = await serverWith(BIG);
    const { w } = await stalledReply(s);
    // Nothing is read any more: the transport neither drains nor closes.
    w.pauseReading();
    s.killSession(w.session.id, undefined);
    await until(() => s.running.readers === 0, 'the release');
    expect(w.session.open).toBe(false);
  });

  test('a change of running during a reply does not show in it', async () => {
    const s = await serverWith(BIG);
    const expected = oneStringReply(s);
    const { w } = await stalledReply(s);
    s.localSession('admin').editConfig(
      'running',
      configMerges(s.schema, {
        'example-jukebox:jukebox': { library: { artist: [{ name: 'late-artist' }] } },
      }),
    );
    w.drain();
    const [reply] = await messagesOf(w, 1);
    expect(reply).toBe(expected);
    expect(oneStringReply(s)).toContain('late-artist');
    expect(s.running.readers).toBe(0);
  });

  test('a notification for the same session comes after the whole reply', async () => {
    const s = await serverWith(BIG);
    const w = wire(s);
    w.send(
      `<rpc message-id="0" xmlns="${NC}"><create-subscription xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"/></rpc>`,
    );
    await messagesOf(w, 1);
    const before = w.writes.length;
    w.state.full = true;
    w.send(GET_CONFIG);
    await until(() => w.writes.length > before, 'the first piece');
    s.publish(
      '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><reporting-entity><card>Ethernet0</card></reporting-entity><severity>major</severity></event>',
    );
    expect(w.writes.length - before).toBe(1);
    w.drain();
    const messages = await messagesOf(w, 3);
    expect(messages[1]).toBe(oneStringReply(s));
    expect(messages[2]).toContain('<card>Ethernet0</card>');
  });
});

describe('a reply with a subtree filter', () => {
  // The selection (and, with NACM, the copy of what the user may read) is made in slices before the
  // reply's first byte, with running held for it: it was one turn in proportion to the data.

  /** `reader` may read the library, but no album of any artist: a rule that restricts every entry. */
  const HIDE_ALBUMS = readerRules({
    name: 'hide-albums',
    'module-name': 'example-jukebox',
    path: '/example-jukebox:jukebox/library/artist/album',
    'access-operations': 'read',
    action: 'deny',
  });

  /** A server whose running holds {@link BIG} artists, each with an album; `nacm`: with {@link HIDE_ALBUMS}. */
  async function filteredServer(nacm: boolean): Promise<NetconfServer> {
    server = nacm
      ? await NetconfServer.create({ schema: await nacmSchema(), nacm: true })
      : await testServer();
    const artist = Array.from({ length: BIG }, (_, i) => ({
      name: `artist-${i}`,
      album: [{ name: `x${i}` }],
    }));
    server.localSession('admin', { recovery: true }).editConfig(
      'running',
      configMerges(server.schema, {
        'example-jukebox:jukebox': { library: { artist } },
        ...(nacm ? HIDE_ALBUMS : {}),
      }),
    );
    return server;
  }

  const FILTER = `<jukebox xmlns="${JB}"><library><artist/></library></jukebox>`;
  const FILTERED = `<rpc message-id="1" xmlns="${NC}"><get-config><source><running/></source><filter type="subtree">${FILTER}</filter></get-config></rpc>`;

  /** The reply to {@link FILTERED} as one string, from running as it is now. */
  function filteredReply(s: NetconfServer, nacm: boolean): string {
    const selection = selectSubtree(s.running.tree, filterElements([readXmlDocument(FILTER)]));
    const xml = encodeXml(selection, { view: {} });
    // With NACM the reader's reply has no album.
    return writeReply(
      ' message-id="1"',
      `<data>${nacm ? xml.replace(/<album>.*?<\/album>/g, '') : xml}</data>`,
    );
  }

  describe.each([
    ['', false],
    [' by a user whom NACM denies every album', true],
  ])('a <get-config> of a big list%s', (_, nacm) => {
    test('lets a timer run between slices before the reply starts, and has the bytes of the one-string reply', async () => {
      const s = await filteredServer(nacm);
      const expected = filteredReply(s, nacm);
      const { w, seen, stop } = await whileHeld(s, FILTERED);
      try {
        const [reply] = await messagesOf(w, 1);
        expect(seen.ticks).toBeGreaterThan(0);
        expect(reply).toBe(expected);
        expect(w.afterHello().equals(encodeMessage(expected, 'eom'))).toBe(true);
        expect(reply).toContain('<name>artist-49999</name>');
        expect(reply!.includes('<album>')).toBe(!nacm);
      } finally {
        stop();
      }
    });

    test('does not show a change of running made while the selection runs', async () => {
      const s = await filteredServer(nacm);
      const expected = filteredReply(s, nacm);
      let readersAfterEdit: number | undefined;
      const { w, seen, stop } = await whileHeld(s, FILTERED, () => {
        s.localSession('admin', { recovery: true }).editConfig(
          'running',
          configMerges(s.schema, {
            'example-jukebox:jukebox': {
              library: { artist: [{ name: 'artist-3', album: [{ name: 'late' }] }, { name: 'late-artist' }] },
            },
          }),
        );
        readersAfterEdit = s.running.readers;
      });
      try {
        const [reply] = await messagesOf(w, 1);
        expect(seen.ticks).toBeGreaterThan(0);
        // The read was told of the change before it was made (and finished its selection then).
        expect(readersAfterEdit).toBe(0);
        expect(reply).toBe(expected);
        expect(encodeXml(s.running.tree)).toContain('late-artist');
        expect(s.running.readers).toBe(0);
      } finally {
        stop();
      }
    });

    test('releases running when the session is closed while the selection runs', async () => {
      const s = await filteredServer(nacm);
      const { w, before, seen, stop } = await whileHeld(s, FILTERED, (w) => w.close());
      try {
        await until(() => seen.ticks > 0, 'the selection');
        await until(() => s.running.readers === 0, 'the release');
        expect(w.writes.length).toBe(before);
      } finally {
        stop();
      }
    });
  });

  test('an XPath filter that does not compile is an <rpc-error> and releases running', async () => {
    const s = await serverWith(3);
    const w = wire(s);
    w.send(
      `<rpc message-id="1" xmlns="${NC}"><get-config><source><running/></source><filter type="xpath" select="/jukebox["/></get-config></rpc>`,
    );
    const [reply] = await messagesOf(w, 1);
    expect(reply).toContain('<error-tag>invalid-value</error-tag>');
    expect(s.running.readers).toBe(0);
  });
});

describe('a reply of a big list of two keys to a user whom a rule names entries by one of them', () => {
  // Such a rule tells no entry apart by key (the other key may be anything): each entry is judged
  // as the reply is written, ahead of the first one. That runs in steps, with turns of the event
  // loop between them: it was one turn in proportion to the list.
  const ROUTES_YANG = `module example-routes {
    yang-version 1.1;
    namespace "urn:example:routes";
    prefix rt;
    container routes {
      list route {
        key "prefix vrf";
        leaf prefix { type string; }
        leaf vrf { type string; }
      }
    }
  }`;
  const ROUTES = 50_000;
  /** `reader` may read no route of vrf red. */
  const HIDE_RED = readerRules({
    name: 'hide-red',
    'module-name': 'example-routes',
    path: "/example-routes:routes/route[vrf='red']",
    'access-operations': 'read',
    action: 'deny',
  });

  test('lets a timer run while the routes are judged, before the reply starts, and has the bytes of the readable copy', async () => {
    const schema = await loadServerSchema({
      paths: [YANG_DIR],
      texts: [ROUTES_YANG],
      modules: ['example-routes'],
    });
    server = await NetconfServer.create({ schema, nacm: true });
    const route = Array.from({ length: ROUTES }, (_, i) => ({
      prefix: `10.${i}/32`,
      vrf: i % 2 === 0 ? 'red' : 'blue',
    }));
    server
      .localSession('admin', { recovery: true })
      .editConfig('running', configMerges(schema, { 'example-routes:routes': { route }, ...HIDE_RED }));
    const readable = encodeXml(await server.localSession('reader').read({ datastore: 'running' }));
    const expected = writeReply(' message-id="1"', `<data>${readable}</data>`);
    const { w, seen, stop } = await whileHeld(server, GET_CONFIG);
    try {
      const [reply] = await messagesOf(w, 1);
      expect(seen.ticks).toBeGreaterThan(2);
      expect(reply).toBe(expected);
      expect(reply).toContain(`<prefix>10.${ROUTES - 1}/32</prefix>`);
      expect(reply).not.toContain('<vrf>red</vrf>');
    } finally {
      stop();
    }
  });
});
