import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { duplexPair, loadServerSchema, NetconfServer } from '@yangkit/netconf-server';
import { parseApiPath, resolveApiPath } from '@yangkit/restconf-uri';
import {
  decodeJson,
  encodeJson,
  type InstanceTree,
  type PathStep,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import { fromResolved, parseYangPatch, pathSchemaOf, planPatch } from '@yangkit/yang-patch';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EditError } from '../src/backend.js';
import { RestconfError } from '../src/errors.js';
import { createRestconfHandler } from '../src/handler.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { invokeRpc } from '../src/netconf-backend/invoke.js';
import { SUBSCRIPTION_FEATURES } from '../src/subscriptions/index.js';
import { exampleSchema, YANG_DIR } from './harness.js';
import { EVENT_NS, eventXml } from './streams-helpers.js';

let server: NetconfServer;
let schema: SchemaTree;
/** `example-jukebox:jukebox/player/gap`. */
let GAP: readonly PathStep[];
beforeAll(async () => {
  schema = await exampleSchema();
  server = await NetconfServer.create({ schema });
  GAP = fromResolved(
    resolveApiPath(parseApiPath('/example-jukebox:jukebox/player/gap'), pathSchemaOf(schema)),
  );
});
afterAll(() => server.close());

/** A session factory that records the sessions it opened and the user each was opened for. */
function factory(opened: NetconfSession[], users: (string | undefined)[] = []) {
  return async (user?: string): Promise<NetconfSession> => {
    const [a, b] = duplexPair();
    server.connect(a, { username: user ?? 'test' });
    const s = await connectStream(b);
    opened.push(s);
    users.push(user);
    return s;
  };
}

/** A session factory whose sessions record the text of every rpc they send. */
function recording(sent: string[]) {
  const open = factory([]);
  return async (user?: string): Promise<NetconfSession> => {
    const s = await open(user);
    const rpc = s.rpc.bind(s);
    s.rpc = (xml, ...rest) => {
      sent.push(xml);
      return rpc(xml, ...rest);
    };
    return s;
  };
}

/** The edits of a YANG Patch on the datastore, as the handler plans them. */
function editsOf(...edits: { operation: string; target: string; value?: unknown }[]): TreeEdit[] {
  const body = {
    'ietf-yang-patch:yang-patch': {
      'patch-id': 'test',
      edit: edits.map((e, i) => ({ 'edit-id': String(i + 1), ...e })),
    },
  };
  return [...planPatch(parseYangPatch(schema, JSON.stringify(body), { encoding: 'json' })).edits];
}

function gap(value: string) {
  return editsOf({
    operation: 'merge',
    target: '/example-jukebox:jukebox/player/gap',
    value: { 'example-jukebox:gap': value },
  });
}

function json(tree: InstanceTree): unknown {
  return JSON.parse(encodeJson(tree));
}

/** The ietf-netconf operation `name` with its input, decoded from JSON. */
function operation(name: string, input: unknown) {
  const op = schema.rpcs().find((r) => r.module === 'ietf-netconf' && r.name === name)!;
  const tree = decodeJson(schema, JSON.stringify({ 'ietf-netconf:input': input }), {
    kind: 'rpc-input',
    operation: op,
  });
  return { operation: op, input: tree };
}

