import { encodeJson } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { turnsUntil } from '../../../test-support/turns.js';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, JB, rpcErrorOf, testSchema, testServer } from './helpers.js';
import { Timeline } from './timeline.js';

// A read of the candidate and a <validate> wait for their turn rather than making the work in
// progress (a big edit, the candidate's replay of running's changes) run to its end in one turn:
// a reader must not hold every other request for the rest of somebody's edit.

let schema: SchemaTree;
const servers: NetconfServer[] = [];
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of servers.splice(0)) await s.close();
});

async function serverOf(): Promise<NetconfServer> {
  const server = await testServer();
  servers.push(server);
  return server;
}

/** `count` playlists named `p<i>`: thousands make an edit of many slices. */
const playlists = (count: number) =>
  configMerges(schema, {
    'example-jukebox:jukebox': { playlist: Array.from({ length: count }, (_, i) => ({ name: `p${i}` })) },
  });

/** `count` playlists as NETCONF config content, then `extra`. */
const playlistsXml = (count: number, extra = '') =>
  `<jukebox xmlns="${JB}">${Array.from({ length: count }, (_, i) => `<playlist><name>p${i}</name></playlist>`).join('')}${extra}</jukebox>`;

/** RFC 7950 section 7.6.5: a playlist song's id is mandatory, so this playlist does not validate. */
const INVALID_PLAYLIST = '<playlist><name>invalid</name><song><index>1</index></song></playlist>';

/** Marks the timeline asked when the server receives the operation `local` (a NETCONF request). */
function askedOnArrival(server: NetconfServer, local: string, timeline: Timeline): void {
  const dispatch = server.dispatch.bind(server);
  vi.spyOn(server, 'dispatch').mockImplementation((session, op, rpc) => {
    if (op.local === local && !timeline.asked) timeline.ask();
    return dispatch(session, op, rpc);
  });
}

/**
 * An edit by alice of 10,000 playlists into `target`, watched by `timeline`, once it is in progress
 * (its first step made): `done` settles as it ends.
 */
async function editInProgress(
  server: NetconfServer,
  target: 'running' | 'candidate',
  timeline: Timeline,
): Promise<{ readonly done: Promise<void> }> {
  const alice = server.localSession('alice');
  const done = alice.reserveCandidate(() =>
    timeline.watched(alice.editConfigSteps(target, playlists(10_000))),
  );
  await timeline.started();
  return { done };
}

describe('a read of the candidate during a big edit of it', () => {
  test('a <get-config> of the candidate lets other work run between the slices of the edit, and reads the candidate after the edit', async () => {
    const server = await serverOf();
    const nc = await client(server);
    const timeline = new Timeline();
    askedOnArrival(server, 'get-config', timeline);
    const edit = await editInProgress(server, 'candidate', timeline);
    const reply = await nc.getConfig({ source: 'candidate' });
    await edit.done;
    expect(timeline.end()).toBe(true);
    expect(reply.includes('<name>p9999</name>')).toBe(true);
  });

  test('readShared of the candidate lets other work run between the slices of the edit, and reads the candidate after the edit', async () => {
    const server = await serverOf();
    const bob = server.localSession('bob');
    const timeline = new Timeline();
    const edit = await editInProgress(server, 'candidate', timeline);
    timeline.ask();
    const read = await bob.readShared({ datastore: 'candidate' });
    await edit.done;
    expect(timeline.end()).toBe(true);
    expect(encodeJson(read.tree).includes('"p9999"')).toBe(true);
    read.release();
  });

  test('a <lock> of the candidate waits for the edit, and is denied for the uncommitted changes it leaves', async () => {
    const server = await serverOf();
    const nc = await client(server);
    const timeline = new Timeline();
    askedOnArrival(server, 'lock', timeline);
    const edit = await editInProgress(server, 'candidate', timeline);
    const error = await rpcErrorOf(nc.lock({ target: 'candidate' }));
    await edit.done;
    expect(timeline.end()).toBe(true);
    expect(error.errors[0]?.errorTag).toBe('lock-denied');
  });
});

