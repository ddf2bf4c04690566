import { describe, expect, test } from 'vitest';
import { connectStream, NetconfSession } from '../src/client.js';
import { type NetconfError, NetconfRpcError } from '../src/errors.js';
import { createFramer, encodeMessage } from '../src/framing.js';
import { BASE, duplexPair, fakeServer } from './helpers.js';

const NOTIF = 'urn:ietf:params:xml:ns:netconf:notification:1.0';

async function rejection(promise: Promise<unknown>): Promise<NetconfError> {
  try {
    await promise;
  } catch (error) {
    return error as NetconfError;
  }
  throw new Error('expected a rejection');
}

describe('hello exchange', () => {
  test('exposes the session-id and capabilities of the server hello', async () => {
    const { client } = fakeServer({
      capabilities: ['urn:ietf:params:netconf:base:1.0', 'urn:ietf:params:netconf:capability:candidate:1.0'],
      sessionId: 42,
    });
    const session = await connectStream(client);
    expect(session.sessionId).toBe(42);
    expect(session.capabilities.protocol.get('candidate')).toBe('1.0');
  });

  test('switches to chunked framing when both peers offer base:1.1', async () => {
    const { client, server } = fakeServer({ handler: () => '<data/>' });
    const session = await connectStream(client);
    expect(session.framing).toBe('chunked');
    expect(await session.get()).toBe('');
    expect(server.mode()).toBe('chunked');
  });

  test('stays with end-of-message framing when the server offers only base:1.0', async () => {
    const { client } = fakeServer({ capabilities: ['urn:ietf:params:netconf:base:1.0'] });
    const session = await connectStream(client);
    expect(session.framing).toBe('eom');
    expect((await session.lock({ target: 'running' })).ok).toBe(true);
  });

  test('stays with end-of-message framing when the client offers only base:1.0', async () => {
    const { client } = fakeServer();
    const session = await connectStream(client, { baseVersions: ['1.0'] });
    expect(session.framing).toBe('eom');
    expect((await session.commit()).ok).toBe(true);
  });

  test('sends no rpc before the server hello arrived', async () => {
    const [client, serverSide] = duplexPair();
    const writes: string[] = [];
    serverSide.on('data', (chunk: Buffer) => writes.push(chunk.toString()));
    const session = new NetconfSession(client);
    const reply = session.rpc('<get/>');
    await new Promise((r) => setTimeout(r, 20));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('<hello');
    serverSide.write(
      encodeMessage(
        `<hello xmlns="${BASE}"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities><session-id>1</session-id></hello>`,
        'eom',
      ),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('<get/>');
    session.destroy();
    await expect(reply).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
  });

  test('refuses a server hello without session-id', async () => {
    const { client } = fakeServer({ sessionId: null });
    expect((await rejection(connectStream(client))).code).toBe('HELLO');
  });

  test('refuses a server that shares no base version', async () => {
    const { client } = fakeServer({ capabilities: ['urn:ietf:params:netconf:base:1.1'] });
    expect((await rejection(connectStream(client, { baseVersions: ['1.0'] }))).code).toBe('HELLO');
  });

  test('gives up when no hello arrives in time', async () => {
    const [client] = duplexPair();
    expect((await rejection(connectStream(client, { helloTimeout: 20 }))).code).toBe('HELLO');
  });

  test('ends the session when the server hello is not XML', async () => {
    const { client } = fakeServer({ hello: '<hello' });
    expect((await rejection(connectStream(client))).code).toBe('XML_PARSE');
  });
});

describe('rpc', () => {
  test('matches replies to requests by message-id when answered out of order', async () => {
    const held: Array<[string, (xml: string) => void]> = [];
    const { client } = fakeServer({
      handler(_op, id, server) {
        held.push([
          id,
          (xml) => server.send(`<rpc-reply xmlns="${BASE}" message-id="${id}">${xml}</rpc-reply>`),
        ]);
        if (held.length === 3)
          for (const [hid, send] of [...held].reverse()) send(`<data><n>${hid}</n></data>`);
        return undefined;
      },
    });
    const session = await connectStream(client);
    const replies = await Promise.all([session.get(), session.get(), session.get()]);
    expect(replies).toEqual([
      `<n xmlns="${BASE}">1</n>`,
      `<n xmlns="${BASE}">2</n>`,
      `<n xmlns="${BASE}">3</n>`,
    ]);
  });

  test('rejects with NetconfRpcError holding every rpc-error', async () => {
    const { client } = fakeServer({
      handler: () =>
        '<rpc-error><error-type>application</error-type><error-tag>data-exists</error-tag><error-severity>error</error-severity></rpc-error>' +
        '<rpc-error><error-type>protocol</error-type><error-tag>lock-denied</error-tag><error-severity>error</error-severity><error-info><session-id>3</session-id></error-info></rpc-error>',
    });
    const session = await connectStream(client);
    const error = await rejection(session.editConfig({ target: 'running', config: '<a/>' }));
    expect(error).toBeInstanceOf(NetconfRpcError);
    expect((error as NetconfRpcError).errors.map((e) => e.errorTag)).toEqual(['data-exists', 'lock-denied']);
    expect((error as NetconfRpcError).errors[1]?.errorInfo?.fields['session-id']).toBe('3');
  });

  test('resolves a reply whose only errors are warnings and reports them', async () => {
    const { client } = fakeServer({
      handler: () =>
        '<rpc-error><error-type>application</error-type><error-tag>operation-failed</error-tag><error-severity>warning</error-severity></rpc-error><ok/>',
    });
    const session = await connectStream(client);
    const reply = await session.commit();
    expect(reply.ok).toBe(true);
    expect(reply.warnings.map((w) => w.errorSeverity)).toEqual(['warning']);
  });

  test('fails a slow RPC with RPC_TIMEOUT and keeps the session usable', async () => {
    let calls = 0;
    const { client } = fakeServer({ handler: () => (++calls === 1 ? undefined : '<ok/>') });
    const session = await connectStream(client);
    expect((await rejection(session.rpc('<get/>', { timeout: 20 }))).code).toBe('RPC_TIMEOUT');
    expect((await session.rpc('<get/>')).ok).toBe(true);
  });

  test('fails an aborted RPC with RPC_ABORTED', async () => {
    const { client } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const controller = new AbortController();
    const pending = session.rpc('<get/>', { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).code).toBe('RPC_ABORTED');
    expect(session.inFlight).toBe(0);
  });

  test('refuses an RPC whose signal is already aborted', async () => {
    const { client } = fakeServer();
    const session = await connectStream(client);
    expect((await rejection(session.rpc('<get/>', { signal: AbortSignal.abort() }))).code).toBe(
      'RPC_ABORTED',
    );
  });

  test('returns the data content of get-config with the reply namespaces pushed down', async () => {
    const { client } = fakeServer({
      handler: () => '<data xmlns:if="urn:if"><if:interfaces><if:interface/></if:interfaces></data>',
    });
    const session = await connectStream(client);
    expect(await session.getConfig({ source: 'running' })).toBe(
      `<if:interfaces xmlns="${BASE}" xmlns:if="urn:if"><if:interface/></if:interfaces>`,
    );
  });

  test('fails with MALFORMED_REPLY when a retrieval reply has no data', async () => {
    const { client } = fakeServer();
    const session = await connectStream(client);
    expect((await rejection(session.get())).code).toBe('MALFORMED_REPLY');
  });

  test('returns the schema text of get-schema', async () => {
    const { client } = fakeServer({
      handler: () =>
        '<data xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring">module m { prefix m; }</data>',
    });
    const session = await connectStream(client);
    expect(await session.getSchema({ identifier: 'm' })).toBe('module m { prefix m; }');
  });

  test('returns the id of an established subscription', async () => {
    const { client } = fakeServer({
      handler: () => '<id xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications">17</id>',
    });
    const session = await connectStream(client);
    expect((await session.establishSubscription({ stream: 'NETCONF' })).id).toBe(17);
  });
});

describe('session end', () => {
  test('close sends close-session and ends with reason closed', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    expect(await session.close()).toEqual({ reason: 'closed' });
    expect(server.received.at(-1)).toContain('<close-session/>');
    expect((await rejection(session.get())).code).toBe('SESSION_CLOSED');
  });

  test('fails in-flight RPCs with SESSION_CLOSED when the transport goes away', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const pending = [session.get(), session.commit()];
    await new Promise((r) => setTimeout(r, 10));
    server.stream.destroy();
    for (const p of pending) expect((await rejection(p)).code).toBe('SESSION_CLOSED');
    expect(session.endReason?.reason).toBe('transport-closed');
  });

  test('closes the session with a FRAMING error on a malformed chunk header', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    const pending = session.get();
    await new Promise((r) => setTimeout(r, 10));
    server.stream.write('\n#abc\n');
    expect((await rejection(pending)).code).toBe('SESSION_CLOSED');
    const end = await session.closed;
    expect(end.reason).toBe('protocol-error');
    expect(end.error?.code).toBe('FRAMING');
  });

  test('closes the session when a reply is not well-formed', async () => {
    const { client, server } = fakeServer({ handler: () => undefined });
    const session = await connectStream(client);
    server.send('<rpc-reply');
    expect((await session.closed).error?.code).toBe('XML_PARSE');
  });

  test('ignores a reply to an unknown message-id', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    server.send(`<rpc-reply xmlns="${BASE}" message-id="999"><ok/></rpc-reply>`);
    expect((await session.commit()).ok).toBe(true);
  });
});

