import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, NetconfServer } from '@yangkit/netconf-server';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, test } from 'vitest';
import type { Backend } from '../src/backend.js';
import { RestconfError } from '../src/errors.js';
import { createRestconfHandler, type RestconfHandler } from '../src/handler.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import type { RestconfHandlerOptions } from '../src/options.js';
import { exampleSchema } from './harness.js';
import { eventXml, openStream, until } from './streams-helpers.js';

/** A handler over a NETCONF server that can be replaced (a backend restart). */
interface Rig {
  url: string;
  netconf: NetconfServer;
  backend: Backend;
  handler: RestconfHandler;
  http: Server;
  restartBackend(): Promise<void>;
  close(): Promise<void>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

async function rig(options: Partial<RestconfHandlerOptions> = {}): Promise<Rig> {
  const schema = await exampleSchema();
  const r = { netconf: await NetconfServer.create({ schema }) } as Rig;
  r.backend = createNetconfBackend({
    schema,
    openSession: async () => {
      const [a, b] = duplexPair();
      r.netconf.connect(a, { username: 'restconf' });
      return connectStream(b);
    },
  });
  r.handler = createRestconfHandler({ schema, backend: r.backend, ...options });
  r.http = createServer(r.handler);
  await new Promise<void>((resolve) => r.http.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.http.address() as AddressInfo).port}`;
  await r.handler.ready;
  r.restartBackend = async () => {
    await r.netconf.close();
    r.netconf = await NetconfServer.create({ schema });
  };
  r.close = async () => {
    r.http.closeAllConnections();
    await new Promise<void>((resolve) => r.http.close(() => resolve()));
    await r.handler.close();
    await r.netconf.close();
  };
  rigs.push(r);
  return r;
}

describe('SSE keepalive', () => {
  test('an idle stream gets the :SSE keepalive comment after the interval', { timeout: 20_000 }, async () => {
    const r = await rig({ sseKeepalive: 5 });
    const s = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    const started = Date.now();
    await until(() => s.comments.includes('SSE keepalive'), 'a keepalive', 12_000);
    s.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  });

  test('a keepalive outside 0 or 5..3600 seconds is refused', async () => {
    const schema = await exampleSchema();
    const backend = createNetconfBackend({ schema, openSession: () => Promise.reject(new Error('unused')) });
    for (const bad of [1, 4, 3601, 2.5]) {
      expect(() => createRestconfHandler({ schema, backend, sseKeepalive: bad })).toThrow(RestconfError);
    }
  });
});

describe('shared live feeds', () => {
  const basic = (user: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`,
  });

  test('clients without authentication share one NETCONF session per stream', async () => {
    const r = await rig();
    const a = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    const b = await openStream(`${r.url}/restconf/streams/xml-NETCONF`);
    expect(r.backend.stats().active).toBe(1);
    a.close();
    b.close();
  });

  test('clients of one user share a session; another user gets a session of their own', async () => {
    const r = await rig({ trustBasicUser: true });
    const a1 = await openStream(`${r.url}/restconf/streams/json-NETCONF`, basic('alice'));
    const a2 = await openStream(`${r.url}/restconf/streams/json-NETCONF`, basic('alice'));
    expect(r.backend.stats().active).toBe(1);
    const b = await openStream(`${r.url}/restconf/streams/json-NETCONF`, basic('bob'));
    expect(r.backend.stats().active).toBe(2);
    r.netconf.publish(eventXml('to-every-user'));
    const got = await Promise.all([a1, a2, b].map((s) => s.takeWith(/to-every-user/, 1)));
    for (const s of [a1, a2, b]) s.close();
    expect(got.map((events) => events.length)).toEqual([1, 1, 1]);
  });
});

describe('closed clients', () => {
  test('a client that disconnects has its NETCONF session ended at once', async () => {
    const r = await rig();
    const s = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    await until(() => r.backend.stats().active === 1, 'the stream session');
    const during = r.netconf.sessions.size;
    s.close();
    await until(() => r.netconf.sessions.size === during - 1, 'the stream session to end');
    expect(r.backend.stats()).toMatchObject({ active: 0, sessions: during - 1 });
  });

  test('other clients keep receiving after one disconnects', async () => {
    const r = await rig();
    const a = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    const b = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    a.close();
    r.netconf.publish(eventXml('after-a-left'));
    const [event] = await b.takeWith(/after-a-left/, 1);
    b.close();
    expect(event!.data).toContain('after-a-left');
  });

  test('closing the handler ends every open stream', async () => {
    const r = await rig();
    const s = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    await r.handler.close();
    expect(await s.take(1)).toEqual([]);
  });
});

