import { type ClientHttp2Session, connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials, metricValue } from './credentials.js';
import { DATA_JSON, errorsBody, JUKEBOX_EDITORS, type Server, startServer } from './harness.js';

// Request bodies over 64 KiB are read, decoded and applied a few at a time across all clients,
// however many clients send them: a body waits for a slot before any of its bytes are read, and
// past the queue it is answered 503 with Retry-After without being read; one user holds at most
// half of the places (429 past that). Here one slot and one place in the queue, held by bodies
// the test sends in two parts: each user's share is one place.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const PASSWORDS = { root: 'administrator', alice: 'wonderland', carol: 'singer' };
type User = keyof typeof PASSWORDS;
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: { group: [{ name: 'editors', 'user-name': ['alice', 'carol'] }] },
    'rule-list': [JUKEBOX_EDITORS],
  },
};

/** A PATCH body of `count` playlists named `<prefix>-<i>`: 6,000 are about 140 KB. */
function playlists(prefix: string, count = 6000): string {
  const entries = Array.from({ length: count }, (_, i) => `{"name":"${prefix}-${i}"}`);
  return `{"example-jukebox:jukebox":{"playlist":[${entries.join(',')}]}}`;
}

/** An answer: status, the headers the tests look at, and the body. */
interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly contentType: string | undefined;
  readonly text: string;
}

/** A request whose body goes in two parts: its first 1,000 bytes now, the rest on `finish`. */
interface Upload {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<Answer>;
  /** The answer, without sending more (for one that comes before the body). */
  readonly answered: Promise<Answer>;
}

type Transport = 'HTTP/1.1' | 'HTTP/2';

let creds: Credentials;
let s: Server;
let h2: ClientHttp2Session;

/**
 * Who sends a request: a user of the users file, to the gateway `s`; or a user name nobody
 * checks, to another gateway (over HTTP/1.1: the HTTP/2 session is to `s`).
 */
type Sender = User | { readonly madeUp: string; readonly server: Server };

/** Starts a request of `sender` with `body`; its first 1,000 bytes are sent at once. */
function startUpload(transport: Transport, sender: Sender, method: string, path: string, body = ''): Upload {
  const [server, authorization] =
    typeof sender === 'string'
      ? [s, basic(sender, PASSWORDS[sender])]
      : [sender.server, basic(sender.madeUp, 'made-up')];
  const headers = {
    authorization,
    'content-type': DATA_JSON,
    accept: DATA_JSON,
    'content-length': String(Buffer.byteLength(body)),
  };
  let answered: Promise<Answer>;
  let send: (rest: string) => void;
  const first = body.slice(0, 1000);
  if (transport === 'HTTP/2') {
    const stream = h2.request({ ':method': method, ':path': path, ...headers }, { endStream: false });
    answered = new Promise((resolve, reject) => {
      let head: Record<string, unknown> = {};
      let text = '';
      stream.once('response', (h) => {
        head = h;
      });
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        text += chunk;
      });
      stream.once('error', reject);
      // The end of the answer, not the stream's close: node's client keeps a stream the server
      // reset with NO_ERROR (RFC 9113 section 8.1) open while it still has body bytes to send.
      stream.once('end', () => {
        stream.close();
        resolve({
          status: Number(head[':status'] ?? 0),
          retryAfter: head['retry-after'] as string | undefined,
          contentType: head['content-type'] as string | undefined,
          text,
        });
      });
    });
    if (first !== '') stream.write(first);
    send = (rest) => stream.end(rest);
  } else {
    const req = httpsRequest(`${server.gateway.url}${path}`, { method, headers, ca: creds.ca, agent: false });
    answered = new Promise((resolve, reject) => {
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            contentType: res.headers['content-type'],
            text,
          }),
        );
      });
      req.once('error', reject);
    });
    if (first !== '') req.write(first);
    send = (rest) => req.end(rest);
  }
  return {
    answered,
    finish: () => {
      send(body.slice(1000));
      return answered;
    },
  };
}