describe('notifications', () => {
  const notification = (n: number) =>
    `<notification xmlns="${NOTIF}"><eventTime>2024-01-01T00:00:0${n}Z</eventTime><ev xmlns="urn:ev"><n>${n}</n></ev></notification>`;

  test('delivers notifications through the async iterator in order', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    const iterator = session.notifications();
    await session.createSubscription();
    server.send(notification(1));
    server.send(notification(2));
    const first = await iterator.next();
    const second = await iterator.next();
    expect(first.value).toMatchObject({
      eventTime: '2024-01-01T00:00:01Z',
      xml: '<ev xmlns="urn:ev"><n>1</n></ev>',
    });
    expect(second.value?.eventTime).toBe('2024-01-01T00:00:02Z');
  });

  test('emits each notification as an event', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    const seen = new Promise((resolve) => session.once('notification', resolve));
    server.send(notification(3));
    expect(await seen).toMatchObject({ eventTime: '2024-01-01T00:00:03Z' });
  });

  test('ends the iterator when the session ends', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    const received: string[] = [];
    const done = (async () => {
      for await (const n of session.notifications()) received.push(n.eventTime);
    })();
    server.send(notification(4));
    await new Promise((r) => setTimeout(r, 10));
    server.stream.destroy();
    await done;
    expect(received).toEqual(['2024-01-01T00:00:04Z']);
  });

  test('fails an iterator that falls behind its queue limit', async () => {
    const { client, server } = fakeServer();
    const session = await connectStream(client, { maxQueuedNotifications: 2 });
    const iterator = session.notifications();
    for (let i = 1; i <= 3; i++) server.send(notification(i));
    await new Promise((r) => setTimeout(r, 10));
    await iterator.next();
    await iterator.next();
    expect((await rejection(iterator.next())).code).toBe('SESSION_CLOSED');
  });
});

