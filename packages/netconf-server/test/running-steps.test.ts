import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readXml } from '@yangkit/xml';
import { encodeJson, type InstanceTree, type Steps, type TreeEdit } from '@yangkit/yang-json-codec';
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
  test('a reader of running between slices reads running as it was before the edit', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('running', jukebox({ player: { gap: '1.5' } }));
    const before = json(server.running.tree);
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
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('running takes the tree the edit was made on (the candidate) rather than being edited in place', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    const candidateTree = server.candidate.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(10)));
    expect(server.running.tree).toBe(candidateTree);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('an edit that does not validate changes neither running nor the candidate', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('running', playlists(3, 'kept'));
    const before = json(server.running.tree);
    const edits = jukebox({ playlist: [{ name: 'new' }, invalidPlaylist] });
    const error = await refusal(() => alice.reserveCandidate(() => alice.editConfigSteps('running', edits)));
    expect(error.errorTag).toBe('missing-element');
    expect(json(server.running.tree)).toBe(before);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('an edit NACM denies changes neither running nor the candidate', async () => {
    const server = await serverOf({ nacm: true });
    server.localSession('system', { recovery: true }).editConfig('running', playlists(3, 'kept'));
    const before = json(server.running.tree);
    // No rule lets alice write, and write-default is deny (RFC 8341 section 3.4.5).
    const alice = server.localSession('alice');
    const error = await refusal(() =>
      alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(200))),
    );
    expect(error.errorTag).toBe('access-denied');
    expect(json(server.running.tree)).toBe(before);
    expect(candidateIsRunning(server)).toBe(true);
  });

  test('a lock of running taken by another session while the edit is made refuses it with in-use, and changes nothing', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    const before = json(server.running.tree);
    const hold = { holding: false, go: false };
    const done = alice.reserveCandidate(() =>
      heldAfterFirstStep(alice.editConfigSteps('running', playlists(500)), hold),
    );
    const refused = refusal(() => done);
    await turns();
    expect(hold.holding).toBe(true);
    await (await client(server)).lock({ target: 'running' });
    hold.go = true;
    expect((await refused).errorTag).toBe('in-use');
    expect(json(server.running.tree)).toBe(before);
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

  test('a candidate modified by someone makes the edit of running one turn on running, and keeps its changes', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    alice.editConfig('candidate', playlists(2, 'uncommitted'));
    const candidate = json(server.candidate.tree);
    const runningTree = server.running.tree;
    await alice.reserveCandidate(() => alice.editConfigSteps('running', playlists(2, 'edited')));
    expect(server.running.tree).toBe(runningTree);
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
  /** `count` playlists as edit-config content. */
  const playlistsXml = (count: number) =>
    `<jukebox xmlns="${JB}">${Array.from({ length: count }, (_, i) => `<playlist><name>p${i}</name></playlist>`).join('')}</jukebox>`;

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

/** The journal lines of the startup file in `dir`, every generation. */
function journalOf(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.includes('.journal.'))
    .sort()
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .join('');
}