describe('createNetconfBackend', () => {
  test('learns the capabilities and event streams of the server at start', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    expect(backend.capabilities).toMatchObject({ candidate: true, confirmedCommit: true, nmda: true });
    expect(backend.capabilities.streams.map((s) => s.name)).toContain('NETCONF');
    await backend.close();
  });

  test('edits and reads trees of its schema', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    await backend.edit({ edits: gap('0.3') });
    const tree = await backend.read({ target: GAP, content: 'config' });
    expect(json(tree)).toEqual({ 'example-jukebox:jukebox': { player: { gap: '0.3' } } });
    expect(await backend.exists({ target: GAP })).toBe(true);
    await backend.close();
  });

  test('an edit that fails names its edit and leaves nothing of the edits before it', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    await backend.edit({ edits: gap('0.4') });
    const failure = await backend
      .edit({
        edits: editsOf(
          {
            operation: 'merge',
            target: '/example-jukebox:jukebox/player/gap',
            value: { 'example-jukebox:gap': '0.9' },
          },
          {
            operation: 'create',
            target: '/example-jukebox:jukebox/player/gap',
            value: { 'example-jukebox:gap': '1.0' },
          },
        ),
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EditError);
    expect((failure as EditError).index).toBe(1);
    expect(json(await backend.read({ target: GAP, content: 'config' }))).toEqual({
      'example-jukebox:jukebox': { player: { gap: '0.4' } },
    });
    await backend.close();
  });

  test('a replace of the whole datastore is one copy-config of the new content, without operation attributes', async () => {
    const sent: string[] = [];
    const backend = createNetconfBackend({ schema, openSession: recording(sent), watchChanges: false });
    await backend.start();
    const edits = editsOf({
      operation: 'replace',
      target: '/example-jukebox:jukebox',
      value: { 'example-jukebox:jukebox': { player: { gap: '0.6' } } },
    });
    await backend.edit({ edits, defaultOperation: 'replace' });
    const writes = sent.filter((x) => /<(edit|copy)-config/.test(x));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^<copy-config><target><candidate\/><\/target><source><config /);
    expect(writes[0]).not.toContain('operation=');
    await backend.close();
  });

  test('a confirmed commit without confirmTimeout asks the server for 300 seconds', async () => {
    const sent: string[] = [];
    const backend = createNetconfBackend({ schema, openSession: recording(sent), watchChanges: false });
    await backend.start();
    await backend.edit({ edits: gap('0.7'), confirmed: { persist: 'backend-300' } });
    expect(sent.find((x) => x.startsWith('<commit'))).toContain('<confirm-timeout>300</confirm-timeout>');
    await backend.edit({ edits: gap('0.8'), persistId: 'backend-300' });
    expect(sent.filter((x) => x.startsWith('<commit')).at(-1)).toContain(
      '<persist-id>backend-300</persist-id>',
    );
    await backend.close();
  });

  test('reuses an idle session when the request left it reusable', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    await backend.read({ target: GAP });
    await backend.read({ target: GAP });
    expect(opened).toHaveLength(1);
    await backend.close();
  });

  test("opens each request's sessions for its user and reuses them for that user only", async () => {
    const opened: NetconfSession[] = [];
    const users: (string | undefined)[] = [];
    const backend = createNetconfBackend({
      schema,
      openSession: factory(opened, users),
      watchChanges: false,
    });
    await backend.start();
    for (const user of ['alice', 'bob', 'alice', 'bob']) await backend.read({ target: GAP, user });
    expect(users).toEqual([undefined, 'alice', 'bob']);
    await backend.close();
  });

  test('ends the session of an operation with its request, so a lock dies with it', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    const lock = operation('lock', { target: { candidate: [null] } });
    await backend.invoke(lock);
    await expect.poll(() => opened[0]!.endReason?.reason, { timeout: 2000, interval: 20 }).toBe('closed');
    // The lock died with the session: another request can take it.
    await backend.invoke(lock);
    await backend.close();
  });

  test('concurrent requests get sessions of their own', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    await Promise.all([1, 2, 3].map(() => backend.read({})));
    expect(backend.stats().idle).toBe(3);
    await backend.close();
  });

  /** Another NETCONF client sets the gap in the candidate and commits it. */
  async function changeGapAsAnotherClient(gap: string): Promise<void> {
    const [a, b] = duplexPair();
    server.connect(a, { username: 'other' });
    const other = await connectStream(b);
    await other.editConfig({
      target: 'candidate',
      config: `<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>${gap}</gap></player></jukebox>`,
    });
    await other.commit();
    await other.close();
  }

  test('reports a change of running by its own edit once, and by another client', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]) });
    const seen: string[] = [];
    backend.onChange((ds) => seen.push(ds));
    await backend.start();
    await backend.edit({ edits: gap('0.5') });
    expect(seen).toEqual(['running']);
    await changeGapAsAnotherClient('0.1');
    await expect.poll(() => seen, { timeout: 2000, interval: 20 }).toEqual(['running', 'running']);
    await backend.close();
  });

  test('drops an idle session that ended while idle and opens a new one', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    // The server went away while the session sat idle.
    opened[0]!.destroy(undefined, 'transport-closed');
    await backend.read({ target: GAP });
    expect(opened).toHaveLength(2);
    await backend.close();
  });

  test('reports a session lost during a request as 503 of unknown outcome', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    const session = opened[0]!;
    const rpc = session.rpc.bind(session);
    // The transport dies with the RPC in flight.
    session.rpc = (...args) => {
      const reply = rpc(...args);
      session.destroy(undefined, 'transport-closed');
      return reply;
    };
    const failure = await backend.edit({ edits: gap('0.6') }).catch((error: unknown) => error);
    expect(RestconfError.isInstance(failure)).toBe(true);
    expect((failure as RestconfError).status).toBe(503);
    expect((failure as RestconfError).message).toMatch(/may or may not have been applied/);
    await backend.close();
  });

  test('subscribes again after its change watch was lost and reports the unseen change', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened) });
    const seen: string[] = [];
    backend.onChange((ds) => seen.push(ds));
    await backend.start();
    // start() opened the first idle session, then the watch.
    opened[1]!.destroy(undefined, 'transport-closed');
    await expect.poll(() => backend.stats().sessions, { timeout: 2000, interval: 20 }).toBe(1);
    await backend.read({ target: GAP });
    await expect.poll(() => seen, { timeout: 2000, interval: 20 }).toEqual(['running']);
    await changeGapAsAnotherClient('0.2');
    await expect.poll(() => seen, { timeout: 2000, interval: 20 }).toEqual(['running', 'running']);
    await backend.close();
  });

  test('delivers the notifications of a stream decoded, until the subscription is closed', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    const subscription = await backend.subscribe({ stream: 'NETCONF' });
    server.publish(eventXml('decoded'));
    const received: InstanceTree[] = [];
    for await (const n of subscription) {
      received.push(n.tree);
      subscription.close();
    }
    const event = [...received[0]!.children.keys()][0]!;
    expect(event.namespace).toBe(EVENT_NS);
    expect(json(received[0]!)).toMatchObject({
      'ietf-restconf:notification': { 'example-mod:event': { 'event-class': 'decoded' } },
    });
    await backend.close();
  });

  test('the handler takes the schema of its backend and refuses another', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    const other = await loadServerSchema({ paths: [YANG_DIR], modules: ['example-jukebox'] });
    expect(() => createRestconfHandler({ schema: other, backend })).toThrow(RestconfError);
    const handler = createRestconfHandler({ backend });
    await handler.ready;
    await handler.close();
  });
});

