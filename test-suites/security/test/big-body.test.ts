import { spawn } from 'node:child_process';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_MODULES, type GatewayOptions } from '@yangkit/restconf-gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials } from './credentials.js';
import { updateFigures, writeFigures } from './figures.js';
import {
  DATA_JSON,
  DATA_XML,
  errorsBody,
  fetchAs,
  JUKEBOX_EDITORS,
  PATCH_JSON,
  playlists,
  type Server,
  startServer,
} from './harness.js';
import { freePort } from './netconf-pair.js';

// A big body costs time and memory in proportion to its data nodes while it is decoded and
// applied. A user whom NACM lets write nothing at or below the target is refused before the body
// is read or decoded (RFC 8341 section 3.4.5), and every body is bounded in data nodes.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const RUNNING_DS = '/restconf/ds/ietf-datastores:running';
/** The NETCONF client of the SSH tests, run as its own process. */
const NETCONF_CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'netconf-request.mjs');
/** The suite's own YANG modules (a list of two keys), found before the gateway's examples. */
const TEST_YANG_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'yang');
const PASSWORDS = { root: 'administrator', alice: 'wonderland', bob: 'builder', carol: 'singer' };
type User = keyof typeof PASSWORDS;

/** alice may edit the whole jukebox, carol only its playlists, bob nothing (write-default is deny). */
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: {
      group: [
        { name: 'editors', 'user-name': ['alice'] },
        { name: 'curators', 'user-name': ['carol'] },
      ],
    },
    'rule-list': [
      JUKEBOX_EDITORS,
      {
        name: 'curators',
        group: ['curators'],
        rule: [
          {
            name: 'edit-playlists',
            'module-name': 'example-jukebox',
            path: '/example-jukebox:jukebox/playlist',
            'access-operations': 'create update delete',
            action: 'permit',
          },
        ],
      },
    ],
  },
};

/** What {@link judgedServer} starts: by default NMDA, the users of {@link PASSWORDS} and {@link RULES}. */
interface Judged {
  readonly users?: Readonly<Record<string, string>>;
  readonly rules?: object;
  readonly options?: GatewayOptions;
  /** Fills the datastore once the rules are in, before the tests. */
  readonly fill?: (s: Server) => Promise<void>;
}

/**
 * The gateway with `users` (`root` its NACM admin), their `rules` and `options`, filled by `fill`,
 * started before the tests of the describe around and closed after them.
 */
function judgedServer({
  users = PASSWORDS,
  rules = RULES,
  options = { withNmda: true },
  fill,
}: Judged = {}): { s: Server } {
  const judged = {} as { s: Server };
  let creds: Credentials | undefined;
  beforeAll(async () => {
    creds = makeCredentials(users, 1024);
    judged.s = await startServer({ usersFile: creds.usersFile, nacmAdmin: 'root', ...options });
    const put = await fetchAs(() => judged.s, users)('root', '/restconf/data/ietf-netconf-acm:nacm', {
      method: 'PUT',
      headers: { 'Content-Type': DATA_JSON },
      body: JSON.stringify(rules),
    });
    expect(put.status).toBeLessThan(300);
    await fill?.(judged.s);
  }, 180_000);
  afterAll(async () => {
    await judged.s?.close();
    creds?.remove();
  });
  return judged;
}

/** The users of the big reads restricted by NACM: `root` their NACM admin, `dave` who only reads. */
const LISTENERS = { root: 'administrator', dave: 'listener' };

/** dave's rules (group `listeners`): `rule` in order, under `readDefault` when given. */
function listenerRules(readDefault: 'permit' | 'deny' | undefined, ...rule: object[]): object {
  return {
    'ietf-netconf-acm:nacm': {
      ...(readDefault === undefined ? {} : { 'read-default': readDefault }),
      groups: { group: [{ name: 'listeners', 'user-name': ['dave'] }] },
      'rule-list': [{ name: 'listeners', group: ['listeners'], rule }],
    },
  };
}

/**
 * dave's GET of `path` on `s` while root reads a leaf, `check`ed once the measure is over; with the
 * answer's length. Its bytes are only kept as they come: decoding and searching tens of megabytes of
 * text is work of this process, the gateway's, in one turn, which the leaf's wait would count.
 */
async function daveReads(
  s: Server,
  path: string,
  check: (body: string) => void,
): Promise<{ stall: Stall; bytes: number }> {
  const pieces: Uint8Array[] = [];
  const stall = await measureStall(s, basic('root', LISTENERS.root), async () => {
    const r = await fetch(`${s.gateway.url}${path}`, {
      headers: { Accept: DATA_JSON, Authorization: basic('dave', LISTENERS.dave) },
    });
    for await (const piece of r.body ?? []) pieces.push(piece);
    return r.status;
  });
  const body = Buffer.concat(pieces).toString();
  check(body);
  return { stall, bytes: body.length };
}

interface Errors {
  error: { 'error-type': string; 'error-tag': string; 'error-path'?: string; 'error-message'?: string }[];
}

async function firstError(r: Response): Promise<Errors['error'][number] | undefined> {
  const errors = errorsBody(await r.text(), r.headers.get('content-type')) as Errors | undefined;
  return errors?.error[0];
}

/** One big edit's answer time and the longest wait of a client that reads a leaf meanwhile. */
interface Stall {
  /** The HTTP status, or the NETCONF reply (`ok` or the error-tag). */
  readonly status: number | string;
  readonly ms: number;
  /** The longest time between two answers to the reading client: how long the event loop was held. */
  readonly worstGapMs: number;
  readonly leafGets: number;
}

/** The status of a response, once its body is read. */
async function statusOf(response: Promise<Response>): Promise<number> {
  const r = await response;
  await r.arrayBuffer();
  return r.status;
}

/**
 * Runs `edit` (resolving with its status) while another client reads a leaf again as soon as it has
 * its answer.
 */
async function measureStall(s: Server, auth: string, edit: () => Promise<number | string>): Promise<Stall> {
  const headers: Record<string, string> = auth === '' ? {} : { Authorization: auth };
  let worst = 0;
  let gets = 0;
  let done = false;
  let last = performance.now();
  const answered = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  };
  const probe = (async () => {
    while (!done) {
      try {
        const r = await fetch(`${s.gateway.url}/restconf/data/example-jukebox:jukebox/player`, { headers });
        await r.arrayBuffer();
        gets++;
      } catch {
        // Reset: its keep-alive connection was closed by the server's idle timer, which fired late
        // when the stall ended. The next GET opens another connection.
      }
      answered();
    }
  })();
  const t = performance.now();
  const status = await edit();
  const ms = performance.now() - t;
  done = true;
  await probe;
  return { status, ms, worstGapMs: worst, leafGets: gets };
}

/** The same playlists in XML. */
function playlistsXml(count: number): string {
  const entries = Array.from({ length: count }, (_, i) => `<playlist><name>p${i}</name></playlist>`);
  return `<jukebox xmlns="http://example.com/ns/example-jukebox">${entries.join('')}</jukebox>`;
}

/** Longest the event loop may be held while a body decodes: generous, a decode once held it for seconds. */
const MAX_STALL_MS = 1_000;

/**
 * Longest the event loop may be held while a big edit is applied, validated and committed: generous,
 * its apply once held it for about a second in one turn.
 */
