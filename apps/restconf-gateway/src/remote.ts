import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  type HostKeyCheck,
  type NetconfSession,
  SshConnection,
  type SshOptions,
} from '@yangkit/netconf-client';
import {
  createNetconfBackend,
  RESTCONF_MODULES,
  SUBSCRIPTION_FEATURES,
  subscriptionModules,
  YANGKIT_MODULE_TEXTS,
  YANGKIT_MODULES,
} from '@yangkit/restconf-server';
import { loadSchema, mergeFeatures, type SchemaTree } from '@yangkit/yang-schema';
import type { BackendSetup } from './embedded.js';
import { moduleFolders } from './embedded.js';
import { GatewayError } from './errors.js';
import { type GatewayOptions, parseNetconfUrl } from './options.js';

/** Modules the gateway needs beside the backend's own: the NETCONF operations under /operations. */
const PROTOCOL_MODULES = ['ietf-netconf', 'ietf-netconf-with-defaults', 'ietf-netconf-monitoring'];

function sshOptions(options: GatewayOptions): SshOptions {
  const url = parseNetconfUrl(options.netconf ?? '');
  const hostKey: HostKeyCheck =
    options.netconfHostKey !== undefined && options.netconfHostKey.length > 0
      ? { fingerprint: options.netconfHostKey }
      : { knownHostsFile: options.netconfKnownHosts ?? path.join(homedir(), '.ssh', 'known_hosts') };
  let privateKey: Buffer | undefined;
  if (options.netconfKey !== undefined) {
    try {
      privateKey = readFileSync(options.netconfKey);
    } catch (error) {
      throw new GatewayError('FILE', `cannot read --netconf-key ${options.netconfKey}`, { cause: error });
    }
  }
  return {
    host: url.host,
    port: url.port,
    username: url.username,
    hostKey,
    ...(options.netconfPassword === undefined ? {} : { password: options.netconfPassword }),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...(options.netconfKeyPassphrase === undefined ? {} : { passphrase: options.netconfKeyPassphrase }),
    keepaliveInterval: 30_000,
  };
}

/**
 * Sessions on one SSH connection to the external server (RFC 6242: one `netconf` channel per
 * session); the connection is made again when it was lost.
 */
function sshSessions(ssh: SshOptions): { open: () => Promise<NetconfSession>; close: () => Promise<void> } {
  let connection: Promise<SshConnection> | undefined;
  let closed = false;
  const connect = (): Promise<SshConnection> => {
    const c = SshConnection.connect(ssh);
    c.then(
      (conn) =>
        conn.once('close', () => {
          if (connection === c) connection = undefined;
        }),
      () => {
        if (connection === c) connection = undefined;
      },
    );
    return c;
  };
  return {
    async open() {
      if (closed) throw new GatewayError('BACKEND', 'the gateway is closing');
      const c = (connection ??= connect());
      const conn = await c;
      if (!conn.closed) return conn.openSession();
      // Lost, its 'close' event still to come (the server went away): forget it and dial again.
      if (connection === c) connection = undefined;
      return (await (connection ??= connect())).openSession();
    },
    async close() {
      closed = true;
      const c = connection;
      connection = undefined;
      // Every session still open ends with <close-session> before the SSH connection closes.
      if (c !== undefined) await c.then((conn) => conn.close()).catch(() => undefined);
    },
  };
}

/** Loads the schema: `--module` or every module the server announces, texts from `--path` or `<get-schema>`. */
async function learnSchema(session: NetconfSession, options: GatewayOptions): Promise<SchemaTree> {
  const announced = session.capabilities.modules;
  // The server's features, and those the handler adds on its own (the JSON encoding of events).
  const announcedFeatures: Record<string, string[]> = {};
  for (const m of announced) announcedFeatures[m.module] = [...m.features];
  const features = mergeFeatures(announcedFeatures, SUBSCRIPTION_FEATURES);
  const names =
    options.module ??
    announced.map((m) => (m.revision === undefined ? m.module : `${m.module}@${m.revision}`));
  const wanted = [...names];
  // RFC 8650 subscriptions are served when the server implements RFC 8639.
  const subscriptions = subscriptionModules(announced.map((m) => m.module));
  for (const m of [...PROTOCOL_MODULES, ...YANGKIT_MODULES, ...RESTCONF_MODULES, ...subscriptions])
    if (!wanted.some((n) => n.split('@')[0] === m)) wanted.push(m);
  const canGetSchema = session.capabilities.modules.some((m) => m.module === 'ietf-netconf-monitoring');
  try {
    return await loadSchema({
      ...moduleFolders(options),
      texts: [...YANGKIT_MODULE_TEXTS],
      modules: wanted,
      features,
      unlistedFeatures: 'none',
      ...(canGetSchema
        ? {
            fetch: async (identifier: string, version: string | undefined) => {
              try {
                return await session.getSchema({ identifier, ...(version === undefined ? {} : { version }) });
              } catch {
                return undefined;
              }
            },
          }
        : {}),
    });
  } catch (error) {
    throw new GatewayError(
      'SCHEMA',
      `cannot build the schema of the NETCONF server: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** The external NETCONF server of `--netconf ssh://user@host:port`. */
export async function startRemote(options: GatewayOptions): Promise<BackendSetup> {
  const ssh = sshOptions(options);
  const sessions = sshSessions(ssh);
  let first: NetconfSession;
  try {
    first = await sessions.open();
    await first.ready;
  } catch (error) {
    await sessions.close();
    throw new GatewayError(
      'BACKEND',
      `cannot reach NETCONF server ${options.netconf}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let schema: SchemaTree;
  try {
    schema = await learnSchema(first, options);
  } finally {
    await first.close().catch(() => first.destroy());
  }
  const backend = createNetconfBackend({ schema, openSession: sessions.open });
  return {
    schema,
    backend,
    description: `NETCONF server ${options.netconf}`,
    close: sessions.close,
  };
}