describe('the end of a lock of the candidate during a big edit of running made on it', () => {
  test('an <unlock> of the candidate lets other work run between the slices of the edit, and leaves the candidate equal to running after it', async () => {
    const server = await serverOf();
    const nc = await client(server);
    await nc.lock({ target: 'candidate' });
    const timeline = new Timeline();
    askedOnArrival(server, 'unlock', timeline);
    // The candidate, unmodified though locked, is the edit's scratch tree.
    const edit = await editInProgress(server, 'running', timeline);
    await nc.unlock({ target: 'candidate' });
    await edit.done;
    expect(timeline.end()).toBe(true);
    expect(server.locks.has('candidate')).toBe(false);
    expect(server.candidateModified).toBe(false);
    expect(encodeJson(server.candidate.tree)).toBe(encodeJson(server.running.tree));
    expect(encodeJson(server.running.tree).includes('"p9999"')).toBe(true);
  });
});

describe("a read of the candidate during the candidate's replay of running's changes", () => {
  test('readShared of the candidate lets other work run while the candidate replays a big edit of running, and reads it replayed', async () => {
    const server = await serverOf();
    const alice = server.localSession('alice');
    // Made on the candidate, which running takes: the candidate gets running's former tree, which
    // replays the 20,000 playlists in slices.
    alice.editConfig('running', playlists(20_000));
    const bob = server.localSession('bob');
    const reading = bob.readShared({ datastore: 'candidate' });
    const turns = await turnsUntil(reading);
    const read = await reading;
    // Made to replay at once, the read is answered before the event loop turns at all.
    expect(turns).toBeGreaterThan(1);
    expect(encodeJson(read.tree).includes('"p19999"')).toBe(true);
    read.release();
  });
});

describe('<validate>', () => {
  // Validation walks only what may hold something to check (here each playlist, for the mandatory
  // id of its songs): 50,000 playlists take several slices of the event loop, 10,000 could take one.

  /** A server whose running holds `count` playlists and one that does not validate (test-option set). */
  async function invalidRunning(count: number): Promise<NetconfServer> {
    const server = await serverOf();
    const nc = await client(server);
    await nc.editConfig({
      target: 'running',
      config: playlistsXml(count, INVALID_PLAYLIST),
      testOption: 'set',
    });
    return server;
  }

  /** The validation steps of `server`, watched by `timeline` (asked for as the first one runs). */
  function watchValidation(server: NetconfServer, timeline: Timeline): void {
    const validateAllSteps = server.validateAllSteps.bind(server);
    vi.spyOn(server, 'validateAllSteps').mockImplementation((tree) => {
      timeline.ask();
      return timeline.watched(validateAllSteps(tree));
    });
  }

  test('of a big running lets other work run between its slices, and reports the errors of its invalid config', async () => {
    const server = await invalidRunning(50_000);
    const nc = await client(server);
    const timeline = new Timeline();
    watchValidation(server, timeline);
    const error = await rpcErrorOf(nc.validate({ source: 'running' }));
    expect(timeline.end()).toBe(true);
    expect(error.errors.map((e) => [e.errorTag, e.errorPath])).toEqual([
      [
        'missing-element',
        "/jbox:jukebox/jbox:playlist[jbox:name='invalid']/jbox:song[jbox:index='1']/jbox:id",
      ],
    ]);
  });

  test('of a big inline config lets other work run between its slices, and reports the errors of running validated', async () => {
    const server = await invalidRunning(3);
    const nc = await client(server);
    const expected = (await rpcErrorOf(nc.validate({ source: 'running' }))).errors;
    const timeline = new Timeline();
    watchValidation(server, timeline);
    const error = await rpcErrorOf(
      nc.validate({ source: { config: playlistsXml(50_000, INVALID_PLAYLIST) } }),
    );
    expect(timeline.end()).toBe(true);
    expect(error.errors).toEqual(expected);
  });
});