const MAX_APPLY_STALL_MS = 600;

// The event stream tests run first, on a fresh heap: the tests of 500,000 artists after them leave
// gigabytes of garbage in this process, and a full collection of it would fall within the deliveries
// they measure.
describe('an event stream subscriber whose filter costs the square of the event', () => {
  // The RESTCONF `filter` (RFC 8040 section 4.8.4) is tested on every event of the stream: on the
  // event of a big edit, `//*[count(//*) > 0]` walks the whole event for every node of it, hours for
  // 100,000 edits. It is evaluated in slices of about 5 ms, each client's events in order, within
  // `--max-xpath-work`; past it the event is not sent to that client (RFC 5277 section 3.6). The
  // server writes at most 64 edits in its own netconf-config-change; an application's (or a
  // device's) events are as big as it makes them: this one is published by the application.
  // The path inside the predicate, a walk of the whole event, is walked in steps too: as one step
  // it held the event loop 1.5 s at the default bound.
  // The collection once the gateway is quiet (during the application's publish, which answers no
  // request) would fall within the delivery measured.
  const judged = judgedServer({ options: { withNmda: true, idleCollection: false } });
  const EDITS = 100_000;

  test('a leaf GET is answered within 600 ms while a read-only user whose filter is //*[count(//*) > 0] watches the stream and the config-change event of a 100,000-entry edit is published', async () => {
    const netconf = judged.s.gateway.backend.netconf!;
    const filter = encodeURIComponent('//*[count(//*) > 0]');
    const receiver = await fetch(`${judged.s.gateway.url}/restconf/streams/json-NETCONF?filter=${filter}`, {
      headers: { Authorization: basic('bob', PASSWORDS.bob), Accept: 'text/event-stream' },
    });
    expect(receiver.status).toBe(200);
    const received = textUntil(receiver, /playlist-after/, 60_000);
    // The application's call decodes the event at once; what follows it is measured.
    netconf.publish(playlistsChange(EDITS, 'playlist'));
    netconf.publish(playlistsChange(1, 'playlist-after'));
    let text = '';
    const stall = await measureStall(judged.s, basic('root', PASSWORDS.root), async () => {
      text = await received;
      return receiver.status;
    });
    // The small event after it is selected, in order; the big one passed the bound and is not.
    expect(text).toContain('playlist-after');
    expect(text).not.toContain(`playlist-${EDITS - 1}'`);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
  }, 120_000);
});

describe('event stream subscribers without a filter of the config-change of a big edit', () => {
  // Every client of an event stream is sent the SSE event of every notification (RFC 8040 section
  // 6.4): the config-change of a 100,000-entry edit is 8 MB of JSON and 16 MB of XML. Its encoding
  // and the formatting of its SSE event run in slices of about 5 ms, each client's events in order,
  // once per encoding for the clients of a feed; before, both were one turn of the event loop per
  // encoding (674 to 1,252 ms of longest wait). The feed's NETCONF session reads the event in slices
  // too, and no longer writes its XML text back in one turn, which nothing used (200 to 470 ms).
  // The event is published by the application, as in the test above. A client's queue must hold one
  // event: past `--event-queue-bytes` (1 MiB by default) the client is disconnected.
  // The collection once the gateway is quiet (during the application's publish, which answers no
  // request) would fall within the delivery measured.
  const judged = judgedServer({
    options: { withNmda: true, eventQueueBytes: 32 * 1024 * 1024, idleCollection: false },
  });
  const EDITS = 100_000;

  test('a leaf GET is answered within 600 ms while a JSON and an XML client of the NETCONF stream receive the config-change event of a 100,000-entry edit', async () => {
    const netconf = judged.s.gateway.backend.netconf!;
    const receivers = await Promise.all(
      ['json', 'xml'].map(async (encoding) => {
        const r = await fetch(`${judged.s.gateway.url}/restconf/streams/${encoding}-NETCONF`, {
          headers: { Authorization: basic('bob', PASSWORDS.bob), Accept: 'text/event-stream' },
        });
        expect(r.status).toBe(200);
        return r;
      }),
    );
    const received = receivers.map((r) => textUntil(r, /playlist-after/, 60_000));
    // The application's call decodes the event at once; what follows it is measured.
    netconf.publish(playlistsChange(EDITS, 'playlist'));
    netconf.publish(playlistsChange(1, 'playlist-after'));
    let texts: string[] = [];
    const stall = await measureStall(judged.s, basic('root', PASSWORDS.root), async () => {
      texts = await Promise.all(received);
      return 200;
    });
    const [json, xml] = texts as [string, string];
    // Each client got the whole event, then the small one after it.
    expect(json.split('"operation":"create"')).toHaveLength(EDITS + 2);
    expect(xml.split('<operation>create</operation>')).toHaveLength(EDITS + 2);
    for (const text of texts) {
      expect(text).toContain(`playlist-${EDITS - 1}'`);
      expect(text.indexOf('playlist-after')).toBeGreaterThan(text.indexOf(`playlist-${EDITS - 1}'`));
    }
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
  }, 120_000);
});

describe('a user who may not write', () => {
  const judged = judgedServer();
  const as = fetchAs(() => judged.s, PASSWORDS);

  test('gets 403 access-denied for a 14 MB PATCH of 700,000 entries, and nothing changes', async () => {
    const before = await judged.s.snapshot();
    const body = playlists(700_000);
    const patch = (user: User) => () =>
      as(user, JUKEBOX, { method: 'PATCH', headers: { 'Content-Type': DATA_JSON }, body });
    const r = await patch('bob')();
    expect(r.status).toBe(403);
    expect(await firstError(r)).toMatchObject({
      'error-type': 'application',
      'error-tag': 'access-denied',
      'error-path': '/example-jukebox:jukebox',
    });
    expect(await judged.s.snapshot()).toBe(before);
    if (updateFigures) {
      const denied = await measureStall(judged.s, basic('root', PASSWORDS.root), () =>
        statusOf(patch('bob')()),
      );
      figures.push(row('700,000 playlists by a user who may write nothing there', body.length, denied));
    }
  }, 120_000);

  test.each([
    [
      JUKEBOX,
      'p',
      '99,999 playlists (199,999 data nodes, the default limit is 200,000) by a user who may write there',
    ],
    // Other names than the edit before's: every entry is created.
    [
      `${RUNNING_DS}/example-jukebox:jukebox`,
      'ds-p',
      '99,999 playlists to `{+restconf}/ds/ietf-datastores:running` (NMDA) by a user who may write there',
    ],
  ])(
    'a leaf GET is answered within 600 ms while a user who may write there PATCHes 99,999 playlists to %s',
    async (path, prefix, what) => {
      // 199,999 data nodes with the container: within the limit.
      const body = playlists(99_999).replaceAll('"name":"p', `"name":"${prefix}`);
      // Over a minute on a loaded machine: past the suite's request deadline, so a fetch of its own.
      const allowed = await measureStall(judged.s, basic('root', PASSWORDS.root), () =>
        statusOf(
          fetch(`${judged.s.gateway.url}${path}`, {
            method: 'PATCH',
            headers: { 'Content-Type': DATA_JSON, Authorization: basic('alice', PASSWORDS.alice) },
            body,
          }),
        ),
      );
      expect(allowed.status).toBe(204);
      expect(allowed.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
      if (updateFigures) figures.push(row(what, body.length, allowed));
    },
    120_000,
  );

  test.each([
    ['PATCH', JUKEBOX],
    ['PUT', JUKEBOX],
    ['POST', JUKEBOX],
    ['PUT', '/restconf/data'],
    ['PUT', `${RUNNING_DS}/example-jukebox:jukebox`],
  ])(
    'gets 403 for a %s on %s before the body is decoded (a malformed body is not even looked at)',
    async (method, path) => {
      const r = await as('bob', path, { method, headers: { 'Content-Type': DATA_JSON }, body: '{' });
      expect(r.status).toBe(403);
      expect((await firstError(r))?.['error-tag']).toBe('access-denied');
    },
  );

  test('who may write below the target has the body decoded and judged (400 for a malformed one)', async () => {
    for (const user of ['alice', 'carol'] as const) {
      const r = await as(user, JUKEBOX, {
        method: 'PATCH',
        headers: { 'Content-Type': DATA_JSON },
        body: '{',
      });
      expect([user, r.status]).toEqual([user, 400]);
    }
  });

  test('who may write only below the target still gets the edit judged node by node', async () => {
    const allowed = await as('carol', JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON },
      body: playlists(3),
    });
    expect(allowed.status).toBe(204);
    const denied = await as('carol', JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap: '1.5' } } }),
    });
    expect(denied.status).toBe(403);
  });
});

