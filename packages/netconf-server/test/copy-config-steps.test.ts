import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as codec from '@yangkit/yang-json-codec';
import { diff, encodeJson, encodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { StartupStore } from '../src/persistence.js';
import type { NetconfServer } from '../src/server.js';
import { client, configMerges, JB, refusal, rpcErrorOf, testServer } from './helpers.js';
import { recoverySession } from './nacm-helpers.js';
import { Timeline } from './timeline.js';

// A <copy-config> to the candidate or startup and a <delete-config> of startup compare two whole
// datastores (for NACM), copy one and write the startup file: in slices within the reservation, with
// the results of the same work in one turn. A user who may write nothing is refused before any of it.

vi.mock('@yangkit/yang-json-codec', async (original) => {
  const actual = await original<typeof import('@yangkit/yang-json-codec')>();
  // Watched: whether the datastores were compared (in one run or in steps).
  return { ...actual, diff: vi.fn(actual.diff), diffSteps: vi.fn(actual.diffSteps) };
});

const ARTISTS = 20_000;
const NACM = 'urn:ietf:params:xml:ns:yang:ietf-netconf-acm';

/**
 * alice may do anything; carol may write the jukebox's playlists alone; bob, in a group without a
 * write rule, may run delete-config and write nothing (write-default is deny).
 */
const RULES = `<nacm xmlns="${NACM}">
  <groups>
    <group><name>admins</name><user-name>alice</user-name></group>
    <group><name>curators</name><user-name>carol</user-name></group>
    <group><name>operators</name><user-name>bob</user-name></group>
  </groups>
  <rule-list><name>admins</name><group>admins</group>
    <rule><name>all</name><module-name>*</module-name><access-operations>*</access-operations><action>permit</action></rule>
  </rule-list>
  <rule-list><name>curators</name><group>curators</group>
    <rule><name>playlists</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/playlist</path>
      <access-operations>create update delete</access-operations><action>permit</action></rule>
  </rule-list>
  <rule-list><name>operators</name><group>operators</group>
    <rule><name>delete-config</name><module-name>ietf-netconf</module-name><rpc-name>delete-config</rpc-name>
      <access-operations>exec</access-operations><action>permit</action></rule>
  </rule-list>
</nacm>`;

/** What a test leaves to close or remove once it ends, in order. */
const leftOver: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  vi.mocked(codec.diff).mockClear();
  vi.mocked(codec.diffSteps).mockClear();
  for (const end of leftOver.splice(0)) await end();
});

const json = (tree: InstanceTree) => encodeJson(tree);

/**
 * A server with NACM and {@link RULES}, whose running holds {@link ARTISTS} artists; with a startup
 * datastore (`:startup`) kept in a file of its own when `startup`.
 */
