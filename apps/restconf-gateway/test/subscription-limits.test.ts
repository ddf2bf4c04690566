import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectStream, NetconfRpcError } from '@yangkit/netconf-client';
import { DEFAULT_MAX_XPATH_WORK, duplexPair } from '@yangkit/netconf-server';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { type Gateway, type StartContext, startGateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/options.js';
import { addUser } from '../src/security/users-file.js';
import { captureLog } from './capture-log.js';

// The subscription flags: places per user and in all, the time to GET the uri, the queue bound,
// and who sees every subscription in the state.
const JSON_DATA = 'application/yang-data+json';
const SN = 'ietf-subscribed-notifications';
const PASSWORDS: Record<string, string> = { root: 'root-pw', alice: 'alice-pw', bob: 'bob-pw' };

let gw: Gateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

async function start(options: GatewayOptions, context: StartContext = {}): Promise<Gateway> {
  gw = await startGateway({ port: 0, ...options }, { logger: pino({ level: 'silent' }), ...context });
  return gw;
}

function headers(user?: string): Record<string, string> {
  const auth =
    user === undefined
      ? {}
      : { Authorization: `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString('base64')}` };
  return { 'Content-Type': JSON_DATA, Accept: JSON_DATA, ...auth };
}

function establish(g: Gateway, input: unknown, user?: string): Promise<Response> {
  return fetch(`${g.url}/restconf/operations/${SN}:establish-subscription`, {
    method: 'POST',
    headers: headers(user),
    body: JSON.stringify({ [`${SN}:input`]: input }),
  });
}

async function idOf(r: Response): Promise<number> {
  expect(r.status).toBe(200);
  return ((await r.json()) as Record<string, { id: number }>)[`${SN}:output`]!.id;
}

describe('subscription flags', () => {
  test('--max-subscriptions-per-user refuses the next establish-subscription with 409 insufficient-resources', async () => {
    const g = await start({ maxSubscriptionsPerUser: 1 });
    await idOf(await establish(g, { stream: 'NETCONF' }));
    const r = await establish(g, { stream: 'NETCONF' });
    expect(r.status).toBe(409);
    expect(await r.text()).toContain('ietf-subscribed-notifications:insufficient-resources');
  });

  test('--max-subscriptions bounds the subscriptions of all users together', async () => {
    const g = await start({ maxSubscriptions: 1 });
    await idOf(await establish(g, { stream: 'NETCONF' }));
    expect((await establish(g, { stream: 'NETCONF' })).status).toBe(409);
  });

  test('the embedded server bounds its NETCONF clients by the same flags', async () => {
    const g = await start({ maxSubscriptionsPerUser: 1 });
    const [a, b] = duplexPair();
    g.backend.netconf!.connect(a, { username: 'netconf-client' });
    const session = await connectStream(b);
    const rpc = `<establish-subscription xmlns="urn:ietf:params:xml:ns:yang:${SN}"><stream>NETCONF</stream></establish-subscription>`;
    await session.rpc(rpc);
    const refused = await session.rpc(rpc).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NetconfRpcError);
    expect((refused as NetconfRpcError).errors[0]?.errorTag).toBe('resource-denied');
    await session.close();
  });

  test('--event-queue-bytes ends a subscription whose notifications outgrow it before the GET', async () => {
    const g = await start({ eventQueueBytes: 1024 });
    const id = await idOf(await establish(g, { stream: 'NETCONF' }));
    g.backend.netconf!.publish(
      `<event xmlns="http://example.com/event/1.0"><event-class>${'x'.repeat(2000)}</event-class></event>`,
    );
    const r = await fetch(`${g.url}/restconf/subscriptions/${id}`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(r.status).toBe(404);
  });

  test('--max-xpath-work bounds the XPath filters of the embedded server, by default its own bound', async () => {
    expect((await start({ maxXpathWork: 5000 })).backend.netconf!.maxXPathWork).toBe(5000);
    await gw!.close();
    expect((await start({})).backend.netconf!.maxXPathWork).toBe(DEFAULT_MAX_XPATH_WORK);
  });

  test('--max-update-bytes bounds the updates of the embedded server, by default --event-queue-bytes', async () => {
    expect((await start({ maxUpdateBytes: 4096 })).backend.netconf!.subscriptionLimits.updateBytes).toBe(
      4096,
    );
    await gw!.close();
    expect((await start({ eventQueueBytes: 2048 })).backend.netconf!.subscriptionLimits.updateBytes).toBe(
      2048,
    );
  });

  test('the start log names the subscription limits', async () => {
    const log = captureLog();
    await start({ maxSubscriptions: 5, subscriptionReceiveTimeout: 30 }, { logger: log.logger });
    const line = log.lines.map((l) => String(l.msg)).find((m) => m.startsWith('subscriptions:'));
    expect(line).toBe(
      'subscriptions: 8 per user, 5 in all, 30 s to GET the uri; 1048576 bytes queued per event stream client or unreceived subscription; 1048576 bytes of content per YANG Push update',
    );
  });

  test('the --nacm-admin user sees every subscription in the state, another user only its own', async () => {
    const usersFile = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-subs-')), 'users.txt');
    for (const [user, password] of Object.entries(PASSWORDS)) await addUser(usersFile, user, password);
    const g = await start({ usersFile, nacmAdmin: 'root' });
    const a = await idOf(await establish(g, { stream: 'NETCONF' }, 'alice'));
    const b = await idOf(await establish(g, { stream: 'NETCONF' }, 'bob'));
    const ids = async (user: string): Promise<number[]> => {
      const r = await fetch(`${g.url}/restconf/data/${SN}:subscriptions`, { headers: headers(user) });
      const body = (await r.json()) as Record<string, { subscription?: { id: number }[] }>;
      return (body[`${SN}:subscriptions`]?.subscription ?? []).map((e) => e.id).sort();
    };
    expect(await ids('alice')).toEqual([a]);
    expect(await ids('bob')).toEqual([b]);
    expect(await ids('root')).toEqual([a, b].sort());
  });
});