describe('an NMDA edit of running while the candidate holds an uncommitted change', () => {
  // The gateway's server always has a candidate. One holding an uncommitted change cannot serve as
  // the scratch tree of an edit of running: the edit is made on the server's private copy of
  // running instead, as every edit of running is on a server without a candidate.
  const CANDIDATE_DS = '/restconf/ds/ietf-datastores:candidate';
  const judged = judgedServer();
  const as = fetchAs(() => judged.s, PASSWORDS);

  test('a leaf GET is answered within 600 ms while a user who may write there PATCHes 99,999 playlists to running', async () => {
    const uncommitted = await as('alice', `${CANDIDATE_DS}/example-jukebox:jukebox`, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:jukebox': { playlist: [{ name: 'uncommitted' }] } }),
    });
    expect(uncommitted.status).toBe(204);
    const body = playlists(99_999);
    const allowed = await measureStall(judged.s, basic('root', PASSWORDS.root), () =>
      statusOf(
        fetch(`${judged.s.gateway.url}${RUNNING_DS}/example-jukebox:jukebox`, {
          method: 'PATCH',
          headers: { 'Content-Type': DATA_JSON, Authorization: basic('alice', PASSWORDS.alice) },
          body,
        }),
      ),
    );
    expect(allowed.status).toBe(204);
    expect(allowed.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    // The candidate keeps its own change, and only it.
    const candidate = await as('alice', `${CANDIDATE_DS}/example-jukebox:jukebox/playlist=uncommitted`, {
      method: 'GET',
    });
    expect(candidate.status).toBe(200);
    const edited = await as('alice', `${CANDIDATE_DS}/example-jukebox:jukebox/playlist=p99998`, {
      method: 'GET',
    });
    expect(edited.status).toBe(404);
    if (updateFigures)
      figures.push(
        row(
          '99,999 playlists to `{+restconf}/ds/ietf-datastores:running` (NMDA) while the candidate holds an uncommitted change',
          body.length,
          allowed,
        ),
      );
  }, 120_000);
});

describe('a big NETCONF edit over SSH', () => {
  // The gateway's embedded NETCONF server over SSH (--netconf-ssh-listen): an <edit-config> is read,
  // decoded, applied, checked and validated in slices as a RESTCONF edit is, so RESTCONF readers are
  // not held by it. The client is a process of its own (its work is not the gateway's).
  const SSH_PASSWORD = 'big-edit';
  let s: Server;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    s = await startServer({ netconfSshListen: `127.0.0.1:${port}`, netconfSshPassword: SSH_PASSWORD });
  });
  afterAll(() => s?.close());

  test('a leaf GET is answered within 600 ms while an <edit-config> of running applies 99,999 playlists', async () => {
    const { ready, stall } = await netconfRequest(s, port, SSH_PASSWORD, 'edit-config', '99999');
    expect(stall.status).toBe('ok');
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    expect(await s.snapshot()).toContain('<name>p99998</name>');
    if (updateFigures) {
      const bytes = Number(ready.split(' ')[1]);
      figures.push(row('99,999 playlists in a NETCONF `<edit-config>` of running over SSH', bytes, stall));
    }
  }, 120_000);
});

/**
 * A gateway that also serves NETCONF over SSH (user `netconf`, `password`) with `artists` in
 * running and `options`, started before the tests of the describe around and closed after them.
 */
function sshServerWithArtists(
  password: string,
  artists: number,
  options: GatewayOptions = {},
): { s: Server; port: number } {
  const served = {} as { s: Server; port: number };
  beforeAll(async () => {
    served.port = await freePort();
    // The bodies that fill running are big: the collection that gives their memory back 2 s later
    // (a pause of its own, once per 30 s) would fall within the read measured, so it is off here.
    served.s = await startServer({
      netconfSshListen: `127.0.0.1:${served.port}`,
      netconfSshPassword: password,
      idleCollection: false,
      ...options,
    });
    await addArtists(served.s, artists, {});
  }, 120_000);
  afterAll(() => served.s?.close());
  return served;
}

describe('a big NETCONF read over SSH', () => {
  // A <get-config> of a big running over SSH: its reply is encoded from the datastore's own nodes
  // and written in slices as the SSH channel takes it, so RESTCONF readers are not held by it (it
  // was one turn: selection, encoding and the write of the whole text).
  const SSH_PASSWORD = 'big-read';
  const ARTISTS = 500_000;
  const served = sshServerWithArtists(SSH_PASSWORD, ARTISTS);

  test('a leaf GET is answered within 600 ms while a <get-config> of 500,000 artists is answered', async () => {
    const { stall } = await netconfRequest(served.s, served.port, SSH_PASSWORD, 'get-config');
    expect(stall.status).toMatch(/^ok \d+$/);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures) {
      const bytes = Number(String(stall.status).split(' ')[1]);
      figures.push(
        row('a NETCONF `<get-config>` of running (500,000 artists) over SSH', bytes, {
          ...stall,
          status: 'ok',
        }),
      );
    }
  }, 120_000);

  test('a leaf GET is answered within 600 ms while a <get-config> with a subtree filter selecting 500,000 artists is answered', async () => {
    const { stall } = await netconfRequest(
      served.s,
      served.port,
      SSH_PASSWORD,
      'get-config',
      'subtree',
      ARTISTS_FILTER,
    );
    expect(stall.status).toMatch(/^ok \d+$/);
    const bytes = Number(String(stall.status).split(' ')[1]);
    expect(bytes).toBeGreaterThan(ARTISTS * '<artist><name>artist-0</name></artist>'.length);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row('a NETCONF `<get-config>` with a subtree filter selecting the 500,000 artists, over SSH', bytes, {
          ...stall,
          status: 'ok',
        }),
      );
  }, 120_000);

  // An XPath filter's expression is evaluated in the same slices as its selection, node by node
  // along its location steps (it was one turn: a descendant walk, a predicate tested on every entry
  // or the merge of a union held the event loop for its whole length).
  test.each([
    ['/j:jukebox/j:library/j:artist', 'selecting the 500,000 artists'],
    ["/j:jukebox/j:library/j:artist[j:name='artist-7']", 'selecting one artist by its name'],
    ["//j:artist[contains(j:name, '77')]", 'walking the whole tree and testing every artist'],
    ['//j:artist | //j:name', 'merging two node-sets of 500,000 nodes'],
  ])(
    'a leaf GET is answered within 600 ms while a <get-config> with the XPath filter %s is answered',
    async (xpath, what) => {
      const { stall } = await netconfRequest(
        served.s,
        served.port,
        SSH_PASSWORD,
        'get-config',
        'xpath',
        xpath,
      );
      expect(stall.status).toMatch(/^ok \d+$/);
      const bytes = Number(String(stall.status).split(' ')[1]);
      expect(bytes).toBeGreaterThan(0);
      expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
      if (updateFigures)
        figures.push(
          row(`a NETCONF \`<get-config>\` with an XPath filter ${what} (\`${xpath}\`), over SSH`, bytes, {
            ...stall,
            status: 'ok',
          }),
        );
    },
    120_000,
  );
});

