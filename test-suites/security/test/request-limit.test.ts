import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic as basicHeader, type Credentials, makeCredentials } from './credentials.js';
import { DATA_JSON, errorsBody, type Server, startServer } from './harness.js';

// Issue 12, limits: --max-requests-per-client bounds the requests (event streams included) one
// client has in progress; the next gets 429 resource-denied, and other clients are unaffected.
const MAX = 2;
const PASSWORDS = { alice: 'wonderland', bob: 'builder' };
let creds: Credentials;
let s: Server;
let location: string;
const open: AbortController[] = [];

function basic(user: keyof typeof PASSWORDS): Record<string, string> {
  return { Authorization: basicHeader(user, PASSWORDS[user]) };
}

/** Opens an event stream as `user` and leaves it open. */
async function openStream(user: keyof typeof PASSWORDS): Promise<Response> {
  const controller = new AbortController();
  open.push(controller);
  return fetch(location, {
    headers: { Accept: 'text/event-stream', ...basic(user) },
    signal: controller.signal,
  });
}

beforeAll(async () => {
  creds = makeCredentials(PASSWORDS, 1024);
  s = await startServer({ usersFile: creds.usersFile, maxRequestsPerClient: MAX });
  const r = await s.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/streams', {
    headers: { Accept: DATA_JSON, ...basic('alice') },
  });
  const body = (await r.json()) as Record<string, { stream: { access: { location: string }[] }[] }>;
  location = Object.values(body)[0]!.stream[0]!.access[0]!.location;
});
afterAll(async () => {
  for (const c of open) c.abort();
  await s.close();
  creds.remove();
});

describe('requests in progress per client', () => {
  test('a client with the maximum of open streams gets 429 resource-denied on its next request', async () => {
    for (let i = 0; i < MAX; i++) expect((await openStream('alice')).status).toBe(200);
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
      headers: { Accept: DATA_JSON, ...basic('alice') },
    });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    const errors = errorsBody(await r.text(), r.headers.get('content-type')) as {
      error: { 'error-tag': string }[];
    };
    expect(errors.error[0]?.['error-tag']).toBe('resource-denied');
  });

  test('another client is served while the first one is at its limit', async () => {
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
      headers: { Accept: DATA_JSON, ...basic('bob') },
    });
    expect(r.status).toBe(200);
  });

  test('closing a stream gives the client its share back', async () => {
    open.shift()!.abort();
    // The server learns of the closed connection asynchronously; poll briefly until it has.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
        headers: { Accept: DATA_JSON, ...basic('alice') },
      });
      await r.arrayBuffer();
      status = r.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });
});

describe('requests in progress per client by default', () => {
  let other: Server;
  const streams: AbortController[] = [];
  beforeAll(async () => {
    other = await startServer();
  });
  afterAll(async () => {
    for (const c of streams) c.abort();
    await other.close();
  });

  test('without --max-requests-per-client a client may have 32 in progress and the next gets 429', async () => {
    const url = new URL(new URL(location).pathname, other.gateway.url).href;
    for (let i = 0; i < 32; i++) {
      const controller = new AbortController();
      streams.push(controller);
      const r = await fetch(url, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
      expect(r.status).toBe(200);
    }
    const r = await other.fetch('/restconf/data/example-jukebox:jukebox', { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(429);
  });

  test('without authentication a made-up Basic user name buys no share of its own: the address is at its limit', async () => {
    for (const name of ['mallory', 'trudy', 'eve']) {
      const r = await other.fetch('/restconf/data/example-jukebox:jukebox', {
        headers: { Accept: DATA_JSON, Authorization: basicHeader(name, 'made-up') },
      });
      expect(r.status).toBe(429);
    }
  });
});
