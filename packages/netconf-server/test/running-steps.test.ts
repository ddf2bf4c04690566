import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readXml } from '@yangkit/xml';
import {
  childrenNamed,
  decodeJson,
  encodeJson,
  type InstanceTree,
  type Steps,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createDatastore } from '../src/datastore.js';
import { applyEdits, configEdits, configEditsSteps, decodeConfig } from '../src/edit-config.js';
import type { NetconfServer } from '../src/server.js';
import {
  client,
  configMerges,
  JB,
  JUKEBOX,
  mixedEdits,
  NC,
  refusal,
  rpcErrorOf,
  testSchema,
  testServer,
} from './helpers.js';

// An edit of running is made on the candidate, while the candidate is unmodified, in steps, and
// running takes the candidate's tree by the exchange a commit uses: every result must be the one of
// the edit made on running in one turn (as on a server without a candidate).

let schema: SchemaTree;
const servers: NetconfServer[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serverOf(options: Parameters<typeof testServer>[0] = {}): Promise<NetconfServer> {
  const server = await testServer(options);
  servers.push(server);
  return server;
}

const json = (tree: InstanceTree) => encodeJson(tree);
const nextTurn = () => new Promise((r) => setImmediate(r));
const jukebox = (body: object) => configMerges(schema, { 'example-jukebox:jukebox': body });
/** `count` playlists named `<prefix><i>`: a few thousand make an edit of many slices. */
const playlists = (count: number, prefix = 'p') =>
  jukebox({ playlist: Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}` })) });
/** RFC 7950 section 7.6.5: a playlist song's id is mandatory, so this playlist does not validate. */
const invalidPlaylist = { name: 'invalid', song: [{ index: 1 }] };

/** Where {@link heldAfterFirstStep} is: `holding` once its first step is made, until `go`. */
interface Hold {
  holding: boolean;
  go: boolean;
}

/**
 * `steps` with its first step made, then held there (yielding, so other work runs between slices)
 * until `hold.go`.
 */
function* heldAfterFirstStep(steps: Steps<void>, hold: Hold): Steps<void> {
  if (steps.next().done === true) return;
  hold.holding = true;
  while (!hold.go) yield;
  hold.holding = false;
  while (steps.next().done !== true) yield;
}

/** Two turns of the event loop: reserved work has made its first step. */
async function turns(): Promise<void> {
  await nextTurn();
  await nextTurn();
}

/** Whether the candidate is running's equal with no change of its own. */
function candidateIsRunning(server: NetconfServer): boolean {
  return !server.candidateModified && json(server.candidate.tree) === json(server.running.tree);
}

describe('an edit of running in steps', () => {
  test('running takes the tree the edit was made on (the candidate) rather than being edited in place', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    const candidateTree = server.candidate.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(10)));
    expect(server.running.tree).toBe(candidateTree);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('a lock of the candidate by another session is kept, and the edit of running is made all the same', async () => {
    const server = await serverOf();
    const nc = await client(server);
    await nc.lock({ target: 'candidate' });
    const alice = server.localSession('alice');
    const candidateTree = server.candidate.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(10)));
    expect(server.running.tree).toBe(candidateTree);
    expect(json(server.running.tree)).toContain('"p9"');
    // The lock holder edits the candidate as if nothing had used it; others are still refused.
    await nc.editConfig({
      target: 'candidate',
      config: `<jukebox xmlns="${JB}"><player><gap>0.3</gap></player></jukebox>`,
    });
    expect(json(server.candidate.tree)).toContain('"p9"');
    expect(json(server.candidate.tree)).toContain('0.3');
    const bob = server.localSession('bob');
    expect((await refusal(() => bob.editConfig('candidate', playlists(1, 'x')))).errorTag).toBe('in-use');
  });

  test('a candidate modified by someone keeps its changes, and the edit of running is made on the private scratch tree', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('candidate', playlists(2, 'uncommitted'));
    const candidate = json(server.candidate.tree);
    const runningTree = server.running.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(2, 'edited')));
    expect(server.running.tree).not.toBe(runningTree);
    expect(json(server.running.tree)).toContain('"edited1"');
    expect(json(server.running.tree)).not.toContain('"uncommitted0"');
    expect(server.candidateModified).toBe(true);
    expect(json(server.candidate.tree)).toBe(candidate);
  });

  test('a confirmed commit cancelled after an edit of running in steps undoes that edit too', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('running', playlists(1, 'kept'));
    const before = json(server.running.tree);
    alice.editConfig('candidate', playlists(1, 'committed'));
    alice.commit({ confirmed: true, persist: 'tok' });
    const candidateTree = server.candidate.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(300, 'edited')));
    expect(server.running.tree).toBe(candidateTree);
    expect(json(server.running.tree)).toContain('"edited299"');
    await (await client(server)).cancelCommit({ persistId: 'tok' });
    expect(json(server.running.tree)).toBe(before);
    expect(candidateIsRunning(server)).toBe(true);
  });
});

describe('a NETCONF edit in slices', () => {
  test('a big <edit-config> of running lets the event loop turn many times before it is answered', async () => {
    const server = await serverOf();
    const nc = await client(server);
    const config = playlistsXml(5_000);
    let answered = false;
    let turns = 0;
    const count = (): void => {
      turns++;
      if (!answered) setImmediate(count);
    };
    setImmediate(count);
    await nc.editConfig({ target: 'running', config });
    answered = true;
    // Read, decoded, applied, checked and validated in slices of about 5 ms: one turn each at least.
    expect(turns).toBeGreaterThan(10);
    expect(json(server.running.tree)).toContain('"p4999"');
  });

  test('configEditsSteps yields while it turns a big config into edits, and gives what configEdits gives', () => {
    const content = () => decodeConfig(schema, readXml(playlistsXml(3_000)));
    const steps = configEditsSteps(content(), 'merge');
    let yields = 0;
    let next = steps.next();
    while (next.done !== true) {
      yields++;
      next = steps.next();
    }
    expect(yields).toBeGreaterThan(10);
    // The same edits make the same datastore.
    const applied = (edits: readonly TreeEdit[]) => {
      const ds = createDatastore(schema);
      applyEdits(schema, ds, edits, 'rollback-on-error');
      return json(ds.tree);
    };
    expect(applied(next.value)).toBe(applied(configEdits(content(), 'merge')));
    expect(applied(next.value)).toContain('"p2999"');
  });
});

describe('an edit of running in steps gives the results of one turn', () => {
  /**
   * A server with a candidate (an edit of running in steps) and one without (in one turn), each
   * with running holding `seed` (edits made anew for each), and their sessions of alice.
   */
  async function pair(
    seed: () => TreeEdit[],
    options: (candidate: boolean) => Parameters<typeof testServer>[0] = () => ({}),
  ): Promise<NetconfServer[]> {
    const made: NetconfServer[] = [];
    for (const candidate of [true, false]) {
      const server = await serverOf({ ...options(candidate), candidate });
      server.localSession('seed').editConfig('running', seed());
      made.push(server);
    }
    return made;
  }

  test.each([
    ['stop-on-error', 'valid'],
    ['continue-on-error', 'valid'],
    ['continue-on-error', 'invalid'],
  ] as const)(
    '%s, the entry after the error being %s, fails and keeps the same',
    async (errorOption, rest) => {
      const last =
        rest === 'valid'
          ? '<playlist><name>last</name></playlist>'
          : '<playlist><name>last</name><song><index>1</index></song></playlist>';
      const config = `<jukebox xmlns="${JB}" xmlns:nc="${NC}"><playlist><name>first</name></playlist><playlist nc:operation="create"><name>kept0</name></playlist>${last}</jukebox>`;
      const results: { errors: string[]; running: string }[] = [];
      for (const server of await pair(() => playlists(2, 'kept'))) {
        const nc = await client(server);
        const error = await rpcErrorOf(nc.editConfig({ target: 'running', config, errorOption }));
        results.push({ errors: error.errors.map((e) => e.errorTag), running: json(server.running.tree) });
      }
      const [inSteps, oneTurn] = results;
      expect(inSteps).toEqual(oneTurn);
      expect(inSteps!.errors[0]).toBe('data-exists');
      expect(inSteps!.running).toContain(rest === 'valid' ? '"first"' : '"kept1"');
    },
  );

  test('the journal and the netconf-config-change event are those of the edit in one turn', async () => {
    const journals: string[] = [];
    const startupFile = () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'ncs-running-'));
      dirs.push(dir);
      journals.push(dir);
      return { startupFile: path.join(dir, 'startup.json') };
    };
    const seed = () => configMerges(schema, JUKEBOX);
    const results: { journal: string; event: unknown }[] = [];
    for (const [i, server] of (await pair(seed, startupFile)).entries()) {
      const alice = server.localSession('alice');
      await alice.reserveCandidate(() => alice.editConfigSteps('running', mixedEdits(schema)));
      const last = server.events.between(0, Number.POSITIVE_INFINITY).at(-1)!;
      const event = JSON.parse(json(last.tree))['ietf-restconf:notification'];
      delete event.eventTime;
      results.push({ journal: journalOf(journals[i]!), event });
    }
    const [inSteps, oneTurn] = results;
    expect(inSteps).toEqual(oneTurn);
    expect(JSON.stringify(inSteps!.event)).toContain('netconf-config-change');
  });
});

// Without a candidate, or with one holding someone's uncommitted changes, a change of running is made
// in steps on the server's private scratch tree: an edit of running, copy-config to running, the
// commit of a candidate replaced by copy-config, a confirmed commit's rollback.

/**
 * The servers by the scratch tree of their changes of running: the candidate (unmodified), the
 * private one (without a candidate, or with one holding an uncommitted change).
 */
const SCRATCH_KINDS = [
  ['whose candidate is unmodified', undefined],
  ['without a candidate', false],
  ['whose candidate holds an uncommitted change', true],
] as const;

/**
 * A server with an unmodified candidate (`modified` undefined), without a candidate (false), or with
 * a candidate holding an uncommitted change made by a recovery session (true); `options` as
 * {@link testServer}'s.
 */
async function scratchServer(
  modified: boolean | undefined,
  options: Parameters<typeof testServer>[0] = {},
): Promise<NetconfServer> {
  const server = await serverOf({ ...options, candidate: modified !== false });
  if (modified === true)
    server
      .localSession('carol', { recovery: true })
      .editConfig('candidate', jukebox({ player: { gap: '0.7' } }));
  return server;
}

/** The candidate's content, undefined without a candidate (a modified candidate must keep it). */
function candidateOf(server: NetconfServer): string | undefined {
  return server.features.candidate ? json(server.candidate.tree) : undefined;
}

/** An unmodified candidate follows running; one holding a change keeps it as it was (`before`). */
function expectCandidateAfter(
  server: NetconfServer,
  modified: boolean | undefined,
  before: string | undefined,
): void {
  expect(candidateOf(server)).toBe(modified === undefined ? json(server.running.tree) : before);
}

/** How many playlists running holds: cheap enough to read at every turn of the event loop. */
function playlistCount(server: NetconfServer): number {
  const [top] = childrenNamed(server.running.tree, 'example-jukebox', 'jukebox');
  return top === undefined ? 0 : childrenNamed(top, 'example-jukebox', 'playlist').length;
}

/**
 * Runs `request`, reading running's playlists at every turn of the event loop until it is answered:
 * how many turns there were, and the counts read.
 */
async function readingsDuring(
  server: NetconfServer,
  request: () => Promise<unknown>,
): Promise<{ turns: number; counts: Set<number> }> {
  let answered = false;
  let turns = 0;
  const counts = new Set<number>();
  const read = (): void => {
    if (answered) return;
    turns++;
    counts.add(playlistCount(server));
    setImmediate(read);
  };
  setImmediate(read);
  try {
    await request();
  } finally {
    answered = true;
  }
  return { turns, counts };
}

/** `count` playlists as NETCONF config content. */
const playlistsXml = (count: number, prefix = 'p') =>
  `<jukebox xmlns="${JB}">${Array.from({ length: count }, (_, i) => `<playlist><name>${prefix}${i}</name></playlist>`).join('')}</jukebox>`;

/** A whole configuration of `count` playlists (copy-config's content). */
const playlistsTree = (count: number, prefix = 'p') =>
  decodeJson(
    schema,
    {
      'example-jukebox:jukebox': {
        playlist: Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}` })),
      },
    },
    { kind: 'config' },
  );