describe('a big NETCONF copy-config over SSH', () => {
  // A <copy-config> to the candidate compares the two datastores for NACM (RFC 8341 section 3.4.5)
  // and copies the source: in slices within the candidate's reservation, and a user whom NACM lets
  // write nothing is refused before either (it was one turn: the comparison, then the copy). The SSH
  // user is in no NACM group: the defaults let it read everything and write nothing.
  const SSH_PASSWORD = 'big-copy';
  const ARTISTS = 500_000;
  const USERS = { root: 'administrator' };
  let s: Server;
  let port: number;
  let creds: Credentials;
  beforeAll(async () => {
    creds = makeCredentials(USERS, 1024);
    port = await freePort();
    // The collection after the big bodies that fill running would fall within the copy measured.
    s = await startServer({
      usersFile: creds.usersFile,
      nacmAdmin: 'root',
      netconfSshListen: `127.0.0.1:${port}`,
      netconfSshPassword: SSH_PASSWORD,
      idleCollection: false,
    });
    await addArtists(s, ARTISTS, { Authorization: basic('root', USERS.root) });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    creds?.remove();
  });

  test('a leaf GET is answered within 600 ms while a read-only user sends <copy-config> running -> candidate of 500,000 artists (denied)', async () => {
    const { stall } = await netconfRequestAs(
      s,
      port,
      SSH_PASSWORD,
      basic('root', USERS.root),
      'copy-config',
      'running',
      'candidate',
    );
    expect(stall.status).toBe('access-denied');
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    // Nothing changed: the candidate was not replaced, and still follows running.
    expect(s.gateway.backend.netconf!.candidateModified).toBe(false);
    if (updateFigures)
      figures.push(
        row(
          'a NETCONF `<copy-config>` of running (500,000 artists) to the candidate by a read-only user (refused), over SSH',
          0,
          stall,
        ),
      );
  }, 120_000);
});

describe('an XPath filter whose work grows with the square of the datastore, over SSH', () => {
  // `//j:artist[count(//j:name) > 0]` walks the whole tree for every artist: hours over 200,000
  // artists. Its evaluation stops at the server's bound of work with resource-denied (the default,
  // DEFAULT_MAX_XPATH_WORK, 5,000,000 units, about 1 s of this evaluation). An edit of running while
  // a held read is evaluated has the rest of the evaluation finished before the tree the read holds
  // changes, so that the reply stays one snapshot: in slices, the candidate's catch-up with running
  // waiting for it. It once ran at once, holding the event loop for the rest of the bound (about
  // 1 s at the default, 5 s at 20,000,000; for those hours before the bound).
  const SSH_PASSWORD = 'costly-xpath';
  const ARTISTS = 200_000;
  const served = sshServerWithArtists(SSH_PASSWORD, ARTISTS);

  test('a leaf GET is answered within 600 ms while a <get-config> with the XPath filter //j:artist[count(//j:name) > 0] is refused and an edit of running comes meanwhile', async () => {
    let edited: Promise<number> | undefined;
    const { stall } = await netconfRequestWhile(
      served.s,
      served.port,
      SSH_PASSWORD,
      '',
      // the edit is sent while the filter is being evaluated
      () => {
        edited = new Promise((resolve) => setTimeout(resolve, 100)).then(() =>
          statusOf(
            fetch(`${served.s.gateway.url}${JUKEBOX}`, {
              method: 'PATCH',
              headers: { 'Content-Type': DATA_JSON },
              body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap: '1.5' } } }),
            }),
          ),
        );
      },
      'get-config',
      'xpath',
      '//j:artist[count(//j:name) > 0]',
    );
    expect(stall.status).toBe('resource-denied');
    expect(await edited).toBe(204);
    const gap = await fetch(`${served.s.gateway.url}${JUKEBOX}/player/gap`, {
      headers: { Accept: DATA_JSON },
    });
    expect(await gap.text()).toContain('1.5');
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    // The session goes on: a linear filter over the same artists is answered.
    const linear = await netconfRequest(
      served.s,
      served.port,
      SSH_PASSWORD,
      'get-config',
      'xpath',
      "//j:artist[j:name='artist-7']",
    );
    expect(linear.stall.status).toMatch(/^ok \d+$/);
    if (updateFigures)
      figures.push(
        row(
          'a NETCONF `<get-config>` with the XPath filter `//j:artist[count(//j:name) > 0]` over 200,000 artists, running edited meanwhile (refused: resource-denied at the default bound, 5,000,000), over SSH',
          0,
          stall,
        ),
      );
  }, 60_000);
});

/** A subtree filter (RFC 6241 section 6) selecting every artist of the jukebox's library. */
const ARTISTS_FILTER =
  '<jukebox xmlns="http://example.com/ns/example-jukebox"><library><artist/></library></jukebox>';