describe('a big reply of the NETCONF server', () => {
  /** Artists enough for a reply whose decode takes many slices. */
  const ARTISTS = 20_000;

  test('is decoded in slices: other work runs between the reply and the read it answers', async () => {
    const library = Array.from({ length: ARTISTS }, (_, i) => ({ name: `artist-${i}` }));
    const admin = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await admin.start();
    const LIBRARY = fromResolved(
      resolveApiPath(parseApiPath('/example-jukebox:jukebox/library'), pathSchemaOf(schema)),
    );
    await admin.edit({
      edits: editsOf({
        operation: 'replace',
        target: '/example-jukebox:jukebox/library',
        value: { 'example-jukebox:library': { artist: library } },
      }),
    });
    /** Turns of the event loop taken from the moment each reply reached the backend. */
    let turnsAfterReply = 0;
    const open = factory([]);
    const backend = createNetconfBackend({
      schema,
      watchChanges: false,
      openSession: async (user) => {
        const s = await open(user);
        const rpc = s.rpc.bind(s);
        s.rpc = async (xml, ...rest) => {
          const reply = await rpc(xml, ...rest);
          turnsAfterReply = 0;
          const count = () => {
            turnsAfterReply++;
            if (turnsAfterReply < 1000) setImmediate(count);
          };
          setImmediate(count);
          return reply;
        };
        return s;
      },
    });
    await backend.start();
    const tree = await backend.read({ target: LIBRARY, content: 'config' });
    const decodedAfter = turnsAfterReply;
    expect(tree.children.size).toBe(1);
    expect(
      (json(tree) as { 'example-jukebox:jukebox': { library: { artist: unknown[] } } })[
        'example-jukebox:jukebox'
      ].library.artist,
    ).toHaveLength(ARTISTS);
    // Decoded in one run, the read would resolve before the first turn.
    expect(decodedAfter).toBeGreaterThan(1);
    await admin.edit({
      edits: editsOf({ operation: 'remove', target: '/example-jukebox:jukebox/library' }),
    });
    await Promise.all([backend.close(), admin.close()]);
  });
});

