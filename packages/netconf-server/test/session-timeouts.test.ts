import { connect } from 'node:net';
import { connectSsh, duplexPair } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { NetconfServerError } from '../src/errors.js';
import type { NetconfServer } from '../src/server.js';
import { startSshServer } from '../src/ssh.js';
import { client, iface, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const HELLO =
  '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities></hello>]]>]]>';

/** A raw transport: what the server sends and whether it ended the stream. */
function raw(s: NetconfServer) {
  const [a, b] = duplexPair();
  const session = s.connect(a, { username: 'raw' });
  b.resume();
  return {
    session,
    write: (t: string) => b.write(t),
    ended: new Promise<void>((r) => b.on('end', () => r())),
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a connection that sends no hello is closed after the hello timeout', async () => {
  server = await testServer({ helloTimeout: 0.05 });
  const r = raw(server);
  await r.ended;
  expect(r.session.open).toBe(false);
  expect(server.sessions.size).toBe(0);
});

test('a hello timeout is not counted as a bad hello', async () => {
  server = await testServer({ helloTimeout: 0.05 });
  await raw(server).ended;
  expect(server.statistics.inBadHellos).toBe(0);
});

test('a session that sent its hello outlives the hello timeout', async () => {
  server = await testServer({ helloTimeout: 0.05 });
  const r = raw(server);
  r.write(HELLO);
  await pause(200);
  expect(r.session.open).toBe(true);
});

test('an idle session is closed after the idle timeout', async () => {
  server = await testServer({ idleTimeout: 0.05 });
  const c = await client(server);
  const end = await c.closed;
  expect(end.reason).toBe('transport-closed');
  expect(server.sessions.size).toBe(0);
});

test('without an idle timeout an idle session stays open', async () => {
  server = await testServer();
  const c = await client(server);
  await pause(200);
  expect(c.endReason).toBeUndefined();
});

test('a session holding a dynamic subscription is not closed for idleness', async () => {
  server = await testServer({ idleTimeout: 0.05 });
  const c = await client(server);
  await c.rpc(`<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`);
  await pause(250);
  expect(c.endReason).toBeUndefined();
});

test('a session holding a create-subscription is not closed for idleness', async () => {
  server = await testServer({ idleTimeout: 0.05 });
  const c = await client(server);
  await c.rpc('<create-subscription xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"/>');
  await pause(250);
  expect(c.endReason).toBeUndefined();
});

test('a session with a pending confirmed commit is not closed for idleness', async () => {
  server = await testServer({ idleTimeout: 0.05 });
  const c = await client(server);
  await c.editConfig({ target: 'candidate', config: iface('eth0') });
  await c.rpc('<commit xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><confirmed/></commit>');
  await pause(250);
  expect(c.endReason).toBeUndefined();
});

test('a session whose subscription ended is closed once idle again', async () => {
  server = await testServer({ idleTimeout: 0.05 });
  const c = await client(server);
  const reply = await c.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`,
  );
  const id = /<id[^>]*>(\d+)<\/id>/.exec(reply.xml)![1];
  await c.rpc(`<delete-subscription xmlns="${SN}"><id>${id}</id></delete-subscription>`);
  expect((await c.closed).reason).toBe('transport-closed');
});

test('a negative timeout is an invalid option', async () => {
  const error = await testServer({ idleTimeout: -1 }).catch((e: unknown) => e);
  expect(NetconfServerError.isInstance(error) && error.code).toBe('INVALID_OPTION');
});

test('an SSH connection that opens no netconf subsystem is closed after the hello timeout', async () => {
  server = await testServer({ helloTimeout: 0.1 });
  const ssh = await startSshServer(server, { port: 0, users: [{ username: 'u', password: 'p' }] });
  try {
    const socket = connect(ssh.address.port, '127.0.0.1');
    socket.resume();
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    expect(socket.destroyed).toBe(true);
  } finally {
    await ssh.close();
  }
});

test('an SSH connection with a NETCONF session outlives the hello timeout', async () => {
  server = await testServer({ helloTimeout: 1.5 });
  const ssh = await startSshServer(server, { port: 0, users: [{ username: 'u', password: 'p' }] });
  try {
    const c = await connectSsh({
      host: '127.0.0.1',
      port: ssh.address.port,
      username: 'u',
      password: 'p',
      hostKey: 'accept-any',
    });
    await pause(2000);
    expect(c.endReason).toBeUndefined();
    await c.close();
  } finally {
    await ssh.close();
  }
});