describe('a big read restricted by NACM', () => {
  // Read access (RFC 8341 section 3.4.5) is applied while the reply is written, from the
  // datastore's own nodes: before, a rule restricting something in every entry made the whole list
  // be walked and copied in one turn ahead of the first byte.
  const ARTISTS = 500_000;
  const USERS = LISTENERS;
  /** dave may read the library's artists but no album of any: a rule that restricts every entry. */
  const HIDDEN_ALBUMS = listenerRules(undefined, {
    name: 'hide-albums',
    'module-name': 'example-jukebox',
    path: '/example-jukebox:jukebox/library/artist/album',
    'access-operations': 'read',
    action: 'deny',
  });
  // The collection after the big bodies that fill running would fall within the read measured.
  const listening = judgedServer({
    users: USERS,
    rules: HIDDEN_ALBUMS,
    options: { idleCollection: false },
    fill: (s) => addArtists(s, ARTISTS, { Authorization: basic('root', USERS.root) }),
  });
  const as = fetchAs(() => listening.s, USERS);

  test('a leaf GET is answered within 600 ms while a read-only user GETs 500,000 artists with their albums hidden', async () => {
    const { stall, bytes } = await daveReads(listening.s, JUKEBOX, (body) =>
      expect(body).toContain('"artist-499999"'),
    );
    expect(stall.status).toBe(200);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row('a GET of the jukebox (500,000 artists) by a user whom a rule denies every album', bytes, stall),
      );
  }, 120_000);

  test('a leaf GET is answered within 600 ms while the read-only user stops reading three GETs of the 500,000 artists and running is edited twice', async () => {
    const url = `${listening.s.gateway.url}${JUKEBOX}`;
    const root = { Authorization: basic('root', USERS.root) };
    const gapAnswer = await fetch(`${url}/player/gap`, { headers: { ...root, Accept: DATA_JSON } });
    const gapBefore = (await gapAnswer.json()) as Record<string, string>;
    const held = [1, 2, 3].map(() =>
      stalledGet(url, { Accept: DATA_JSON, Authorization: basic('dave', USERS.dave) }),
    );
    await Promise.all(held.map((h) => h.started));
    const patchGap = (gap: string) =>
      statusOf(
        fetch(url, {
          method: 'PATCH',
          headers: { ...root, 'Content-Type': DATA_JSON },
          body: JSON.stringify({ 'example-jukebox:jukebox': { player: { gap } } }),
        }),
      );
    const stall = await measureStall(listening.s, root.Authorization, async () => {
      const first = await patchGap('1.2');
      // The next edit waits for the candidate, which takes running's former tree once the held GETs
      // have been encoded from it.
      const second = await patchGap('1.7');
      return first === 204 ? second : first;
    });
    const bodies = await Promise.all(held.map((h) => h.resume()));
    expect(stall.status).toBe(204);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    // One snapshot: each answer is the jukebox as it was when the GETs began, albums hidden.
    for (const body of bodies) {
      expect(body).toContain('"artist-499999"');
      expect(body).not.toContain('"album"');
      // Not parsed: half a million objects would be garbage for the next reads to collect.
      expect(/"gap":\s*"([^"]*)"/.exec(body)?.[1]).toBe(gapBefore['example-jukebox:gap']);
    }
    if (updateFigures)
      figures.push(
        row(
          'two PATCHes of running while the same user, having stopped reading, holds three GETs of the 500,000 artists',
          bodies[0]!.length,
          stall,
        ),
      );
  }, 120_000);

  test('a leaf GET is answered within 600 ms while the read-only user calls get-bulk for 100 artists after one in the middle, in a loop', async () => {
    const input = {
      'yangkit-get-bulk:input': {
        'list-target': '/example-jukebox:jukebox/library/artist',
        'last-keys': { 'example-jukebox:name': `artist-${ARTISTS / 2}` },
      },
    };
    let bytes = 0;
    const stall = await measureStall(listening.s, basic('root', USERS.root), async () => {
      let status = 0;
      for (let call = 0; call < BULK_CALLS; call++) {
        const r = await fetch(`${listening.s.gateway.url}/restconf/operations/yangkit-get-bulk:get-bulk`, {
          method: 'POST',
          headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON, Authorization: basic('dave', USERS.dave) },
          body: JSON.stringify(input),
        });
        const body = await r.text();
        bytes += body.length;
        status = r.status;
        expect(body).toContain(`"artist-${ARTISTS / 2 + 1}"`);
      }
      return status;
    });
    expect(stall.status).toBe(200);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row(
          `${BULK_CALLS} get-bulk calls, one after the other, for the 100 artists after \`artist-250000\` of those 500,000, by the same user`,
          bytes,
          stall,
        ),
      );
  }, 120_000);

  test('a leaf GET is answered within 600 ms while the read-only user invokes ietf-netconf:get-config of the 500,000 artists as a RESTCONF operation', async () => {
    let bytes = 0;
    const stall = await measureStall(listening.s, basic('root', USERS.root), async () => {
      const r = await fetch(`${listening.s.gateway.url}/restconf/operations/ietf-netconf:get-config`, {
        method: 'POST',
        headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON, Authorization: basic('dave', USERS.dave) },
        body: JSON.stringify({ 'ietf-netconf:input': { source: { running: [null] } } }),
      });
      const body = await r.text();
      bytes = body.length;
      expect(body).toContain('"artist-499999"');
      expect(body).not.toContain('"album"');
      return r.status;
    });
    expect(stall.status).toBe(200);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row(
          'the operation `ietf-netconf:get-config` of those 500,000 artists, invoked by the same user',
          bytes,
          stall,
        ),
      );
  }, 120_000);

  test('a leaf GET is answered within 600 ms while a read-only user receives a periodic YANG Push subscription (100 ms) to the 500,000 artists', async () => {
    const auth = basic('dave', USERS.dave);
    let events = '';
    const stall = await measureStall(listening.s, basic('root', USERS.root), async () => {
      const r = await fetch(`${listening.s.gateway.url}/restconf/operations/${SN}:establish-subscription`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': DATA_JSON, Accept: DATA_JSON },
        body: JSON.stringify({
          [`${SN}:input`]: {
            'ietf-yang-push:datastore': 'ietf-datastores:running',
            'ietf-yang-push:periodic': { period: 10 },
          },
        }),
      });
      if (r.status !== 200) return r.status;
      const output = ((await r.json()) as Record<string, Record<string, string>>)[`${SN}:output`]!;
      const receiver = await fetch(output['ietf-restconf-subscribed-notifications:uri']!, {
        headers: { Authorization: auth, Accept: 'text/event-stream' },
      });
      events = await textFor(receiver, RECEIVE_MS);
      return receiver.status;
    });
    expect(stall.status).toBe(200);
    // Each update is over the bound (--max-update-bytes, by default --event-queue-bytes, 1 MiB):
    // the subscription is suspended, told once, and each period costs the bound at most; while running is unchanged, nothing (the content made last is sent again, or, over the bound, nothing is).
    expect(events).toContain('ietf-yang-push:update-too-big');
    expect(events.split('subscription-suspended')).toHaveLength(2);
    expect(events).not.toContain('push-update');
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row(
          `a periodic YANG Push subscription (100 ms) to running (500,000 artists) received for ${RECEIVE_MS / 1000} s by a user whom a rule denies every album`,
          events.length,
          stall,
        ),
      );
  }, 120_000);

  const artistRule = (name: string, action: 'permit' | 'deny', key?: string) => ({
    name,
    'module-name': 'example-jukebox',
    path: `/example-jukebox:jukebox/library/artist${key === undefined ? '' : `[name='${key}']`}`,
    'access-operations': 'read',
    action,
  });

  /** Twenty artists spread over the library: `artist-7`, `artist-25007`, ... `artist-475007`. */
  const NAMED = Array.from({ length: 20 }, (_, i) => `artist-${i * 25_000 + 7}`);

  test.each([
    {
      what: 'under rules that deny 20 artists by key, one rule each',
      rules: listenerRules('permit', ...NAMED.map((key, i) => artistRule(`hide-${i}`, 'deny', key))),
      shown: ['artist-8', 'artist-499999'],
      hidden: NAMED,
    },
    {
      what: 'under read-default deny and rules that permit 20 artists by key, no other',
      rules: listenerRules(
        'deny',
        ...NAMED.map((key, i) => artistRule(`show-${i}`, 'permit', key)),
        artistRule('hide-others', 'deny'),
        {
          name: 'show-jukebox',
          path: '/example-jukebox:jukebox',
          'access-operations': 'read',
          action: 'permit',
        },
      ),
      shown: NAMED,
      hidden: ['artist-8', 'artist-499999'],
    },
  ])(
    'a leaf GET is answered within 600 ms while a read-only user GETs 500,000 artists $what',
    async ({ what, rules, shown, hidden }) => {
      const put = await as('root', '/restconf/data/ietf-netconf-acm:nacm', {
        method: 'PUT',
        headers: { 'Content-Type': DATA_JSON },
        body: JSON.stringify(rules),
      });
      expect(put.status).toBeLessThan(300);
      const { stall, bytes } = await daveReads(listening.s, JUKEBOX, (body) => {
        for (const name of shown) expect(body).toContain(`"${name}"`);
        for (const name of hidden) expect(body).not.toContain(`"${name}"`);
      });
      expect(stall.status).toBe(200);
      // Under two busy loops, 55 and 22 ms (was 89 to 171 and 48 to 81 ms). Once 893 ms under the whole
      // CI run's load: the read held the event loop for runs of its own work, the example's count of
      // the library (17 to 40 ms), the search of a list without its key index yet for the entries
      // named, and of each entry's position; all are made in steps since. Before, judging every entry
      // ahead of the first byte took 1.9 to 2.3 s.
      expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
      if (updateFigures)
        figures.push(row(`a GET of the jukebox (500,000 artists) by a read-only user ${what}`, bytes, stall));
    },
    120_000,
  );
});