/** The `ietf-restconf:errors` of an answer. */
const errorsOf = (answer: Answer) =>
  errorsBody(answer.text, answer.contentType ?? null) as {
    error: { 'error-tag': string; 'error-message': string }[];
  };

/** A whole request over HTTP/1.1. */
const as = (user: User, method: string, path: string, body?: string) =>
  startUpload('HTTP/1.1', user, method, path, body).finish();

/** A big PATCH of the jukebox of `user` sent in two parts. */
const bigPatch = (transport: Transport, user: User, prefix: string) =>
  startUpload(transport, user, 'PATCH', JUKEBOX, playlists(prefix));

/** Waits (bounded, generously) until `/metrics` counts `decoding` bodies with a slot and `waiting` in the queue. */
async function untilBodies(decoding: number, waiting: number): Promise<void> {
  let now: number[] = [];
  for (let i = 0; i < 500; i++) {
    const { text } = await as('root', 'GET', '/metrics');
    now = [metricValue(text, 'restconf_bodies_decoding'), metricValue(text, 'restconf_bodies_waiting')];
    if (now[0] === decoding && now[1] === waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`bodies decoding and waiting stayed ${now.join(' and ')}, not ${decoding} and ${waiting}`);
}

/** `restconf_bodies_refused_total` of `/metrics`. */
async function refusedCount(): Promise<number> {
  return metricValue((await as('root', 'GET', '/metrics')).text, 'restconf_bodies_refused_total');
}

async function playlistNames(): Promise<string[]> {
  const r = await as('root', 'GET', `${JUKEBOX}/playlist`);
  const body = JSON.parse(r.text) as { 'example-jukebox:playlist'?: { name: string }[] };
  return (body['example-jukebox:playlist'] ?? []).map((p) => p.name);
}

beforeAll(async () => {
  creds = makeCredentials(PASSWORDS, 1024);
  s = await startServer({
    usersFile: creds.usersFile,
    nacmAdmin: 'root',
    tlsCert: creds.tlsCert,
    tlsKey: creds.tlsKey,
    metrics: true,
    maxBodiesDecoding: 1,
    maxBodiesWaiting: 1,
  });
  const rules = await as('root', 'PUT', '/restconf/data/ietf-netconf-acm:nacm', JSON.stringify(RULES));
  expect(rules.status).toBeLessThan(300);
});
// A session per test: one left idle for a minute is closed by the gateway (GOAWAY).
beforeEach(() => {
  h2 = connect(s.gateway.url, { ca: creds.ca });
});
afterEach(() => h2.destroy());
afterAll(async () => {
  await s?.close();
  creds?.remove();
});

describe.each<Transport>(['HTTP/1.1', 'HTTP/2'])('big bodies at once over %s', (transport) => {
  const tag = transport === 'HTTP/2' ? 'h2' : 'h1';
  /** alice's big PATCH holding the slot and carol's waiting, both half sent. */
  const fillSlotAndQueue = async (held: string, waiting: string): Promise<[Upload, Upload]> => {
    const first = bigPatch(transport, 'alice', `${tag}-${held}`);
    await untilBodies(1, 0);
    const second = bigPatch(transport, 'carol', `${tag}-${waiting}`);
    await untilBodies(1, 1);
    return [first, second];
  };
  test('a third big authorized body gets 503 with Retry-After, counted in /metrics, while the other two are applied, and changes nothing', async () => {
    const [first, second] = await fillSlotAndQueue('first', 'second');
    const before = await s.snapshot();
    const refusals = await refusedCount();
    const refused = await bigPatch(transport, 'root', `${tag}-refused`).finish();
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('1');
    const errors = errorsOf(refused);
    expect(errors.error[0]?.['error-tag']).toBe('resource-denied');
    expect(errors.error[0]?.['error-message']).toContain('too many request bodies');
    expect(await s.snapshot()).toBe(before);
    expect(await refusedCount()).toBe(refusals + 1);
    expect((await Promise.all([first.finish(), second.finish()])).map((a) => a.status)).toEqual([204, 204]);
    const names = await playlistNames();
    expect(names).toEqual(expect.arrayContaining([`${tag}-first-5999`, `${tag}-second-5999`]));
    expect(names.some((n) => n.startsWith(`${tag}-refused`))).toBe(false);
  });

  test("a user's big body past half of the places gets 429, unread, while another user's waits", async () => {
    const first = bigPatch(transport, 'alice', `${tag}-own`);
    await untilBodies(1, 0);
    const before = await s.snapshot();
    const again = await bigPatch(transport, 'alice', `${tag}-again`).finish();
    expect(again.status).toBe(429);
    expect(again.retryAfter).toBe('1');
    const errors = errorsOf(again);
    expect(errors.error[0]?.['error-message']).toContain('for user "alice"');
    expect(await s.snapshot()).toBe(before);
    const other = bigPatch(transport, 'carol', `${tag}-other`);
    await untilBodies(1, 1);
    expect((await Promise.all([first.finish(), other.finish()])).map((a) => a.status)).toEqual([204, 204]);
    expect((await playlistNames()).some((n) => n.startsWith(`${tag}-again`))).toBe(false);
  });

  test('a body that declares at most 64 KiB is applied while the slot and the queue are taken', async () => {
    const [first, second] = await fillSlotAndQueue('held', 'queued');
    const small = await startUpload(
      transport,
      'alice',
      'PATCH',
      JUKEBOX,
      playlists(`${tag}-small`, 100),
    ).finish();
    expect(small.status).toBe(204);
    expect((await Promise.all([first.finish(), second.finish()])).map((a) => a.status)).toEqual([204, 204]);
  });
});

test('a user NACM lets write nothing there gets 403 without taking a place in the queue', async () => {
  const first = bigPatch('HTTP/1.1', 'alice', 'denied-first');
  await untilBodies(1, 0);
  const r = await as(
    'root',
    'DELETE',
    '/restconf/data/ietf-netconf-acm:nacm/groups/group=editors/user-name=carol',
  );
  expect(r.status).toBe(204);
  const denied = bigPatch('HTTP/1.1', 'carol', 'denied');
  expect((await denied.answered).status).toBe(403);
  await untilBodies(1, 0);
  expect((await first.finish()).status).toBe(204);
});

describe('big bodies without authentication', () => {
  let open: Server;
  beforeAll(async () => {
    open = await startServer({
      tlsCert: creds.tlsCert,
      tlsKey: creds.tlsKey,
      metrics: true,
      maxBodiesDecoding: 1,
      maxBodiesWaiting: 1,
    });
  });
  afterAll(() => open?.close());

  /** A big PATCH from a user name nobody checks, sent in two parts. */
  const madeUp = (name: string) =>
    startUpload('HTTP/1.1', { madeUp: name, server: open }, 'PATCH', JUKEBOX, playlists(name));

  test("requests with a new made-up Basic user name each share their address's places: one, then 429", async () => {
    const first = madeUp('name-0');
    for (let i = 0; i < 500; i++) {
      const text = (
        await startUpload('HTTP/1.1', { madeUp: 'monitor', server: open }, 'GET', '/metrics').finish()
      ).text;
      if (metricValue(text, 'restconf_bodies_decoding') === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = await open.snapshot();
    for (const name of ['name-1', 'name-2', 'name-3']) {
      const refused = await madeUp(name).answered;
      expect(refused.status).toBe(429);
      expect(errorsOf(refused).error[0]?.['error-message']).toContain('for client address 127.0.0.1');
    }
    expect(await open.snapshot()).toBe(before);
    expect((await first.finish()).status).toBe(204);
  });
});