describe('pausing the reading', () => {
  const notification = (n: number) =>
    `<notification xmlns="${NOTIF}"><eventTime>2024-01-01T00:00:0${n}Z</eventTime><ev xmlns="urn:ev"><n>${'x'.repeat(40_000)}</n></ev></notification>`;

  /** A paused session that records the eventTime of each notification it reads, and its server. */
  async function pausedSession() {
    const { client, server } = fakeServer();
    const session = await connectStream(client);
    const seen: string[] = [];
    session.on('notification', (n) => seen.push(n.eventTime));
    session.pauseReading();
    return { session, server, seen };
  }

  test('a paused session reads nothing and the server writes back up', async () => {
    const { server, seen } = await pausedSession();
    server.send(notification(1));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([]);
    expect(server.stream.writableNeedDrain).toBe(true);
  });

  test('resumeReading delivers what waited, in order', async () => {
    const { session, server, seen } = await pausedSession();
    server.send(notification(1));
    server.send(notification(2));
    session.resumeReading();
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['2024-01-01T00:00:01Z', '2024-01-01T00:00:02Z']);
  });

  test('an rpc on a paused session reads again, so its reply arrives', async () => {
    const { session } = await pausedSession();
    expect((await session.commit()).ok).toBe(true);
  });
});

test('the shared framer reads what encodeMessage wrote', () => {
  const messages: string[] = [];
  const framer = createFramer({ mode: 'chunked', onMessage: (m) => messages.push(m), onError: () => {} });
  framer.feed(encodeMessage('<x/>', 'chunked'));
  expect(messages).toEqual(['<x/>']);
});