describe.each(SCRATCH_KINDS)('on a server %s', (_, modified) => {
  test('a reader of running between slices of an edit of running reads running as it was before it', async () => {
    const server = await scratchServer(modified);
    const alice = server.localSession('alice');
    alice.editConfig('running', jukebox({ player: { gap: '1.5' } }));
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const hold = { holding: false, go: false };
    const done = alice.reserveCandidate(() =>
      heldAfterFirstStep(alice.editConfigSteps('running', playlists(2_000)), hold),
    );
    await turns();
    expect(hold.holding).toBe(true);
    expect(json(await server.localSession('bob').read({ datastore: 'running' }))).toBe(before);
    hold.go = true;
    await done;
    expect(json(server.running.tree)).toContain('"p1999"');
    expectCandidateAfter(server, modified, candidate);
  });

  test('a big <edit-config> of running is made in slices, and no reader of running sees it half made', async () => {
    const server = await scratchServer(modified);
    const nc = await client(server);
    const { turns, counts } = await readingsDuring(server, () =>
      nc.editConfig({ target: 'running', config: playlistsXml(5_000) }),
    );
    // Read and decoded in slices at least; no reading between them sees running changed.
    expect(turns).toBeGreaterThan(1);
    expect([...counts]).toEqual([0]);
    expect(playlistCount(server)).toBe(5_000);
  });

  test('an edit of running that does not validate changes neither running nor the candidate', async () => {
    const server = await scratchServer(modified);
    const alice = server.localSession('alice');
    alice.editConfig('running', playlists(3, 'kept'));
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const edits = jukebox({ playlist: [{ name: 'new' }, invalidPlaylist] });
    const error = await refusal(() => alice.reserveCandidate(() => alice.editConfigSteps('running', edits)));
    expect(error.errorTag).toBe('missing-element');
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });

  test('an edit of running NACM denies changes neither running nor the candidate', async () => {
    const server = await scratchServer(modified, { nacm: true });
    server.localSession('system', { recovery: true }).editConfig('running', playlists(3, 'kept'));
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const alice = server.localSession('alice');
    const error = await refusal(() =>
      alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(200))),
    );
    expect(error.errorTag).toBe('access-denied');
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });

  test('a lock of running taken while an edit of running is made refuses it with in-use, and changes nothing', async () => {
    const server = await scratchServer(modified);
    const alice = server.localSession('alice');
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const hold = { holding: false, go: false };
    const refused = refusal(() =>
      alice.reserveCandidate(() =>
        heldAfterFirstStep(alice.editConfigSteps('running', playlists(500)), hold),
      ),
    );
    await turns();
    expect(hold.holding).toBe(true);
    await (await client(server)).lock({ target: 'running' });
    hold.go = true;
    expect((await refused).errorTag).toBe('in-use');
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });

  test('a big copy-config to running is made in slices, and no reader of running sees it half made', async () => {
    const server = await scratchServer(modified);
    const nc = await client(server);
    await nc.editConfig({ target: 'running', config: playlistsXml(10, 'old') });
    const candidate = candidateOf(server);
    const { turns, counts } = await readingsDuring(server, () =>
      nc.copyConfig({ target: 'running', source: { config: playlistsXml(5_000) } }),
    );
    // Read and decoded in slices at least; no reading between them sees running changed.
    expect(turns).toBeGreaterThan(1);
    expect([...counts]).toEqual([10]);
    expect(playlistCount(server)).toBe(5_000);
    expect(json(server.running.tree)).not.toContain('"old0"');
    expectCandidateAfter(server, modified, candidate);
  });

  test('a copy-config to running that does not validate changes neither running nor the candidate', async () => {
    const server = await scratchServer(modified);
    const nc = await client(server);
    await nc.editConfig({ target: 'running', config: playlistsXml(3, 'kept') });
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const config = `<jukebox xmlns="${JB}"><playlist><name>new</name></playlist><playlist><name>invalid</name><song><index>1</index></song></playlist></jukebox>`;
    const error = await rpcErrorOf(nc.copyConfig({ target: 'running', source: { config } }));
    expect(error.errors.map((e) => e.errorTag)).toEqual(['missing-element']);
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });

  test('a copy-config to running NACM denies changes neither running nor the candidate', async () => {
    const server = await scratchServer(modified, { nacm: true });
    server.localSession('system', { recovery: true }).editConfig('running', playlists(3, 'kept'));
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    const nc = await client(server, 'alice');
    const error = await rpcErrorOf(
      nc.copyConfig({ target: 'running', source: { config: playlistsXml(200) } }),
    );
    expect(error.errors.map((e) => e.errorTag)).toEqual(['access-denied']);
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });

  test('a lock of running taken while a copy-config to running is made refuses it with in-use, and changes nothing', async () => {
    const server = await scratchServer(modified);
    const before = json(server.running.tree);
    const candidate = candidateOf(server);
    await client(server);
    const [session] = server.sessions.values();
    const hold = { holding: false, go: false };
    const refused = refusal(() =>
      server.reserveCandidate(() =>
        heldAfterFirstStep(server.replaceRunningSteps(session, playlistsTree(2_000)), hold),
      ),
    );
    await turns();
    expect(hold.holding).toBe(true);
    expect(json(server.running.tree)).toBe(before);
    await (await client(server)).lock({ target: 'running' });
    hold.go = true;
    expect((await refused).errorTag).toBe('in-use');
    expect(json(server.running.tree)).toBe(before);
    expectCandidateAfter(server, modified, candidate);
  });
});