/** get-bulk calls made one after the other while a leaf is read. */
const BULK_CALLS = 20;

/** RFC 8639 ietf-subscribed-notifications, the module of establish-subscription. */
const SN = 'ietf-subscribed-notifications';

/** How long the YANG Push receiver reads its event stream: 30 periods. */
const RECEIVE_MS = 3_000;

/** The text an event stream response sends within `ms`; then the stream is cancelled. */
async function textFor(response: Response, ms: number): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), ms);
  let text = '';
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += decoder.decode(next.value, { stream: true });
  } catch {
    // Cancelled.
  } finally {
    clearTimeout(timer);
  }
  return text;
}

/** Artists per body: within the default limit of data nodes (two each, the entry and its key). */
const ARTISTS_PER_BODY = 50_000;

/** Adds `count` artists (`artist-0`, ...) to the jukebox's library by PATCHes with `headers`. */
async function addArtists(s: Server, count: number, headers: Record<string, string>): Promise<void> {
  for (let from = 0; from < count; from += ARTISTS_PER_BODY) {
    const artist = Array.from({ length: ARTISTS_PER_BODY }, (_, i) => ({ name: `artist-${from + i}` }));
    const r = await fetch(`${s.gateway.url}${JUKEBOX}`, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON, ...headers },
      body: JSON.stringify({ 'example-jukebox:jukebox': { library: { artist } } }),
    });
    expect(r.status).toBe(204);
  }
}

/**
 * Runs one NETCONF request over SSH from a client process of its own (see `netconf-request.mjs`)
 * while another client reads a leaf; `ready` is the line it printed once connected.
 */
async function netconfRequest(
  s: Server,
  port: number,
  password: string,
  ...request: string[]
): Promise<{ ready: string; stall: Stall }> {
  return netconfRequestAs(s, port, password, '', ...request);
}

/** {@link netconfRequest} with the leaf read as the user of `auth` (an Authorization header value). */
async function netconfRequestAs(
  s: Server,
  port: number,
  password: string,
  auth: string,
  ...request: string[]
): Promise<{ ready: string; stall: Stall }> {
  return netconfRequestWhile(s, port, password, auth, () => undefined, ...request);
}

/**
 * A GET whose reader stops after its first chunk (the server's writes then wait for the socket) until
 * `resume`, which reads the rest and resolves with the whole body.
 */
function stalledGet(
  url: string,
  headers: Record<string, string>,
): { started: Promise<void>; resume: () => Promise<string> } {
  const chunks: Buffer[] = [];
  let response: IncomingMessage | undefined;
  const started = new Promise<void>((resolve, reject) => {
    httpGet(url, { headers, agent: false }, (r) => {
      response = r;
      r.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        r.pause();
        resolve();
      });
    }).on('error', reject);
  });
  const resume = () =>
    new Promise<string>((resolve, reject) => {
      const r = response!;
      r.on('data', (chunk: Buffer) => chunks.push(chunk));
      r.on('end', () => resolve(Buffer.concat(chunks).toString()));
      r.on('error', reject);
      r.resume();
    });
  return { started, resume };
}

/** {@link netconfRequestAs}, calling `meanwhile` once the request is sent. */
async function netconfRequestWhile(
  s: Server,
  port: number,
  password: string,
  auth: string,
  meanwhile: () => void,
  ...request: string[]
): Promise<{ ready: string; stall: Stall }> {
  const client = spawn(process.execPath, [NETCONF_CLIENT, String(port), 'netconf', password, ...request], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: client.stdout! })[Symbol.asyncIterator]();
  try {
    const ready = (await lines.next()).value as string;
    expect(ready).toMatch(/^ready \d+$/);
    const stall = await measureStall(s, auth, async () => {
      client.stdin!.write('go\n');
      meanwhile();
      return (await lines.next()).value as string;
    });
    return { ready, stall };
  } finally {
    client.kill();
  }
}

describe('a read-only user who reads the candidate during a big edit', () => {
  // The candidate is the scratch tree of the edit, then replays the commit: a read of it waits for
  // both to end rather than making them end at once, in one turn of the event loop.
  const CANDIDATE_LEAF = '/restconf/ds/ietf-datastores:candidate/example-jukebox:jukebox/player';
  const judged = judgedServer();

  test('a leaf GET is answered within 600 ms while a user who may write there PATCHes 99,999 playlists to running and a read-only user GETs the candidate in a loop', async () => {
    const body = playlists(99_999);
    let candidateGets = 0;
    const allowed = await measureStall(judged.s, basic('root', PASSWORDS.root), async () => {
      let done = false;
      const reader = (async () => {
        while (!done) {
          const r = await fetch(`${judged.s.gateway.url}${CANDIDATE_LEAF}`, {
            headers: { Authorization: basic('bob', PASSWORDS.bob) },
          });
          await r.arrayBuffer();
          candidateGets++;
        }
      })();
      try {
        return await statusOf(
          fetch(`${judged.s.gateway.url}${JUKEBOX}`, {
            method: 'PATCH',
            headers: { 'Content-Type': DATA_JSON, Authorization: basic('alice', PASSWORDS.alice) },
            body,
          }),
        );
      } finally {
        done = true;
        await reader;
      }
    });
    expect(allowed.status).toBe(204);
    expect(candidateGets).toBeGreaterThan(0);
    expect(allowed.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row(
          `99,999 playlists by a user who may write there while a read-only user GETs a leaf of \`{+restconf}/ds/ietf-datastores:candidate\` in a loop (${candidateGets} answered)`,
          body.length,
          allowed,
        ),
      );
  }, 120_000);
});

