import { type ClientHttp2Session, connect, constants, type OutgoingHttpHeaders } from 'node:http2';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials, metricValue } from './credentials.js';
import { DATA_JSON, type Server, startServer } from './harness.js';

// HTTP/2 streams held open without credentials: a stream answered 401 while the client never
// ends its request is reset (RFC 9113 section 8.1), a request that does not arrive whole within
// the request timeout is reset, and connections that authenticate nothing are bounded.
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
/** How long the suite waits for what must happen at once. */
const BOUND_MS = 5000;
const MAX_UNAUTHENTICATED = 4;
let creds: Credentials;
let s: Server;

beforeAll(async () => {
  creds = makeCredentials({ alice: 'wonderland' }, 1024);
  s = await startServer({
    usersFile: creds.usersFile,
    // alice may write (NACM leaves the recovery user alone): an edit NACM cannot permit is refused
    // before its body is awaited, and the request timeout test needs one that waits for its body.
    nacmAdmin: 'alice',
    tlsCert: creds.tlsCert,
    tlsKey: creds.tlsKey,
    metrics: true,
    monitoringUser: ['alice'],
    maxUnauthenticatedConnections: MAX_UNAUTHENTICATED,
  });
});
afterAll(async () => {
  await s.close();
  creds.remove();
});

function session(): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const h2 = connect(s.gateway.url, { ca: creds.ca });
    h2.once('connect', () => resolve(h2));
    h2.once('error', reject);
  });
}

/** Resolves with `promise`, or with `timedOut` after {@link BOUND_MS}. */
function within<T, U>(promise: Promise<T>, timedOut: U): Promise<T | U> {
  return Promise.race([promise, new Promise<U>((resolve) => setTimeout(() => resolve(timedOut), BOUND_MS))]);
}

/** A stream that sends its headers and never ends its request; `closed` says how it ended. */
function halfOpen(h2: ClientHttp2Session, headers: OutgoingHttpHeaders) {
  const stream = h2.request(headers, { endStream: false });
  let status: number | undefined;
  stream.on('response', (h) => {
    status = h[':status'];
  });
  stream.on('error', () => undefined);
  stream.resume();
  const closed = new Promise<{ status: number | undefined; rstCode: number | undefined }>((resolve) =>
    stream.once('close', () => resolve({ status, rstCode: stream.rstCode })),
  );
  return { stream, closed };
}

/** One complete GET with alice's credentials; resolves with its status. */
function get(h2: ClientHttp2Session): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({
      ':path': GAP,
      accept: DATA_JSON,
      authorization: basic('alice', 'wonderland'),
    });
    stream.on('response', (h) => resolve(h[':status'] ?? 0));
    stream.on('error', reject);
    stream.resume();
  });
}

/** The body of a GET of `path` with alice's credentials. */
function read(h2: ClientHttp2Session, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({ ':path': path, authorization: basic('alice', 'wonderland') });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      body += chunk;
    });
    stream.on('end', () => resolve(body));
    stream.on('error', reject);
  });
}

describe('HTTP/2 streams without credentials', () => {
  test('a PUT that never ends its request is answered 401, then reset with NO_ERROR', async () => {
    const h2 = await session();
    try {
      const { closed } = halfOpen(h2, { ':method': 'PUT', ':path': GAP, 'content-type': DATA_JSON });
      expect(await within(closed, 'still open')).toEqual({
        status: 401,
        rstCode: constants.NGHTTP2_NO_ERROR,
      });
    } finally {
      h2.destroy();
    }
  });

  test('100 such streams on one session all end, and the session then serves an authenticated GET', async () => {
    const h2 = await session();
    try {
      const streams = Array.from(
        { length: 100 },
        () => halfOpen(h2, { ':method': 'PUT', ':path': GAP, 'content-type': DATA_JSON }).closed,
      );
      const ended = await within(Promise.all(streams), 'still open');
      expect(ended).toEqual(Array(100).fill({ status: 401, rstCode: constants.NGHTTP2_NO_ERROR }));
      // With 100 streams held half-open the session had no stream left under its limit of 100.
      expect(await within(get(h2), 'refused')).toBe(200);
    } finally {
      h2.destroy();
    }
  });

  test('the streams reset after their answer are counted in /metrics', async () => {
    const h2 = await session();
    try {
      const metrics = await read(h2, '/metrics');
      expect(
        metricValue(metrics, 'restconf_http2_stream_resets_total{reason="answered"}'),
      ).toBeGreaterThanOrEqual(101);
    } finally {
      h2.destroy();
    }
  });
});

describe('HTTP/2 request timeout', () => {
  test('an authenticated PUT whose body never comes is reset with CANCEL after the request timeout', async () => {
    const before = s.gateway.http.requestTimeout;
    s.gateway.http.requestTimeout = 300;
    const h2 = await session();
    try {
      const { closed } = halfOpen(h2, {
        ':method': 'PUT',
        ':path': GAP,
        'content-type': DATA_JSON,
        authorization: basic('alice', 'wonderland'),
      });
      expect(await within(closed, 'still open')).toEqual({
        status: undefined,
        rstCode: constants.NGHTTP2_CANCEL,
      });
    } finally {
      s.gateway.http.requestTimeout = before;
      h2.destroy();
    }
  });
});

describe('connections that authenticate nothing', () => {
  test(`past ${MAX_UNAUTHENTICATED} of them the oldest is closed, and an authenticated one stays`, async () => {
    const authenticated = await session();
    expect(await get(authenticated)).toBe(200);
    const idle: ClientHttp2Session[] = [];
    const closed: Promise<'closed' | 'open'>[] = [];
    for (let i = 0; i < MAX_UNAUTHENTICATED + 2; i++) {
      const h2 = await session();
      h2.on('error', () => undefined);
      closed.push(
        within(new Promise<'closed'>((resolve) => h2.once('close', () => resolve('closed'))), 'open'),
      );
      idle.push(h2);
    }
    try {
      expect(await Promise.all(closed.slice(0, 2))).toEqual(['closed', 'closed']);
      expect(idle.slice(2).map((h2) => h2.closed || h2.destroyed)).toEqual(
        Array(MAX_UNAUTHENTICATED).fill(false),
      );
      expect(await get(authenticated)).toBe(200);
    } finally {
      for (const h2 of [authenticated, ...idle]) h2.destroy();
    }
  });

  test('HTTP/1.1 connections over TLS count with the HTTP/2 sessions', async () => {
    const url = new URL(s.gateway.url);
    const sockets: TLSSocket[] = [];
    const closed: Promise<'closed' | 'open'>[] = [];
    for (let i = 0; i <= MAX_UNAUTHENTICATED; i++) {
      const socket = await new Promise<TLSSocket>((resolve, reject) => {
        const c = tlsConnect(
          { host: url.hostname, port: Number(url.port), ca: creds.ca, ALPNProtocols: ['http/1.1'] },
          () => resolve(c),
        );
        c.once('error', reject);
      });
      closed.push(
        within(new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed'))), 'open'),
      );
      sockets.push(socket);
    }
    try {
      expect(await closed[0]).toBe('closed');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