describe('first rpc probe', () => {
  /** A server that, like netconfd, answers the first rpc only once another message has arrived. */
  function stallingServer() {
    let held: string | undefined;
    return fakeServer({
      handler(op, id, server) {
        if (id === '1') {
          held = id;
          return undefined;
        }
        if (held) {
          server.send(`<rpc-reply xmlns="${BASE}" message-id="${held}"><ok/></rpc-reply>`);
          held = undefined;
        }
        return op.local === 'get' ? '<data/>' : '<ok/>';
      },
    });
  }

  test('sends one probe get when the first rpc stays unanswered, then gets its reply', async () => {
    const { client, server } = stallingServer();
    const session = await connectStream(client, { firstRpcProbe: 20 });
    expect((await session.commit()).ok).toBe(true);
    expect(server.received).toHaveLength(2);
    expect(server.received[1]).toContain('message-id="probe"');
    expect(server.received[1]).toContain('<session-id>0</session-id>');
  });

  test('sends no probe when disabled', async () => {
    const { client, server } = stallingServer();
    const session = await connectStream(client, { firstRpcProbe: false });
    await expect(session.commit({}, { timeout: 100 })).rejects.toMatchObject({ code: 'RPC_TIMEOUT' });
    expect(server.received).toHaveLength(1);
  });
});

test('a notification iterator taken after the session ended is already done', async () => {
  const { client } = fakeServer();
  const session = await connectStream(client);
  session.destroy();
  expect(await session.notifications().next()).toEqual({ value: undefined, done: true });
});

describe('operation methods', () => {
  const cases: Array<[string, (s: NetconfSession) => Promise<unknown>, string]> = [
    ['deleteConfig', (s) => s.deleteConfig({ target: 'startup' }), '<delete-config>'],
    ['copyConfig', (s) => s.copyConfig({ target: 'startup', source: 'running' }), '<copy-config>'],
    ['unlock', (s) => s.unlock({ target: 'running' }), '<unlock>'],
    ['cancelCommit', (s) => s.cancelCommit(), '<cancel-commit/>'],
    ['killSession', (s) => s.killSession(3), '<kill-session>'],
    ['getData', (s) => s.getData({ datastore: 'operational' }), '<get-data'],
    ['editData', (s) => s.editData({ datastore: 'running', config: '<a xmlns="urn:a"/>' }), '<edit-data'],
    ['modifySubscription', (s) => s.modifySubscription({ id: 1 }), '<modify-subscription'],
    ['deleteSubscription', (s) => s.deleteSubscription(1), '<delete-subscription'],
    ['killSubscription', (s) => s.killSubscription(1), '<kill-subscription'],
  ];

  test.each(cases)('%s sends its operation and resolves with the reply', async (_name, call, element) => {
    const { client, server } = fakeServer({
      handler: (op) => (op.local === 'get-data' ? '<data/>' : '<ok/>'),
    });
    const session = await connectStream(client);
    await call(session);
    expect(server.received.at(-1)).toContain(element);
  });
});
