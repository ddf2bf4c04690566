import {
  type ClientHttp2Session,
  connect,
  constants,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import {
  createHttp2Server,
  type Http2ServerOptions,
  type Listener,
  type StreamResetReason,
} from '../src/http2.js';
import { serverTls } from '../src/security/tls-options.js';
import { type CapturedLog, captureLog } from './capture-log.js';
import { makeTestPki, type TestPki } from './tls-fixtures.js';

let pki: TestPki;
let gw: Gateway;
let log: CapturedLog;
const warnings: Error[] = [];
const onWarning = (w: Error): void => {
  warnings.push(w);
};

beforeAll(async () => {
  process.on('warning', onWarning);
  pki = makeTestPki();
  log = captureLog();
  gw = await startGateway(
    { port: 0, tlsCert: pki.serverCert, tlsKey: pki.serverKey },
    { logger: log.logger },
  );
});
afterAll(async () => {
  process.off('warning', onWarning);
  await gw.close();
});

const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const ALBUM = '/restconf/data/example-jukebox:jukebox/library/artist=Miles%20Davis/album';

function session(url = gw.url): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(url, { ca: pki.pem(pki.caCert) });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

interface H2Answer {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One HTTP/2 request; the body is sent without Content-Length, as HTTP/2 allows. */
function h2(s: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = s.request(headers, { endStream: body === undefined });
    let text = '';
    let head: IncomingHttpHeaders = {};
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      head = h;
    });
    stream.on('data', (chunk: string) => {
      text += chunk;
    });
    stream.on('end', () => resolve({ headers: head, body: text }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}

function https1(path: string): Promise<{ version: string; status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${gw.url}${path}`, { ca: pki.pem(pki.caCert), agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ version: res.httpVersion, status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP/2 over TLS', () => {
  test('ALPN selects h2 for a client that offers it, with at most 100 concurrent streams', async () => {
    const s = await session();
    try {
      expect(s.alpnProtocol).toBe('h2');
      // The server's SETTINGS bound the streams one client may have open.
      expect(s.remoteSettings.maxConcurrentStreams).toBe(100);
    } finally {
      s.close();
    }
  });

  test('GET answers data with no connection-specific header fields', async () => {
    const s = await session();
    try {
      const r = await h2(s, { ':path': ALBUM });
      expect(r.headers[':status']).toBe(200);
      expect(r.headers['content-type']).toBe('application/yang-data+json');
      // RFC 9113 section 8.2.2: these make an HTTP/2 message malformed.
      for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection'])
        expect(r.headers[name]).toBeUndefined();
      expect(JSON.parse(r.body)).toMatchObject({ 'example-jukebox:album': [{ name: 'Kind of Blue' }] });
    } finally {
      s.close();
    }
  });

  test('HEAD answers like GET with no body, and a matching ETag answers 304', async () => {
    const s = await session();
    try {
      const get = await h2(s, { ':path': ALBUM });
      const head = await h2(s, { ':method': 'HEAD', ':path': ALBUM });
      expect(head.headers[':status']).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.body).toBe('');
      const etag = get.headers.etag as string;
      const cached = await h2(s, { ':path': ALBUM, 'if-none-match': etag });
      expect(cached.headers[':status']).toBe(304);
      expect(cached.body).toBe('');
    } finally {
      s.close();
    }
  });

  test('PUT with a body and no Content-Length changes the datastore', async () => {
    const s = await session();
    try {
      const put = await h2(
        s,
        { ':method': 'PUT', ':path': GAP, 'content-type': 'application/yang-data+json' },
        JSON.stringify({ 'example-jukebox:gap': '1.7' }),
      );
      expect(put.headers[':status']).toBe(204);
      const get = await h2(s, { ':path': GAP });
      expect(JSON.parse(get.body)).toEqual({ 'example-jukebox:gap': '1.7' });
    } finally {
      s.close();
    }
  });

  test('an edit over HTTP/2 is audited with its address and a generated Message-ID it echoes', async () => {
    const s = await session();
    try {
      const put = await h2(
        s,
        { ':method': 'PUT', ':path': GAP, 'content-type': 'application/yang-data+json' },
        JSON.stringify({ 'example-jukebox:gap': '1.8' }),
      );
      let line = await log.nextAudit();
      while (line.msgId !== put.headers['message-id']) line = await log.nextAudit();
      expect(line).toMatchObject({ method: 'PUT', target: GAP, status: 204, remoteAddress: '127.0.0.1' });
    } finally {
      s.close();
    }
  });

  test('an event stream over HTTP/2 delivers a notification after an edit', async () => {
    const s = await session();
    try {
      const stream = s.request({ ':path': '/restconf/streams/json-NETCONF', accept: 'text/event-stream' });
      stream.setEncoding('utf8');
      const head = await new Promise<IncomingHttpHeaders>((resolve) => stream.once('response', resolve));
      expect(head[':status']).toBe(200);
      expect(head['content-type']).toMatch(/^text\/event-stream/);
      let text = '';
      const received = new Promise<void>((resolve) => {
        stream.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('netconf-config-change')) resolve();
        });
      });
      await h2(
        s,
        { ':method': 'PUT', ':path': GAP, 'content-type': 'application/yang-data+json' },
        JSON.stringify({ 'example-jukebox:gap': '0.8' }),
      );
      await received;
      expect(text).toMatch(/^data: /m);
      stream.close();
    } finally {
      s.close();
    }
  });

  test('an HTTP/1.1 client on the same port gets the same answer', async () => {
    const s = await session();
    let viaH2: H2Answer;
    try {
      viaH2 = await h2(s, { ':path': ALBUM });
    } finally {
      s.close();
    }
    const viaH1 = await https1(ALBUM);
    expect(viaH1.version).toBe('1.1');
    expect(viaH1.status).toBe(200);
    expect(viaH1.body).toBe(viaH2.body);
  });

  test('no warning about invalid HTTP/2 headers was emitted', () => {
    expect(warnings.map((w) => w.message)).toEqual([]);
  });
});

describe('clients that leave', () => {
  test('closing an HTTP/2 event stream ends its response on the server', async () => {
    const other = await startGateway(
      { port: 0, tlsCert: pki.serverCert, tlsKey: pki.serverKey, serverStatus: true },
      { logger: captureLog().logger },
    );
    const s = await session(other.url);
    try {
      const inFlight = async (): Promise<number> => {
        const status = await h2(s, { ':path': '/server-status' });
        return (JSON.parse(status.body) as { requests: { 'in-flight': number } }).requests['in-flight'];
      };
      const stream = s.request({ ':path': '/restconf/streams/json-NETCONF', accept: 'text/event-stream' });
      await new Promise((resolve) => stream.once('response', resolve));
      // The status request itself is in flight too.
      expect(await inFlight()).toBe(2);
      stream.close();
      let left = 2;
      for (let i = 0; i < 100 && left !== 1; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        left = await inFlight();
      }
      expect(left).toBe(1);
    } finally {
      s.close();
      await other.close();
    }
  });
});

describe('createHttp2Server', () => {
  test('gives HTTP/2 responses the destroyed flag of node:http, set once the client resets', async () => {
    const seen: unknown[] = [];
    let closed!: () => void;
    const done = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const tls = serverTls({ tlsCert: pki.serverCert, tlsKey: pki.serverKey })!;
    const { server, closer } = createHttp2Server(tls, (_req, res) => {
      seen.push(res.destroyed);
      res.on('close', () => {
        seen.push(res.destroyed);
        closed();
      });
      res.write('first chunk');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const s = await session(`https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = s.request({ ':path': '/' });
      stream.once('data', () => stream.close(constants.NGHTTP2_CANCEL));
      await done;
      expect(seen).toEqual([false, true]);
    } finally {
      s.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      closer.close(1000);
      await stopped;
    }
  });
});