describe('a big YANG Push update of the NETCONF server', () => {
  test('is decoded in slices: other work runs between the notification and its delivery', async () => {
    const pushSchema = await loadServerSchema({
      paths: [YANG_DIR],
      modules: ['example-jukebox', 'ietf-yang-push', 'ietf-restconf-subscribed-notifications'],
      features: SUBSCRIPTION_FEATURES,
    });
    const netconf = await NetconfServer.create({ schema: pushSchema });
    const library = Array.from({ length: 20_000 }, (_, i) => `<artist><name>artist-${i}</name></artist>`);
    const [a, b] = duplexPair();
    netconf.connect(a, { username: 'admin' });
    const admin = await connectStream(b);
    await admin.editConfig({
      target: 'running',
      config: `<jukebox xmlns="http://example.com/ns/example-jukebox"><library>${library.join('')}</library></jukebox>`,
    });
    await admin.close();
    /** Turns of the event loop taken from the moment the last notification reached the backend. */
    let turnsAfterNotification = 0;
    const backend = createNetconfBackend({
      schema: pushSchema,
      watchChanges: false,
      openSession: async () => {
        const [a, b] = duplexPair();
        netconf.connect(a, { username: 'reader' });
        const s = await connectStream(b);
        const notifications = s.notifications.bind(s);
        s.notifications = () => {
          const events = notifications();
          const next = events.next.bind(events);
          events.next = async () => {
            const n = await next();
            turnsAfterNotification = 0;
            const count = () => {
              if (++turnsAfterNotification < 1000) setImmediate(count);
            };
            setImmediate(count);
            return n;
          };
          return events;
        };
        return s;
      },
    });
    await backend.start();
    const establish = pushSchema
      .rpcs()
      .find((r) => r.module === 'ietf-subscribed-notifications' && r.name === 'establish-subscription')!;
    const input = decodeJson(
      pushSchema,
      JSON.stringify({
        'ietf-subscribed-notifications:input': {
          'ietf-yang-push:datastore': 'ietf-datastores:running',
          'ietf-yang-push:periodic': { period: 100 },
        },
      }),
      { kind: 'rpc-input', operation: establish },
    );
    const subscription = await backend.subscribe({ establish, input });
    let update: InstanceTree | undefined;
    let turns = 0;
    for await (const n of subscription) {
      if (encodeJson(n.tree).includes('push-update')) {
        update = n.tree;
        turns = turnsAfterNotification;
        break;
      }
    }
    subscription.close();
    expect(encodeJson(update!)).toContain('"artist-19999"');
    // Decoded in one run, the update would be delivered before the first turn.
    expect(turns).toBeGreaterThan(1);
    await backend.close();
    await netconf.close();
  });
});

describe('the RPC of an operation with a big input', () => {
  test('is encoded in slices: other work runs while it is made', async () => {
    const playlist = Array.from({ length: 50_000 }, (_, i) => ({ name: `p${i}` }));
    const request = operation('edit-config', {
      target: { candidate: [null] },
      config: { 'example-jukebox:jukebox': { playlist } },
    });
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const rpc = await invokeRpc(request);
    counting = false;
    expect(rpc.startsWith('<edit-config')).toBe(true);
    expect(rpc).toContain('<name>p49999</name>');
    // Encoded in one run, it would be made before the first turn.
    expect(turns).toBeGreaterThan(1);
  });
});
