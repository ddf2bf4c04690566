import { encodeJson, type Steps } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { CandidateReservations } from '../src/candidate-reservations.js';
import type { LocalSession } from '../src/local-session.js';
import type { NetconfServer } from '../src/server.js';
import { configMerges, testSchema, testServer } from './helpers.js';

// Work reserved on the candidate (an edit and its commit) runs in slices; whoever needs the
// candidate or changes running meanwhile has the rest run at once, so nobody sees it half done.

let schema: SchemaTree;
let server: NetconfServer;
let local: LocalSession;
beforeAll(async () => {
  schema = await testSchema();
});
afterEach(() => server?.close());

const playlist = (name: string) =>
  configMerges(schema, { 'example-jukebox:jukebox': { playlist: [{ name }] } });
const running = () => encodeJson(server.running.tree);
const nextTurn = () => new Promise((r) => setImmediate(r));

/** A step longer than a slice: the work is left there until the next turn. */
function* pause(): Steps<void> {
  const until = performance.now() + 10;
  while (performance.now() < until);
  yield;
}

/** An edit of the candidate and its commit, paused between them; `log` records how far it went. */
function* editAndCommit(name: string, log: string[]): Steps<void> {
  log.push(`${name} starts`);
  yield* local.editConfigSteps('candidate', playlist(name));
  yield* pause();
  yield* local.commitSteps();
  log.push(`${name} ends`);
}

describe('reserveCandidate', () => {
  test('runs its work in slices, giving the event loop turns before it ends', async () => {
    server = await testServer();
    local = server.localSession('alice');
    const log: string[] = [];
    const done = local.reserveCandidate(() => editAndCommit('p1', log));
    await nextTurn();
    expect(log).toEqual(['p1 starts']);
    await done;
    expect(log).toEqual(['p1 starts', 'p1 ends']);
    expect(running()).toContain('"p1"');
  });

  test('a read of the candidate meanwhile finds the work ended: the edit made and committed', async () => {
    server = await testServer();
    local = server.localSession('alice');
    const log: string[] = [];
    const done = local.reserveCandidate(() => editAndCommit('p1', log));
    await nextTurn();
    const candidate = encodeJson(await server.localSession('bob').read({ datastore: 'candidate' }));
    expect(log).toEqual(['p1 starts', 'p1 ends']);
    expect(candidate).toContain('"p1"');
    expect(running()).toBe(candidate);
    await done;
  });

  test('an edit of running meanwhile comes after the commit that ends the work', async () => {
    server = await testServer();
    local = server.localSession('alice');
    const log: string[] = [];
    const done = local.reserveCandidate(() => editAndCommit('p1', log));
    await nextTurn();
    server.localSession('bob').editConfig('running', playlist('p2'));
    expect(log).toEqual(['p1 starts', 'p1 ends']);
    expect(running()).toContain('"p1"');
    expect(running()).toContain('"p2"');
    expect(server.candidateModified).toBe(false);
    expect(encodeJson(server.candidate.tree)).toBe(running());
    await done;
  });

  test('works run one after the other, in the order asked for', async () => {
    server = await testServer();
    local = server.localSession('alice');
    const log: string[] = [];
    const first = local.reserveCandidate(() => editAndCommit('p1', log));
    const second = local.reserveCandidate(() => editAndCommit('p2', log));
    await Promise.all([first, second]);
    expect(log).toEqual(['p1 starts', 'p1 ends', 'p2 starts', 'p2 ends']);
    expect(running()).toContain('"p2"');
  });

  test('a work that undoes its edit in steps leaves the candidate as running', async () => {
    server = await testServer();
    local = server.localSession('alice');
    await local.reserveCandidate(function* () {
      yield* local.editConfigSteps('candidate', playlist('p1'));
      yield* local.discardChangesSteps();
    });
    expect(server.candidateModified).toBe(false);
    expect(encodeJson(server.candidate.tree)).toBe(running());
  });

  test('a work that fails rejects its own promise, not the call that ended it', async () => {
    server = await testServer();
    local = server.localSession('alice');
    const done = local.reserveCandidate(function* () {
      yield* local.editConfigSteps('candidate', playlist('p1'));
      yield* pause();
      throw new Error('refused');
    });
    const refused = expect(done).rejects.toThrow('refused');
    await nextTurn();
    expect(encodeJson(await server.localSession('bob').read({ datastore: 'candidate' }))).toContain('"p1"');
    await refused;
    expect(running()).not.toContain('"p1"');
  });
});

describe('CandidateReservations', () => {
  test('work does not start while the candidate catches up, and starts once it is done', async () => {
    let ready = false;
    const reservations = new CandidateReservations(() => ready);
    const log: string[] = [];
    const done = reservations.run(function* () {
      log.push('started');
      yield;
    });
    await nextTurn();
    await nextTurn();
    reservations.finish();
    expect(log).toEqual([]);
    ready = true;
    await done;
    expect(log).toEqual(['started']);
  });
});