async function serverOf(startup = false): Promise<{ server: NetconfServer; file: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncs-copy-'));
  const file = path.join(dir, 'startup.json');
  const server = await testServer({
    nacm: true,
    ...(startup ? { startupMode: 'explicit' as const, startupFile: file } : {}),
  });
  leftOver.push(
    () => server.close(),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  server.localSession('system', { recovery: true }).editConfig('running', [
    ...configMerges(server.schema, {
      'example-jukebox:jukebox': {
        library: { artist: Array.from({ length: ARTISTS }, (_, i) => ({ name: `artist-${i}` })) },
      },
    }),
  ]);
  await (await recoverySession(server)).editConfig({ target: 'running', config: RULES });
  return { server, file };
}

/** Watches, with `timeline`, the next work `server` reserves (asked for as its first step runs). */
function watchReserved(server: NetconfServer, timeline: Timeline): void {
  const reserve = server.reserveCandidate.bind(server);
  vi.spyOn(server, 'reserveCandidate').mockImplementationOnce((work) =>
    reserve(() => {
      timeline.ask();
      return timeline.watched(work());
    }),
  );
}

/** Whether the datastores were compared (by the codec's `diff` or `diffSteps`). */
function compared(): boolean {
  return vi.mocked(codec.diff).mock.calls.length + vi.mocked(codec.diffSteps).mock.calls.length > 0;
}

/** The startup file's snapshot as written: its text and the XML it holds. */
function snapshotOf(file: string): { text: string; xml: string } {
  const text = readFileSync(file, 'utf8');
  return { text, xml: (JSON.parse(text) as { xml: string }).xml };
}

describe('a copy-config of a big running', () => {
  test('to the candidate lets other work run between its slices, and the candidate then holds running', async () => {
    const { server } = await serverOf();
    const alice = await client(server, 'alice');
    const timeline = new Timeline();
    watchReserved(server, timeline);
    await alice.copyConfig({ target: 'candidate', source: 'running' });
    expect(timeline.end()).toBe(true);
    expect(compared()).toBe(true);
    expect(json(server.candidate.tree)).toBe(json(server.running.tree));
    expect(server.candidate.tree).not.toBe(server.running.tree);
    expect(server.candidateModified).toBe(true);
  });

  test('to startup lets other work run between its slices, and startup and its file then hold running', async () => {
    const { server, file } = await serverOf(true);
    const alice = await client(server, 'alice');
    // Validation (in slices already, and running is valid) is left out: what is watched is the
    // comparison, the copy and the file.
    vi.spyOn(server, 'validateAllSteps').mockImplementation(function* () {});
    const timeline = new Timeline();
    watchReserved(server, timeline);
    await alice.copyConfig({ target: 'startup', source: 'running' });
    expect(timeline.end()).toBe(true);
    expect(json(server.startup.tree)).toBe(json(server.running.tree));
    // The file written in pieces is the one written at once: the snapshot's JSON text of the XML.
    const { text, xml } = snapshotOf(file);
    expect(xml).toBe(encodeXml(server.running.tree));
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(json(new StartupStore(file, server.schema).load())).toBe(json(server.running.tree));
  });

  test('delete-config of a big startup lets other work run between its slices, and empties startup and its file', async () => {
    const { server, file } = await serverOf(true);
    const alice = await client(server, 'alice');
    await alice.copyConfig({ target: 'startup', source: 'running' });
    const timeline = new Timeline();
    watchReserved(server, timeline);
    await alice.deleteConfig({ target: 'startup' });
    expect(timeline.end()).toBe(true);
    expect(server.startup.tree.children.size).toBe(0);
    expect(snapshotOf(file).xml).toBe('');
  });
});

describe('NACM', () => {
  test('a user who may write nothing is refused a copy to the candidate before the datastores are compared, and nothing changes', async () => {
    const { server } = await serverOf();
    const bob = await client(server, 'bob');
    const before = json(server.candidate.tree);
    const denied = server.nacm!.counters.deniedDataWrites;
    const error = await rpcErrorOf(bob.copyConfig({ target: 'candidate', source: 'running' }));
    expect(error.errors.map((e) => [e.errorTag, e.errorType])).toEqual([['access-denied', 'application']]);
    expect(compared()).toBe(false);
    expect(server.nacm!.counters.deniedDataWrites).toBe(denied + 1);
    expect(json(server.candidate.tree)).toBe(before);
    expect(server.candidateModified).toBe(false);
  });

  test('a user who may write nothing is refused a copy to startup and a delete-config before the datastores are compared, and nothing changes', async () => {
    const { server, file } = await serverOf(true);
    const alice = await client(server, 'alice');
    await alice.copyConfig({ target: 'startup', source: 'running' });
    const before = { startup: json(server.startup.tree), file: readFileSync(file, 'utf8') };
    vi.mocked(codec.diffSteps).mockClear();
    const bob = await client(server, 'bob');
    const inline = `<jukebox xmlns="${JB}"><playlist><name>p</name></playlist></jukebox>`;
    for (const refused of [
      bob.copyConfig({ target: 'startup', source: { config: inline } }),
      bob.deleteConfig({ target: 'startup' }),
    ]) {
      const error = await rpcErrorOf(refused);
      expect(error.errors.map((e) => e.errorTag)).toEqual(['access-denied']);
    }
    expect(compared()).toBe(false);
    expect(json(server.startup.tree)).toBe(before.startup);
    expect(readFileSync(file, 'utf8')).toBe(before.file);
  });

  test('a user who may write part of the datastore has the differing nodes judged, with the answer of the check in one turn', async () => {
    const { server } = await serverOf();
    const carol = await client(server, 'carol');
    const running = server.running.tree;
    // Running (with its /nacm, which carol may not read) without its first artist: a delete carol
    // may not make.
    const whole = (await (await recoverySession(server)).getConfig({ source: 'running' })).replace(
      /^<data[^>]*>|<\/data>$/g,
      '',
    );
    const config = whole.replace('<artist><name>artist-0</name></artist>', '');
    const error = await rpcErrorOf(carol.copyConfig({ target: 'candidate', source: { config } }));
    expect(compared()).toBe(true);
    const copy = codec.decodeXml(server.schema, config, { kind: 'config' });
    const access = server.nacm!.of([...server.sessions.values()].find((s) => s.info.username === 'carol'));
    const oneTurn = await refusal(() => server.nacm!.checkWrite(access, diff(running, copy)));
    expect(error.errors.map((e) => [e.errorTag, e.errorMessage])).toEqual([
      [oneTurn.errorTag, oneTurn.fields.errorMessage],
    ]);
    expect(error.errors[0]!.errorMessage).toContain('artist');
    expect(server.candidateModified).toBe(false);
    // A copy that differs in the playlists alone is made.
    const playlist = whole.replace('<library>', `<playlist><name>new</name></playlist><library>`);
    await carol.copyConfig({ target: 'candidate', source: { config: playlist } });
    expect(json(server.candidate.tree)).toBe(
      json(codec.decodeXml(server.schema, playlist, { kind: 'config' })),
    );
  });
});