describe('a big body being decoded', () => {
  // A body refused only once it is decoded: its last entry is invalid. The node limit is raised so
  // that the decode is long (up to 1.4 million data nodes, within the 16 MiB body limit): it runs
  // in slices that give the event loop back, so a client reading a leaf meanwhile waits tens of
  // milliseconds, not the seconds the whole decode takes.
  const BAD = { json: '{"name":true}]', xml: '<playlist><name/><name/></playlist></jukebox>' };
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ maxBodyNodes: 2_000_000 });
  });
  afterAll(() => s?.close());

  test.each([
    ['JSON', 700_000, DATA_JSON, (n: number) => `${playlists(n).slice(0, -3)},${BAD.json}}}`],
    ['XML', 400_000, DATA_XML, (n: number) => playlistsXml(n).replace('</jukebox>', BAD.xml)],
  ])(
    '%s: a leaf GET is answered within a second while %i playlists decode',
    async (encoding, count, type, body) => {
      const before = await s.snapshot();
      const text = body(count);
      const stall = await measureStall(s, '', () =>
        statusOf(
          fetch(`${s.gateway.url}${JUKEBOX}`, {
            method: 'PATCH',
            headers: { 'Content-Type': type },
            body: text,
          }),
        ),
      );
      expect(stall.status).toBe(400);
      expect(stall.worstGapMs).toBeLessThan(MAX_STALL_MS);
      expect(await s.snapshot()).toBe(before);
      if (updateFigures) {
        const entries = (count + 1).toLocaleString('en-US');
        const what = `${entries} playlists in ${encoding}, the last one invalid (node limit raised to 2,000,000)`;
        figures.push(row(what, text.length, stall));
      }
    },
    120_000,
  );
});

describe('data nodes per body', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ maxBodyNodes: 1000 });
  });
  afterAll(() => s.close());

  test.each(['POST', 'PUT', 'PATCH'])(
    'a JSON %s of more data nodes than the limit is 413 too-big, and nothing changes',
    async (method) => {
      const before = await s.snapshot();
      const r = await s.fetch(JUKEBOX, {
        method,
        headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
        body:
          method === 'POST'
            ? JSON.stringify({
                'example-jukebox:playlist': Array.from({ length: 600 }, (_, i) => ({ name: `p${i}` })),
              })
            : playlists(600),
      });
      expect(r.status).toBe(413);
      expect(await firstError(r)).toMatchObject({ 'error-tag': 'too-big' });
      expect(await s.snapshot()).toBe(before);
    },
  );

  test('an XML body of more data nodes than the limit is 413 too-big', async () => {
    const entries = Array.from({ length: 600 }, (_, i) => `<playlist><name>p${i}</name></playlist>`).join('');
    const r = await s.fetch(JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_XML, Accept: DATA_JSON },
      body: `<jukebox xmlns="http://example.com/ns/example-jukebox">${entries}</jukebox>`,
    });
    expect(r.status).toBe(413);
    expect((await firstError(r))?.['error-message']).toContain('more than 1000 data nodes');
  });

  test('a YANG Patch whose edit values hold more data nodes together than the limit is 413 too-big', async () => {
    const before = await s.snapshot();
    const edit = (id: string, from: number) => ({
      'edit-id': id,
      operation: 'merge',
      target: '/',
      value: JSON.parse(playlists(300).replaceAll('"name":"p', `"name":"${from}-p`)),
    });
    const r = await s.fetch(JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': PATCH_JSON, Accept: DATA_JSON },
      body: JSON.stringify({
        'ietf-yang-patch:yang-patch': { 'patch-id': 'big', edit: [edit('a', 1), edit('b', 2)] },
      }),
    });
    const text = await r.text();
    expect([r.status, text]).toEqual([413, expect.stringContaining('too-big')]);
    expect(await s.snapshot()).toBe(before);
  });

  test('a body within the limit is applied', async () => {
    const r = await s.fetch(JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON },
      body: playlists(400),
    });
    expect(r.status).toBe(204);
  });
});

describe('a big read of a list of two keys restricted by NACM by one of them', () => {
  // A rule whose path names a list's entries by some of their keys tells no entry apart by key (the
  // other key may be anything): each entry is judged as the answer is written, ahead of the first
  // one, in steps with turns of the event loop between them. It was one turn for the whole list.
  const ROUTES = 500_000;
  /** Routes per body: within the default limit of data nodes (three each, the entry and its keys). */
  const ROUTES_PER_BODY = 25_000;
  const ROUTES_PATH = '/restconf/data/example-routes:routes';
  const USERS = LISTENERS;
  /** dave may read no route of vrf red, every other one. */
  const HIDDEN_RED = listenerRules(undefined, {
    name: 'hide-red',
    'module-name': 'example-routes',
    path: "/example-routes:routes/route[vrf='red']",
    'access-operations': 'read',
    action: 'deny',
  });
  const listening = judgedServer({
    users: USERS,
    rules: HIDDEN_RED,
    options: { idleCollection: false, path: [TEST_YANG_DIR], module: [...EXAMPLE_MODULES, 'example-routes'] },
    fill: async (s) => {
      const as = fetchAs(() => s, USERS);
      for (let from = 0; from < ROUTES; from += ROUTES_PER_BODY) {
        const route = Array.from({ length: ROUTES_PER_BODY }, (_, i) => ({
          prefix: `r${from + i}`,
          vrf: (from + i) % 2 === 0 ? 'red' : 'blue',
        }));
        const r = await as('root', '/restconf/data', {
          method: 'PATCH',
          headers: { 'Content-Type': DATA_JSON },
          body: JSON.stringify({ 'example-routes:routes': { route } }),
        });
        expect(r.status).toBe(204);
      }
    },
  });

  test('a leaf GET is answered within 600 ms while a read-only user GETs 500,000 routes of two keys under a rule that names only one of them', async () => {
    const { stall, bytes } = await daveReads(listening.s, ROUTES_PATH, (body) => {
      expect(body).toContain(`"r${ROUTES - 1}"`);
      expect(body).not.toContain('"red"');
    });
    expect(stall.status).toBe(200);
    expect(stall.worstGapMs).toBeLessThan(MAX_APPLY_STALL_MS);
    if (updateFigures)
      figures.push(
        row(
          'a GET of 500,000 routes of two keys by a read-only user whom a rule denies those of one value of one key',
          bytes,
          stall,
        ),
      );
  }, 120_000);
});

/**
 * A netconf-config-change (RFC 6470) of `count` edits, each the creation of a playlist named
 * `prefix-i` (just `prefix` for one).
 */
function playlistsChange(count: number, prefix: string): string {
  const edit = (name: string) =>
    `<edit><target xmlns:jbox="http://example.com/ns/example-jukebox">/jbox:jukebox/jbox:playlist[jbox:name='${name}']</target><operation>create</operation></edit>`;
  const edits =
    count === 1 ? edit(prefix) : Array.from({ length: count }, (_, i) => edit(`${prefix}-${i}`)).join('');
  return `<netconf-config-change xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications"><changed-by><server/></changed-by><datastore>running</datastore>${edits}</netconf-config-change>`;
}

/**
 * The text an event stream response sends until it matches `pattern` (or `ms` pass); then the stream
 * is cancelled. Only the end of the text is searched as it comes (megabytes of events for some).
 */