/** A createHttp2Server on a free port, with the resets it reported. */
async function serveH2(listener: Listener, options: Http2ServerOptions = {}) {
  const resets: StreamResetReason[] = [];
  const tls = serverTls({ tlsCert: pki.serverCert, tlsKey: pki.serverKey })!;
  const { server, closer } = createHttp2Server(tls, listener, {
    ...options,
    onStreamReset: (reason) => resets.push(reason),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    resets,
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      closer.close(1000);
      return stopped;
    },
  };
}

/** Opens a stream that sends its headers and never ends its request; resolves once it closes. */
function halfOpen(s: ClientHttp2Session, headers: OutgoingHttpHeaders) {
  const stream = s.request(headers, { endStream: false });
  let status: number | undefined;
  let body = '';
  stream.setEncoding('utf8');
  stream.on('response', (h) => {
    status = h[':status'];
  });
  stream.on('data', (chunk: string) => {
    body += chunk;
  });
  stream.on('error', () => undefined);
  const closed = new Promise<{ status: number | undefined; body: string; rstCode: number }>((resolve) =>
    stream.once('close', () => resolve({ status, body, rstCode: stream.rstCode ?? -1 })),
  );
  return { stream, closed };
}

describe('idle HTTP/2 sessions', () => {
  test('a session without open streams for the idle time gets GOAWAY and closes', async () => {
    const server = await serveH2((_req, res) => res.end('ok'), { sessionIdleMs: 50 });
    const s = await session(server.url);
    try {
      const goaway = new Promise<void>((resolve) => s.once('goaway', () => resolve()));
      const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
      expect((await h2(s, { ':path': '/' })).body).toBe('ok');
      await Promise.all([goaway, closed]);
      expect(s.closed).toBe(true);
    } finally {
      s.destroy();
      await server.stop();
    }
  });

  test('a session with a stream open past the idle time stays until the stream ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serveH2(
      (_req, res) => {
        res.write('first');
        void held.then(() => res.end(' last'));
      },
      { sessionIdleMs: 50 },
    );
    const s = await session(server.url);
    try {
      const answer = h2(s, { ':path': '/' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(s.closed).toBe(false);
      release();
      expect((await answer).body).toBe('first last');
      await new Promise<void>((resolve) => s.once('close', () => resolve()));
    } finally {
      s.destroy();
      await server.stop();
    }
  });

  test('a session whose only stream waits for a request body gets GOAWAY after the idle time', async () => {
    const server = await serveH2((req, res) => req.resume().on('end', () => res.end('read')), {
      sessionIdleMs: 50,
    });
    const s = await session(server.url);
    try {
      const goaway = new Promise<void>((resolve) => s.once('goaway', () => resolve()));
      const { stream } = halfOpen(s, { ':method': 'PUT', ':path': '/' });
      await goaway;
      // GOAWAY lets the stream in progress finish (RFC 9113 section 6.8).
      stream.end('body');
      await new Promise<void>((resolve) => stream.once('close', () => resolve()));
    } finally {
      s.destroy();
      await server.stop();
    }
  });
});