describe('bounded queues', () => {
  test('a client that stops reading is cut off while another receives everything', {
    timeout: 30_000,
  }, async () => {
    const warnings: string[] = [];
    const logger = { info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const r = await rig({ streams: { maxQueuedEvents: 100 }, metrics: true, logger });
    const slow = await new Promise<IncomingMessage>((resolve) => {
      const req = get(
        `${r.url}/restconf/streams/json-NETCONF`,
        { headers: { accept: 'text/event-stream' } },
        (res) => {
          res.pause(); // reads nothing for now: the server's socket and queue fill up
          resolve(res);
        },
      );
      req.on('error', () => {});
    });
    const fast = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    const filler = 'x'.repeat(8000);
    const total = 2000;
    let received = 0;
    for (let sent = 0; sent < total; sent += 50) {
      for (let i = 0; i < 50; i++) r.netconf.publish(eventXml(`${filler}-${sent + i}`));
      received += (await fast.takeWith(/xxxx/, 50)).length;
    }
    fast.close();
    // The slow client now reads what the server still held for it: a stream that has ended.
    let text = '';
    slow.setEncoding('utf8');
    slow.on('data', (chunk: string) => {
      text += chunk;
    });
    slow.resume();
    await new Promise<void>((resolve) => slow.on('end', () => resolve()));
    const slowEvents = text.split('\n\n').filter((e) => e.includes('xxxx')).length;
    expect(received).toBe(total);
    expect(slowEvents).toBeLessThan(total);
    // It is told why the stream ended, and the server counts and logs it.
    expect(text).toMatch(/\n:SSE overflow: [^\n]*\n$/);
    const metrics = await (await fetch(`${r.url}/metrics`)).text();
    expect(metrics).toMatch(/^restconf_event_stream_overflows_total 1$/m);
    expect(warnings.some((w) => w.includes('read too slowly'))).toBe(true);
  });

  test('live clients of one stream share one NETCONF session', async () => {
    const r = await rig();
    const a = await openStream(`${r.url}/restconf/streams/json-NETCONF`);
    await until(() => r.backend.stats().active === 1, 'the feed session');
    const b = await openStream(`${r.url}/restconf/streams/xml-NETCONF`);
    r.netconf.publish(eventXml('shared'));
    const [ea] = await a.takeWith(/shared/, 1);
    const [eb] = await b.takeWith(/shared/, 1);
    expect(r.backend.stats().active).toBe(1);
    a.close();
    b.close();
    expect(ea!.data).toContain('"event-class":"shared"');
    expect(eb!.data).toContain('<event-class>shared</event-class>');
  });
});

describe('the eventsource client', () => {
  test('receives notifications as message events', async () => {
    const r = await rig();
    const es = new EventSource(`${r.url}/restconf/streams/json-NETCONF`);
    const got = new Promise<string>((resolve) => {
      es.onmessage = (e) => {
        if (e.data.includes('from-es')) resolve(e.data);
      };
    });
    await new Promise<void>((resolve) => {
      es.onopen = () => resolve();
    });
    r.netconf.publish(eventXml('from-es'));
    const data = await got;
    es.close();
    expect(JSON.parse(data)['ietf-restconf:notification']['example-mod:event']['event-class']).toBe(
      'from-es',
    );
  });

  test('reconnects after the backend restarts and receives later notifications', async () => {
    const r = await rig({ streams: { retryMs: 100 } });
    const es = new EventSource(`${r.url}/restconf/streams/json-NETCONF`);
    let opens = 0;
    es.onopen = () => {
      opens++;
    };
    const received: string[] = [];
    es.onmessage = (e) => received.push(e.data);
    await until(() => opens === 1, 'the first connection');
    await r.restartBackend();
    await until(() => opens === 2, 'the reconnection');
    r.netconf.publish(eventXml('after-restart'));
    await until(() => received.some((d) => d.includes('after-restart')), 'the event after the restart');
    es.close();
    expect(opens).toBe(2);
  });
});
