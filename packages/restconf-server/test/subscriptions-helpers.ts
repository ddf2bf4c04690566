import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, exampleHandlers, loadServerSchema, NetconfServer } from '@yangkit/netconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { expect } from 'vitest';
import { createRestconfHandler, type RestconfHandler } from '../src/handler.js';
import { RESTCONF_MODULES } from '../src/modules.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import type { RestconfHandlerOptions } from '../src/options.js';
import { SUBSCRIPTION_FEATURES } from '../src/subscriptions/index.js';
import { YANG_DIR } from './harness.js';

/** The path of the RFC 8639 operations. */
export const OP = '/restconf/operations/ietf-subscribed-notifications';
export const JSON_TYPE = 'application/yang-data+json';

/** The handler over an embedded NETCONF server, on a real HTTP server. */
export interface Gateway {
  readonly url: string;
  readonly netconf: NetconfServer;
  readonly handler: RestconfHandler;
  readonly http: Server;
  close(): Promise<void>;
}

let schema: Promise<SchemaTree> | undefined;

/** The example modules with RFC 8639, RFC 8641 and the RFC 8650 uri augment, encode-json added. */
function subscriptionSchema(): Promise<SchemaTree> {
  schema ??= loadServerSchema({
    paths: [YANG_DIR],
    modules: [
      'example-mod',
      'example-jukebox',
      ...RESTCONF_MODULES,
      'ietf-restconf-subscribed-notifications',
    ],
    features: SUBSCRIPTION_FEATURES,
  });
  return schema;
}

/** What {@link start} sets up beside its defaults. */
export interface StartOptions {
  /** Users and passwords checked by HTTP Basic in front of the handler (none: no authentication). */
  readonly users?: Record<string, string>;
  /** More options of the handler. */
  readonly handler?: Partial<RestconfHandlerOptions>;
}

/** The handler over the embedded NETCONF server, with a Basic user check in front when `users`. */
export async function start(options: StartOptions = {}): Promise<Gateway> {
  const users = options.users;
  const s = await subscriptionSchema();
  const netconf = await NetconfServer.create({ schema: s });
  exampleHandlers(netconf);
  const backend = createNetconfBackend({
    schema: s,
    openSession: async () => {
      const [a, b] = duplexPair();
      netconf.connect(a, { username: 'restconf' });
      return connectStream(b);
    },
  });
  const handler = createRestconfHandler({ schema: s, backend, ...options.handler });
  const http = createServer((req, res) => {
    if (users !== undefined) {
      const [user, password] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':');
      if (user === undefined || users[user] !== password) {
        res.writeHead(401, { 'www-authenticate': 'Basic' }).end();
        return;
      }
      // As connect/express middleware records the user it verified.
      (req as typeof req & { remoteUser?: string }).remoteUser = user;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await handler.ready;
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    netconf,
    handler,
    http,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await handler.close();
      await netconf.close();
    },
  };
}

/** The Authorization header of HTTP Basic. */
export function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** POSTs one of the RFC 8639 operations with a JSON input. */
export async function post(
  gw: Gateway,
  operation: string,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${gw.url}${OP}:${operation}`, {
    method: 'POST',
    headers: { 'content-type': JSON_TYPE, accept: JSON_TYPE, ...headers },
    body: JSON.stringify({ 'ietf-subscribed-notifications:input': input }),
  });
}

/** establish-subscription; returns the id and the uri's path. */
export async function establish(
  gw: Gateway,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<{ id: number; uri: string; path: string }> {
  const res = await post(gw, 'establish-subscription', input, headers);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, Record<string, unknown>>;
  const output = body['ietf-subscribed-notifications:output']!;
  const uri = output['ietf-restconf-subscribed-notifications:uri'] as string;
  return { id: output.id as number, uri, path: new URL(uri).pathname };
}