async function textUntil(response: Response, pattern: RegExp, ms: number): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), ms);
  const chunks: string[] = [];
  let tail = '';
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const chunk = decoder.decode(next.value, { stream: true });
      chunks.push(chunk);
      if (pattern.test(tail + chunk)) break;
      tail = chunk.slice(-100);
    }
  } catch {
    // Cancelled.
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => undefined);
  }
  return chunks.join('');
}

/** A row of the figures: one big edit and the stall it caused. */
function row(what: string, bytes: number, m: Stall): string {
  return `| ${what} | ${(bytes / 1e6).toFixed(1)} MB | ${m.status} | ${Math.round(m.ms)} ms | ${Math.round(m.worstGapMs)} ms | ${m.leafGets} |`;
}

/** The rows measured by this file's tests, written once they have all run. */
const figures: string[] = [];

afterAll(() => {
  if (!updateFigures || figures.length === 0) return;
  writeFigures(
    'big-body',
    [
      '### Big edit bodies (embedded backend, over HTTP)',
      '',
      'A PATCH of the jukebox while another client GETs a leaf again as soon as it has its answer (in the same process as the gateway); the longest time between two of its answers is how long the event loop was held.',
      '',
      `Measured at a load average of ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores (other processes share them).`,
      '',
      '| edit | body | status | answered after | longest wait for a leaf GET meanwhile | leaf GETs answered |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...figures,
      '',
      "The first is refused before its body is decoded (NACM on). Bodies are decoded in slices of about 5 ms that give the event loop back (the 700,001 and 400,001 playlists: refused once decoded). The edit of the second is then applied to the candidate, checked by NACM and validated in slices of about 5 ms with the candidate held for it (other work on the candidate, a read of it included, waits for its turn, so nobody sees it half done); the commit gives running the candidate's tree without a copy, and the candidate catches up in slices in the background. What remains of its wait is the commit's own turn (its journal and events) and the garbage collector.",
      '',
      "The third, an NMDA edit of running (`--with-nmda`), and the fifth, a NETCONF `<edit-config>` of running over SSH (`--netconf-ssh-listen`, its client a process of its own), are made on the candidate, unmodified, in the same slices, and running takes its tree by the same exchange; the NETCONF message is read and decoded in slices too. The fourth, an NMDA edit of running while the candidate holds an uncommitted change (made through `{+restconf}/ds/ietf-datastores:candidate`), is made the same way on the server's private scratch tree, a copy of running that follows it, as every edit of running is on a server without a candidate. Before, each was one turn: the longest waits were 3,429 and 2,517 ms for the NMDA edit, 3,175 and 2,635 ms for the NMDA edit beside an uncommitted change (load average 7 to 8) and 3,530 and 5,753 ms for the NETCONF edit (two runs each, load average 5 to 6 on 2 cores unless told).",
      '',
      "The sixth row is a read: a NETCONF `<get-config>` of running over SSH, after PATCHes that put 500,000 artists there (`--idle-collection=false`, so that the collection after those big bodies does not fall within it). Its reply is encoded from the datastore's own nodes and written in slices of about 5 ms as the SSH channel takes it; before, selection, encoding and the write of the whole text were one turn, and the longest waits were 1,090 and 1,501 ms (load average 5.3 on 2 cores).",
      '',
      "The next five are `<get-config>`s of the same artists with a filter. A subtree filter selecting every artist has its selection made in slices of about 5 ms before the reply's first byte, with running held for it (as is, with NACM rules that restrict the reader, the copy of what they may read); when it was one turn, the longest wait was 837 ms (load average 3.2 on 2 cores; under 600 ms in another run at 1.1). An XPath filter's expression is evaluated in the same slices, node by node along its location steps (a key predicate is answered from the list's key index, a union is merged in steps), then its selection is built in them too. When the selection was one turn, the longest waits were 1,339 ms for every artist and 101 ms for one (load average 3.2); when the expression still was, they were 129 and 43 ms for those two, 1,814 ms for the walk of the whole tree that tests every artist and 3,142 ms for the union of every artist and every name (load average 8.5 on 2 cores; 688 and 2,040 ms for the last two at 2.2).",
      '',
      "The thirteenth is a `<get-config>` over 200,000 artists whose XPath filter `//j:artist[count(//j:name) > 0]` walks the whole tree for every artist, refused with `resource-denied` at the default `--max-xpath-work` (5,000,000 units), running edited 100 ms into it. The paths inside its predicate are walked in steps too, and the edit has the rest of the evaluation finished, before the tree it reads changes, in the slices of the candidate's catch-up with running: before, each predicate's evaluation for one artist was one step of about 1 s, and the edit made the rest of the evaluation run at once (2.0 to 2.1 s).",
      '',
      "The fourteenth, nineteenth and twentieth rows are RESTCONF GETs of those 500,000 artists by a read-only user whom NACM restricts (`--nacm-admin`, `--idle-collection=false`): read access is applied as the answer is written, from the datastore's own nodes. Under rules that name 20 artists by key (one rule each), those artists are found by key and one other entry is judged for all the rest, each node once; before, every entry was judged against every rule ahead of the first byte, and the longest waits were 2,312 ms (20 artists denied) and 1,905 ms (only those 20 permitted) at load average 2.8 to 3.7 on 2 cores (588 and 682 ms at 1.7 with one artist named instead of 20).",
      '',
      "The fifteenth: the same user starts three GETs of those artists and stops reading each after its first bytes, then the administrator PATCHes running twice; its bytes are those of one GET. The rest of each GET is encoded from the tree it read, in the slices of the candidate's catch-up with running, which the second PATCH waits for; before, the three rests were encoded at once in the first PATCH's turn (1.0 to 1.06 s).",
      '',
      "The sixteenth is a read too: the user of the fourteenth calls `yangkit-get-bulk:get-bulk` for the 100 artists after `artist-250000`, one call after the other. The embedded backend shares its nodes: the entry after `last-keys` is found by key and the page is written from the datastore's own entries through the read's access filter, so a call costs its page. Before, each call copied the whole list for the user (walking it through NACM) in one turn: the 20 calls took 94 s and the longest wait was 7,593 ms (load average 7.9 on 2 cores).",
      '',
      "The eighteenth is a periodic YANG Push subscription (RFC 8641, every 100 ms) to running, established and received (the GET of its uri, an event stream read for 3 s) by the user whom a rule denies every album; its bytes are those of the event stream. Each update is read as a `<get-config>` is, from running's own nodes, and its content encoded in slices of about 5 ms, stopped at `--max-update-bytes` (by default `--event-queue-bytes`, 1 MiB): past it the subscription is suspended with `ietf-yang-push:update-too-big`, told once, and each period costs the bound at most. Before, establishment and every period read, copied and encoded the whole datastore in one turn, and the gateway decoded and re-encoded each update for the receiver in one more: the longest wait was 18,546 ms over 3 s of receiving (load average 5.9 on 2 cores).",
      '',
      "The twenty-first is the second's PATCH while a user who may write nothing GETs a leaf of the candidate (the edit's scratch tree, then the tree that replays the commit) again as soon as it has its answer: each read waits for the edit and the candidate's replay to end in their own slices. Before, a read of the candidate made them run to their end at once, and the longest waits were 1,625, 3,023 and 4,365 ms (load average 4.8, 7.7 and 8.8 on 2 cores).",
    ].join('\n'),
  );
});