describe('HTTP/2 streams the client does not end', () => {
  test('a stream answered before its request ended is reset with NO_ERROR after the whole answer', async () => {
    const big = 'x'.repeat(200_000);
    const server = await serveH2((_req, res) => {
      res.writeHead(401);
      res.end(big);
    });
    const s = await session(server.url);
    try {
      const answer = await halfOpen(s, { ':method': 'PUT', ':path': '/' }).closed;
      expect(answer).toEqual({ status: 401, body: big, rstCode: constants.NGHTTP2_NO_ERROR });
      expect(server.resets).toEqual(['answered']);
    } finally {
      s.destroy();
      await server.stop();
    }
  });

  test('a stream whose request does not arrive whole within the request timeout is reset with CANCEL', async () => {
    const server = await serveH2((req, res) => req.resume().on('end', () => res.end('read')));
    server.server.requestTimeout = 100;
    const s = await session(server.url);
    try {
      const { stream, closed } = halfOpen(s, { ':method': 'PUT', ':path': '/' });
      stream.write('part of a body');
      expect((await closed).rstCode).toBe(constants.NGHTTP2_CANCEL);
      expect(server.resets).toEqual(['request-timeout']);
    } finally {
      s.destroy();
      await server.stop();
    }
  });

  test('a request that ended is not reset however long its answer takes', async () => {
    const server = await serveH2((_req, res) => {
      setTimeout(() => res.end('late'), 300);
    });
    server.server.requestTimeout = 50;
    const s = await session(server.url);
    try {
      const r = await h2(s, { ':method': 'PUT', ':path': '/' }, 'body');
      expect(r.body).toBe('late');
      expect(server.resets).toEqual([]);
    } finally {
      s.destroy();
      await server.stop();
    }
  });

  test('tells onConnection of each HTTP/2 session and HTTP/1.1 connection', async () => {
    const connections: unknown[] = [];
    const server = await serveH2((_req, res) => res.end('ok'), { onConnection: (c) => connections.push(c) });
    const s = await session(server.url);
    try {
      await h2(s, { ':path': '/' });
      await new Promise<void>((resolve, reject) => {
        const req = httpsRequest(`${server.url}/`, { ca: pki.pem(pki.caCert), agent: false }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
      expect(connections).toHaveLength(2);
    } finally {
      s.destroy();
      await server.stop();
    }
  });
});

describe('shutdown with HTTP/2 sessions open', () => {
  test('close sends GOAWAY, ends an open event stream and resolves', async () => {
    const other = await startGateway(
      { port: 0, tlsCert: pki.serverCert, tlsKey: pki.serverKey },
      { logger: captureLog().logger },
    );
    const s = await session(other.url);
    const goaway = new Promise<void>((resolve) => s.once('goaway', () => resolve()));
    const stream = s.request({ ':path': '/restconf/streams/json-NETCONF', accept: 'text/event-stream' });
    await new Promise((resolve) => stream.once('response', resolve));
    const ended = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    stream.resume();
    // An idle HTTP/1.1 connection on the same server must not hold the shutdown either.
    await new Promise<void>((resolve, reject) => {
      const req = httpsRequest(`${other.url}${GAP}`, { ca: pki.pem(pki.caCert) }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    await other.close();
    await Promise.all([goaway, ended]);
    expect(stream.closed).toBe(true);
    s.destroy();
  });
});

describe('--http2=false', () => {
  test('serves HTTP/1.1 only over TLS', async () => {
    const other = await startGateway(
      { port: 0, tlsCert: pki.serverCert, tlsKey: pki.serverKey, http2: false },
      { logger: captureLog().logger },
    );
    try {
      const url = new URL(other.url);
      const protocol = await new Promise<string | false | null>((resolve, reject) => {
        const socket = tlsConnect(
          {
            host: url.hostname,
            port: Number(url.port),
            ca: pki.pem(pki.caCert),
            ALPNProtocols: ['h2', 'http/1.1'],
          },
          () => {
            resolve(socket.alpnProtocol);
            socket.end();
          },
        );
        socket.on('error', reject);
      });
      expect(protocol).not.toBe('h2');
    } finally {
      await other.close();
    }
  });
});
