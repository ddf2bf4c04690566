/**
 * Event streams over a real NETCONF server: yuma123 netconfd behind OpenSSH, started by
 * test-suites/interop/netconfd/netconfd.sh (NETCONF_HOST, NETCONF_PORT, NETCONF_USER, NETCONF_PASSWORD or
 * NETCONF_PRIVATE_KEY). Skipped without NETCONF_HOST, except under CI=true.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectSsh, type NetconfSession } from '@yangkit/netconf-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRestconfHandler, type RestconfHandler } from '../src/handler.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { exampleSchema } from './harness.js';
import { openStream } from './streams-helpers.js';

const env = process.env;
const enabled = Boolean(env.NETCONF_HOST);

test.runIf(!enabled && env.CI === 'true')('CI provides a NETCONF server through NETCONF_HOST', () => {
  expect.fail(
    'NETCONF_HOST is not set; .ci/run starts netconfd with test-suites/interop/netconfd/netconfd.sh',
  );
});

function connect(): Promise<NetconfSession> {
  return connectSsh({
    host: env.NETCONF_HOST!,
    port: Number(env.NETCONF_PORT ?? 830),
    username: env.NETCONF_USER ?? 'netconf',
    ...(env.NETCONF_PRIVATE_KEY
      ? { privateKey: readFileSync(env.NETCONF_PRIVATE_KEY) }
      : { password: env.NETCONF_PASSWORD ?? 'netconf' }),
    hostKey: 'accept-any',
    rpcTimeout: 30_000,
  });
}

describe.runIf(enabled)('event streams over netconfd', { timeout: 60_000 }, () => {
  let handler: RestconfHandler;
  let http: Server;
  let url: string;

  beforeAll(async () => {
    const schema = await exampleSchema();
    const backend = createNetconfBackend({ schema, openSession: () => connect(), watchChanges: false });
    handler = createRestconfHandler({ schema, backend });
    http = createServer(handler);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    await handler.ready;
  });
  afterAll(async () => {
    http?.closeAllConnections();
    await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
    await handler?.close();
  });

  test('restconf-state lists netconfd NETCONF stream with replay support', async () => {
    const res = await fetch(`${url}/restconf/data/ietf-restconf-monitoring:restconf-state/streams`, {
      headers: { accept: 'application/yang-data+xml' },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('<name>NETCONF</name>');
    expect(text).toContain('<replay-support>true</replay-support>');
  });

  test('a live XML stream delivers netconf-session-start of a new NETCONF session', async () => {
    const s = await openStream(`${url}/restconf/streams/xml-NETCONF`);
    const other = await connect();
    const [event] = await s.takeWith(/netconf-session-start/, 1);
    s.close();
    await other.close();
    expect(event!.data).toMatch(/^<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0">/);
    expect(event!.data).toContain('<eventTime>');
  });

  test('start-time replays netconfd event log up to replayComplete', async () => {
    const start = encodeURIComponent('2000-01-01T00:00:00Z');
    const s = await openStream(`${url}/restconf/streams/xml-NETCONF?start-time=${start}`);
    const events = await s.takeWith(/replayComplete/, 1);
    s.close();
    expect(events).toHaveLength(1);
  });

  test('a filter is evaluated by the gateway and selects netconfd events', async () => {
    const filter = encodeURIComponent('/ietf-netconf-notifications:netconf-session-end');
    const s = await openStream(`${url}/restconf/streams/xml-NETCONF?filter=${filter}`);
    const other = await connect();
    await other.close();
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('netconf-session-end');
  });
});