describe('the commit of a candidate replaced by copy-config', () => {
  test('lets a reader of running between slices read running as it was before it', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('running', playlists(3, 'old'));
    const before = json(server.running.tree);
    server.replaceCandidate(playlistsTree(2_000));
    const hold = { holding: false, go: false };
    const done = alice.reserveCandidate(() => heldAfterFirstStep(alice.commitSteps(), hold));
    await turns();
    expect(hold.holding).toBe(true);
    expect(json(await server.localSession('bob').read({ datastore: 'running' }))).toBe(before);
    hold.go = true;
    await done;
    expect(playlistCount(server)).toBe(2_000);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('is made in slices, and no reader of running sees it half made', async () => {
    const server = await serverOf();
    const nc = await client(server);
    await nc.editConfig({ target: 'running', config: playlistsXml(10, 'old') });
    await nc.copyConfig({ target: 'candidate', source: { config: playlistsXml(5_000) } });
    const { turns, counts } = await readingsDuring(server, () => nc.commit());
    // Read and decoded in slices at least; no reading between them sees running changed.
    expect(turns).toBeGreaterThan(1);
    expect([...counts]).toEqual([10]);
    expect(playlistCount(server)).toBe(5_000);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('that does not validate changes neither running nor the candidate', async () => {
    const server = await serverOf();
    const nc = await client(server);
    await nc.editConfig({ target: 'running', config: playlistsXml(3, 'kept') });
    const before = json(server.running.tree);
    const config = `<jukebox xmlns="${JB}"><playlist><name>invalid</name><song><index>1</index></song></playlist></jukebox>`;
    await nc.copyConfig({ target: 'candidate', source: { config } });
    const candidate = json(server.candidate.tree);
    const error = await rpcErrorOf(nc.commit());
    expect(error.errors.map((e) => e.errorTag)).toEqual(['missing-element']);
    expect(json(server.running.tree)).toBe(before);
    expect(json(server.candidate.tree)).toBe(candidate);
    expect(server.candidateModified).toBe(true);
  });
});

describe('the rollback of a confirmed commit while the candidate holds an uncommitted change', () => {
  /**
   * A pending confirmed commit (persist `tok`) of 2 playlists, then `count` more edited into running,
   * then (`modified`, the default) an uncommitted change of the candidate.
   */
  async function pendingWithModifiedCandidate(
    server: NetconfServer,
    count: number,
    modified = true,
  ): Promise<void> {
    const alice = server.localSession('alice');
    alice.editConfig('candidate', playlists(2, 'kept'));
    alice.commit({ confirmed: true, persist: 'tok' });
    alice.editConfig('running', playlists(count));
    const carol = server.localSession('carol', { recovery: true });
    if (modified) carol.editConfig('candidate', jukebox({ player: { gap: '0.7' } }));
  }

  test('lets a reader of running between slices read running as it was before it', async () => {
    const server = await serverOf();
    await pendingWithModifiedCandidate(server, 2_000);
    const before = json(server.running.tree);
    await client(server);
    const [session] = server.sessions.values();
    const hold = { holding: false, go: false };
    const done = server.reserveCandidate(() =>
      heldAfterFirstStep(server.cancelCommitSteps(session!, 'tok'), hold),
    );
    await turns();
    expect(hold.holding).toBe(true);
    expect(json(await server.localSession('bob').read({ datastore: 'running' }))).toBe(before);
    expect(server.confirmedCommitPending).toBe(true);
    hold.go = true;
    await done;
    expect(playlistCount(server)).toBe(0);
    expect(server.confirmedCommitPending).toBe(false);
  });

  test('is made in slices, no reader of running sees it half made, and the candidate is left alone', async () => {
    const server = await serverOf();
    await pendingWithModifiedCandidate(server, 20_000);
    const candidate = candidateOf(server);
    const nc = await client(server);
    const { turns, counts } = await readingsDuring(server, () => nc.cancelCommit({ persistId: 'tok' }));
    // Read and decoded in slices at least; no reading between them sees running changed.
    expect(turns).toBeGreaterThan(1);
    expect([...counts]).toEqual([20_002]);
    expect(playlistCount(server)).toBe(0);
    expect(server.confirmedCommitPending).toBe(false);
    expect(candidateOf(server)).toBe(candidate);
  });

  test('gives the journal, events and running of the rollback made on the candidate', async () => {
    const results = [];
    for (const modified of [false, true]) {
      const dir = mkdtempSync(path.join(tmpdir(), 'ncs-scratch-'));
      dirs.push(dir);
      const server = await serverOf({ startupFile: path.join(dir, 'startup.json') });
      await pendingWithModifiedCandidate(server, 3, modified);
      const skip = eventsOf(server).length;
      await (await client(server)).cancelCommit({ persistId: 'tok' });
      results.push({
        journal: journalOf(dir),
        events: eventsOf(server).slice(skip),
        running: json(server.running.tree),
      });
    }
    expect(results[1]).toEqual(results[0]);
    expect(JSON.stringify(results[0]!.events)).toContain('"cancel"');
  });
});

describe('a confirmed commit falling due while other work runs', () => {
  test('is rolled back once the work in progress ends, that work with it, before work asked for later', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('running', playlists(2, 'kept'));
    const before = json(server.running.tree);
    alice.editConfig('candidate', playlists(1, 'committed'));
    alice.commit({ confirmed: true, timeout: 1 });
    const hold = { holding: false, go: false };
    const inProgress = alice.reserveCandidate(() =>
      heldAfterFirstStep(alice.editConfigSteps('running', playlists(500, 'edited')), hold),
    );
    await turns();
    expect(hold.holding).toBe(true);
    // Past the timeout: the rollback is due, and waits for the edit in progress.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(server.confirmedCommitPending).toBe(true);
    const later = alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(1, 'later')));
    hold.go = true;
    await inProgress;
    await later;
    expect(server.confirmedCommitPending).toBe(false);
    const running = JSON.parse(json(server.running.tree));
    const names = running['example-jukebox:jukebox'].playlist.map((p: { name: string }) => p.name);
    expect(names).toEqual([
      ...JSON.parse(before)['example-jukebox:jukebox'].playlist.map((p: { name: string }) => p.name),
      'later0',
    ]);
    const events = server.events.between(0, Number.POSITIVE_INFINITY).map((e) => json(e.tree));
    expect(events.filter((e) => e.includes('confirm-event')).at(-1)).toContain('"timeout"');
  });
});

