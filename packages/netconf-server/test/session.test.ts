import { duplexPair } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

const HELLO_11 =
  '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.1</capability></capabilities></hello>]]>]]>';

function raw(s: NetconfServer) {
  const [a, b] = duplexPair();
  const session = s.connect(a, { username: 'raw' });
  let received = '';
  b.on('data', (d: Buffer) => (received += d.toString()));
  const until = async (pattern: RegExp) => {
    for (let i = 0; i < 200 && !pattern.test(received); i++) await new Promise((r) => setTimeout(r, 5));
    return received;
  };
  return {
    session,
    write: (t: string) => b.write(t),
    until,
    ended: new Promise<void>((r) => b.on('end', () => r())),
  };
}

test('the server hello carries capabilities and a session-id', async () => {
  server = await testServer();
  const r = raw(server);
  const text = await r.until(/]]>]]>/);
  expect(text).toContain('<capability>urn:ietf:params:netconf:base:1.1</capability>');
  expect(text).toMatch(/<session-id>\d+<\/session-id>/);
});

test('after a base:1.1 hello the reply uses chunked framing and echoes rpc attributes', async () => {
  server = await testServer();
  const r = raw(server);
  const rpc =
    '<rpc message-id="7" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" xmlns:ex="urn:ex" ex:user="fred"><get-config><source><running/></source></get-config></rpc>';
  r.write(`${HELLO_11}\n#${Buffer.byteLength(rpc)}\n${rpc}\n##\n`);
  const text = await r.until(/\n##\n/);
  expect(text).toMatch(/\n#\d+\n<rpc-reply[^>]*message-id="7"/);
  expect(text).toContain('ex:user="fred"');
});

test('an rpc without message-id fails with missing-attribute', async () => {
  server = await testServer();
  const r = raw(server);
  r.write(
    `${HELLO_11.replace('base:1.1', 'base:1.0')}<rpc xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><get/></rpc>]]>]]>`,
  );
  const text = await r.until(/missing-attribute/);
  expect(text).toContain('<bad-attribute>message-id</bad-attribute>');
});

test('a client hello with a session-id ends the session', async () => {
  server = await testServer();
  const r = raw(server);
  r.write(
    '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities><session-id>4</session-id></hello>]]>]]>',
  );
  await r.ended;
  expect(server.sessions.size).toBe(0);
  expect(server.statistics.inBadHellos).toBe(1);
});

test('malformed chunked framing ends the session', async () => {
  server = await testServer();
  const r = raw(server);
  r.write(`${HELLO_11}\n#x\n`);
  await r.ended;
  expect(r.session.open).toBe(false);
});

test('the next rpc waits until a full transport has drained', async () => {
  server = await testServer();
  const [a, b] = duplexPair();
  let drains = 0;
  const original = a.write.bind(a);
  // A transport whose buffer is always full: every write asks the session to wait for 'drain'.
  (a as unknown as { write: (chunk: Buffer) => boolean }).write = (chunk: Buffer) => {
    original(chunk);
    setTimeout(() => {
      drains++;
      a.emit('drain');
    }, 5);
    return false;
  };
  Object.defineProperty(a, 'writableNeedDrain', { get: () => true });
  server.connect(a, { username: 'slow' });
  let received = '';
  b.on('data', (d: Buffer) => (received += d.toString()));
  b.write(
    '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities></hello>]]>]]>',
  );
  for (const id of [1, 2, 3])
    b.write(
      `<rpc message-id="${id}" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><get-config><source><running/></source></get-config></rpc>]]>]]>`,
    );
  for (let i = 0; i < 200 && !received.includes('message-id="3"'); i++)
    await new Promise((r) => setTimeout(r, 5));
  expect(received).toContain('message-id="3"');
  expect(drains).toBeGreaterThanOrEqual(2);
});
