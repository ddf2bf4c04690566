import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChangeLog, cloneTree, encodeJson, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { RpcError } from '../src/errors.js';
import type { LocalSession } from '../src/local-session.js';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, JUKEBOX, mixedEdits, refusal, testSchema, testServer } from './helpers.js';

// A commit of a candidate made of edits to running's content exchanges the two trees instead of
// copying the changes onto running; the candidate then replays them in the background. Every
// observable result must be the one of the copy.

let schema: SchemaTree;
let server: NetconfServer;
let dir: string | undefined;
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Merges of the top-level nodes of a JSON configuration. */
const merges = (json: object) => configMerges(schema, json);

const json = (tree: InstanceTree) => encodeJson(tree);
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** A server whose running holds {@link JUKEBOX}, and a session of it. */
async function serverWithJukebox(
  options: Parameters<typeof testServer>[0] = {},
): Promise<{ server: NetconfServer; local: LocalSession }> {
  server = await testServer(options);
  const local = server.localSession('alice');
  local.editConfig('running', merges(JUKEBOX));
  return { server, local };
}

describe('a commit exchanges the candidate and running', () => {
  test('running becomes what replaying the candidate changes on it made it', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    const expected = new ChangeLog(cloneTree(server.running.tree));
    for (const c of server.candidate.since()) expected.replay(c);
    local.commit();
    expect(json(server.running.tree)).toBe(json(expected.tree));
    expect(json(server.running.tree)).toContain('"first"');
  });

  test('running takes the candidate tree itself, copying nothing', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    const candidateTree = server.candidate.tree;
    local.commit();
    expect(server.running.tree).toBe(candidateTree);
  });

  test('the candidate read right after a commit equals running', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(json(server.running.tree));
    expect(server.candidateModified).toBe(false);
  });

  test('the candidate got by NETCONF right after a commit equals running', async () => {
    const { local } = await serverWithJukebox();
    const nc = await client(server);
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    const [candidate, running] = await Promise.all([
      nc.getConfig({ source: 'candidate' }),
      nc.getConfig({ source: 'running' }),
    ]);
    expect(candidate).toContain('<description>first</description>');
    expect(candidate).toBe(running);
  });

  test('the candidate catches up in the background, without being asked', async () => {
    const { local } = await serverWithJukebox();
    const held = await local.readShared({ datastore: 'running' });
    let detached = false;
    held.onDetach(() => {
      detached = true;
    });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    // The former running tree is the candidate's: replaying onto it detaches its reader first.
    expect(detached).toBe(false);
    await turns(20);
    expect(detached).toBe(true);
    held.release();
  });

  test('a reader of running whose detach takes steps is detached in slices by the catch-up, the candidate waiting for it', async () => {
    const { local } = await serverWithJukebox();
    const held = await local.readShared({ datastore: 'running' });
    const before = json(held.tree);
    // Each step of the detach takes about 1 ms: 40 of them would hold the event loop 40 ms in one turn.
    const stepTurns = new Set<number>();
    let turn = 0;
    let seen: string | undefined;
    held.onDetach(function* () {
      for (let i = 0; i < 40; i++) {
        stepTurns.add(turn);
        const until = performance.now() + 1;
        while (performance.now() < until);
        yield;
      }
      seen = json(held.tree);
    });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    while (seen === undefined && turn < 1000) {
      turn++;
      await turns(1);
      // The candidate catches up only once the reader has detached, from the tree it read.
      if (seen === undefined) expect(json(held.tree)).toBe(before);
    }
    expect(seen).toBe(before);
    expect(stepTurns.size).toBeGreaterThan(1);
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(json(server.running.tree));
    held.release();
  });

  test('a reader holding running during a commit keeps its snapshot', async () => {
    const { local } = await serverWithJukebox();
    const before = json(server.running.tree);
    // Not started yet: detached, it goes on from a copy of what it read (the default).
    const held = await local.readShared({ datastore: 'running' });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    expect(json(held.tree)).toBe(before);
    await local.read({ datastore: 'candidate' });
    expect(json(held.tree)).toBe(before);
    held.release();
  });

  test('a shared read asked for before a commit and answered after it keeps what it read', async () => {
    const { local } = await serverWithJukebox();
    const reading = local.readShared({ datastore: 'running' });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    const held = await reading;
    const read = json(held.tree);
    await turns(20);
    expect(json(held.tree)).toBe(read);
    held.release();
  });

  test('a shared read whose state comes after a commit reads the committed tree and keeps it', async () => {
    const { local } = await serverWithJukebox();
    let answer: (xml: string) => void = () => {};
    server.provideState({
      provides: ['example-jukebox:jukebox'],
      get: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    const reading = local.readShared({ datastore: 'operational' });
    await turns(1);
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    answer('');
    const held = await reading;
    const read = json(held.tree);
    expect(read).toContain('"first"');
    await turns(20);
    expect(json(held.tree)).toBe(read);
    held.release();
  });

  test('a reader of the candidate during a commit reads running afterwards and detaches before it changes', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    const held = await local.readShared({ datastore: 'candidate' });
    let detached = 0;
    held.onDetach(() => {
      detached++;
    });
    local.commit();
    await local.read({ datastore: 'candidate' });
    expect(detached).toBe(0);
    local.editConfig('running', merges({ 'example-jukebox:jukebox': { player: { gap: '0.7' } } }));
    // The edit of running is made on the candidate, whose tree running takes: the tree read changes
    // when the candidate catches up with running.
    await local.read({ datastore: 'candidate' });
    expect(detached).toBe(1);
    held.release();
  });

  test('two commits in a row, the second before the candidate caught up with the first', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    local.editConfig('candidate', merges({ 'example-jukebox:jukebox': { playlist: [{ name: 'p4' }] } }));
    local.commit();
    const running = json(server.running.tree);
    expect(running).toContain('"first"');
    expect(running).toContain('"p4"');
    expect(running).not.toContain('"p2"');
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(running);
  });

  test('an edit of running while the candidate catches up reaches the candidate after the commit', async () => {
    const { local } = await serverWithJukebox();
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    local.editConfig('running', merges({ 'example-jukebox:jukebox': { player: { gap: '0.9' } } }));
    await turns(20);
    const candidate = json(await local.read({ datastore: 'candidate' }));
    expect(candidate).toBe(json(server.running.tree));
    expect(candidate).toContain('0.9');
    expect(candidate).toContain('"first"');
  });

  test('a commit refused by validation leaves running and the candidate as they were', async () => {
    const { local } = await serverWithJukebox();
    const running = server.running.tree;
    const before = json(running);
    // RFC 7950 section 7.6.5: a playlist song's id is mandatory.
    local.editConfig('candidate', [
      ...mixedEdits(schema),
      ...merges({ 'example-jukebox:jukebox': { playlist: [{ name: 'p1', song: [{ index: 9 }] }] } }),
    ]);
    const candidate = json(server.candidate.tree);
    expect((await refusal(() => local.commit())).errorTag).toBe('missing-element');
    expect(server.running.tree).toBe(running);
    expect(json(server.running.tree)).toBe(before);
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(candidate);
    expect(server.candidateModified).toBe(true);
    local.discardChanges();
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(before);
  });

  test('a commit refused by a validate hook leaves running and the candidate as they were', async () => {
    const { local } = await serverWithJukebox();
    const before = json(server.running.tree);
    let seen: string | undefined;
    server.onValidate((tree) => {
      seen = json(tree);
      throw new RpcError({ errorTag: 'operation-failed', errorType: 'application', errorMessage: 'no' });
    });
    local.editConfig('candidate', mixedEdits(schema));
    const candidate = json(server.candidate.tree);
    expect((await refusal(() => local.commit())).errorTag).toBe('operation-failed');
    expect(seen).toBe(candidate);
    expect(json(server.running.tree)).toBe(before);
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(candidate);
  });

  test("a confirmed commit's rollback after the exchange restores running and the candidate", async () => {
    const { local } = await serverWithJukebox();
    const before = json(server.running.tree);
    local.editConfig('candidate', mixedEdits(schema));
    local.commit({ confirmed: true, persist: 'tok' });
    local.editConfig('candidate', merges({ 'example-jukebox:jukebox': { playlist: [{ name: 'p4' }] } }));
    local.commit({ confirmed: true, persistId: 'tok' });
    expect(json(server.running.tree)).toContain('"p4"');
    await (await client(server)).cancelCommit({ persistId: 'tok' });
    expect(json(server.running.tree)).toBe(before);
    expect(json(await local.read({ datastore: 'candidate' }))).toBe(before);
  });

  test('the journal holds the committed changes: running is the same after a restart', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ncs-swap-'));
    const startupFile = path.join(dir, 'startup.json');
    const { local } = await serverWithJukebox({ startupFile });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    local.editConfig('candidate', merges({ 'example-jukebox:jukebox': { playlist: [{ name: 'p4' }] } }));
    local.commit();
    const committed = json(server.running.tree);
    await server.close();
    server = await testServer({ startupFile });
    expect(json(server.running.tree)).toBe(committed);
    expect(json(server.candidate.tree)).toBe(committed);
  });

  test('a compaction after the exchange writes the committed tree', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ncs-swap-'));
    const startupFile = path.join(dir, 'startup.json');
    const { local } = await serverWithJukebox({ startupFile, compactBytes: 64 });
    local.editConfig('candidate', mixedEdits(schema));
    local.commit();
    const committed = json(server.running.tree);
    // The snapshot is written and the journals it covers deleted.
    const compacted = () =>
      existsSync(startupFile) && readdirSync(dir!).filter((n) => n.includes('.journal.')).length <= 1;
    for (let i = 0; i < 100 && !compacted(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(compacted()).toBe(true);
    await server.close();
    server = await testServer({ startupFile });
    expect(json(server.running.tree)).toBe(committed);
  });

  test('a commit of an unmodified candidate exchanges nothing', async () => {
    const { local } = await serverWithJukebox();
    const running = server.running.tree;
    local.commit();
    expect(server.running.tree).toBe(running);
  });

  test('NACM rules committed through the candidate take effect at once', async () => {
    server = await testServer({ nacm: true });
    const admin = server.localSession('admin', { recovery: true });
    admin.editConfig(
      'candidate',
      merges({
        'ietf-netconf-acm:nacm': {
          'rule-list': [
            {
              name: 'all',
              group: ['*'],
              rule: [{ name: 'no-jukebox', 'module-name': 'example-jukebox', action: 'deny' }],
            },
          ],
        },
      }),
    );
    admin.commit();
    const bob = server.localSession('bob');
    const denied = await refusal(() => bob.editConfig('running', merges(JUKEBOX)));
    expect(denied.errorTag).toBe('access-denied');
  });
});
