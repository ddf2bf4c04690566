import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { duplexPair, NetconfServer } from '@yangkit/netconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RestconfError } from '../src/errors.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { exampleSchema } from './harness.js';

let server: NetconfServer;
let schema: SchemaTree;
beforeAll(async () => {
  schema = await exampleSchema();
  server = await NetconfServer.create({ schema });
});
afterAll(() => server.close());

function factory(opened: NetconfSession[]): () => Promise<NetconfSession> {
  return async () => {
    const [a, b] = duplexPair();
    server.connect(a, { username: 'test' });
    const s = await connectStream(b);
    opened.push(s);
    return s;
  };
}

describe('createNetconfBackend', () => {
  test('learns the capabilities of the server at start', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]), watchChanges: false });
    await backend.start();
    expect(backend.capabilities.candidate).toBe(true);
    await backend.close();
  });

  test('reuses an idle session when the request left it reusable', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    const first = await backend.legacy.withSession(async (s) => s.sessionId);
    const second = await backend.legacy.withSession(async (s) => s.sessionId);
    expect(second).toBe(first);
    expect(opened).toHaveLength(1);
    await backend.close();
  });

  test('closes a session a request marked as not reusable, so its locks end with it', async () => {
    const opened: NetconfSession[] = [];
    const closed: number[] = [];
    const backend = createNetconfBackend({
      schema,
      openSession: factory(opened),
      watchChanges: false,
      closeSession: async (s) => {
        closed.push(s.sessionId);
        await s.close();
      },
    });
    await backend.start();
    const id = await backend.legacy.withSession(async (s, use) => {
      await s.lock({ target: 'candidate' });
      use.reusable = false;
      return s.sessionId;
    });
    expect(closed).toEqual([id]);
    // The lock died with the session: another session can take it.
    await backend.legacy.withSession(async (s) => {
      await s.lock({ target: 'candidate' });
      await s.unlock({ target: 'candidate' });
    });
    await backend.close();
  });

  test('concurrent requests get sessions of their own', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    const ids = await Promise.all(
      [1, 2, 3].map(() =>
        backend.legacy.withSession(async (s) => {
          await new Promise((r) => setTimeout(r, 10));
          return s.sessionId;
        }),
      ),
    );
    expect(new Set(ids).size).toBe(3);
    expect(backend.stats().idle).toBe(3);
    await backend.close();
  });

  test('reports changes made by other clients, not its own', async () => {
    const backend = createNetconfBackend({ schema, openSession: factory([]) });
    const seen: string[] = [];
    backend.onChange((ds) => seen.push(ds));
    await backend.start();
    await backend.legacy.withSession(async (s) => {
      await s.editConfig({
        target: 'candidate',
        config: '<jukebox xmlns="http://example.com/ns/example-jukebox"/>',
      });
      await s.commit();
    });
    const [a, b] = duplexPair();
    server.connect(a, { username: 'other' });
    const other = await connectStream(b);
    await other.editConfig({
      target: 'candidate',
      config:
        '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>0.1</gap></player></jukebox>',
    });
    await other.commit();
    await other.close();
    await expect.poll(() => seen.length, { timeout: 2000, interval: 20 }).toBe(1);
    expect(seen).toEqual(['running']);
    await backend.close();
  });

  test('drops an idle session that ended while idle and opens a new one', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    // The server went away while the session sat idle.
    opened[0]!.destroy(undefined, 'transport-closed');
    const id = await backend.legacy.withSession(async (s) => s.sessionId);
    expect(opened).toHaveLength(2);
    expect(id).toBe(opened[1]!.sessionId);
    await backend.close();
  });

  test('reports a session lost during a request as 503 of unknown outcome', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened), watchChanges: false });
    await backend.start();
    const failure = await backend.legacy
      .withSession(async (s) => {
        const reply = s.getConfig({ source: 'running' });
        // The transport dies with the RPC in flight.
        s.destroy(undefined, 'transport-closed');
        return reply;
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(RestconfError.isInstance(failure)).toBe(true);
    expect((failure as RestconfError).status).toBe(503);
    expect((failure as RestconfError).message).toMatch(/may or may not have been applied/);
    await backend.close();
  });

  test('subscribes again after its change watcher was lost and reports the unseen change', async () => {
    const opened: NetconfSession[] = [];
    const backend = createNetconfBackend({ schema, openSession: factory(opened) });
    const seen: string[] = [];
    backend.onChange((ds) => seen.push(ds));
    await backend.start();
    // start() opened the first idle session, then the watcher.
    opened[1]!.destroy(undefined, 'transport-closed');
    await expect.poll(() => backend.stats().sessions, { timeout: 2000, interval: 20 }).toBe(1);
    await backend.legacy.withSession(async (s) => s.sessionId);
    await expect.poll(() => seen, { timeout: 2000, interval: 20 }).toEqual(['running']);
    const [a, b] = duplexPair();
    server.connect(a, { username: 'other' });
    const other = await connectStream(b);
    await other.editConfig({
      target: 'candidate',
      config:
        '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>0.2</gap></player></jukebox>',
    });
    await other.commit();
    await other.close();
    await expect.poll(() => seen, { timeout: 2000, interval: 20 }).toEqual(['running', 'running']);
    await backend.close();
  });
});