describe('a change of running on the private scratch tree gives the results of one turn', () => {
  /**
   * A server with an unmodified candidate (its changes of running made on the candidate), one
   * without a candidate and one whose candidate holds an uncommitted change (made on the private
   * scratch tree), each with running holding `seed` and a startup file; with their journal
   * directories.
   */
  async function trio(seed: () => TreeEdit[]): Promise<{ server: NetconfServer; dir: string }[]> {
    const made: { server: NetconfServer; dir: string }[] = [];
    for (const modified of [undefined, false, true]) {
      const dir = mkdtempSync(path.join(tmpdir(), 'ncs-scratch-'));
      dirs.push(dir);
      const options = { startupFile: path.join(dir, 'startup.json') };
      const server = await scratchServer(modified, options);
      server.localSession('seed').editConfig('running', seed());
      made.push({ server, dir });
    }
    return made;
  }

  /** The journal after its first line (the seed), the events after `skip`, and running. */
  function resultsOf({ server, dir }: { server: NetconfServer; dir: string }, skip: number) {
    return {
      journal: journalOf(dir).split('\n').slice(1).join('\n'),
      events: eventsOf(server).slice(skip),
      running: json(server.running.tree),
    };
  }

  test.each([
    [
      'an edit of running',
      (server: NetconfServer) => server.localSession('alice').editConfig('running', mixedEdits(schema)),
    ],
    [
      'a copy-config to running',
      (server: NetconfServer) => server.replaceRunning(undefined, playlistsTree(3, 'copied')),
    ],
  ] as const)('%s', async (_, change) => {
    const results = [];
    for (const made of await trio(() => configMerges(schema, JUKEBOX))) {
      const skip = eventsOf(made.server).length;
      change(made.server);
      results.push(resultsOf(made, skip));
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(results[0]!.journal).not.toBe('');
    expect(JSON.stringify(results[0]!.events)).toContain('netconf-config-change');
  });
});

/** The server's logged events as JSON, without their time and session ids. */
function eventsOf(server: NetconfServer): unknown[] {
  return server.events.between(0, Number.POSITIVE_INFINITY).map((e) => {
    const event = JSON.parse(json(e.tree), (key, value) => (key === 'session-id' ? undefined : value));
    delete event['ietf-restconf:notification'].eventTime;
    return event;
  });
}

/** The journal lines of the startup file in `dir`, every generation. */
function journalOf(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.includes('.journal.'))
    .sort()
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .join('');
}
