import { readFileSync } from 'node:fs';
import path from 'node:path';
import { connectStream } from '@yangkit/netconf-client';
import {
  duplexPair,
  exampleHandlers,
  loadServerSchema,
  NetconfServer,
  type SshListener,
  startSshServer,
} from '@yangkit/netconf-server';
import {
  type Backend,
  createBackend,
  GET_BULK_MODULE,
  GET_BULK_YANG,
  RESTCONF_MODULES,
} from '@yangkit/restconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { GatewayError } from './errors.js';
import { APP_DIR, EXAMPLE_MODULES, type GatewayOptions, parseHostPort, SAMPLE_DATA } from './options.js';

/** A backend with the schema the handler needs, and what to say about it at start. */
export interface BackendSetup {
  readonly schema: SchemaTree;
  readonly backend: Backend;
  /** A one-line description for the start-up log. */
  readonly description: string;
  /** The embedded NETCONF server, when the backend is embedded. */
  readonly netconf?: NetconfServer;
  /** The NETCONF/SSH listener of `--netconf-ssh-listen`. */
  readonly sshListener?: SshListener;
  /** Stops what the setup started (after the handler closed its sessions). */
  close(): Promise<void>;
}

/** The YANG folders searched: the ones given, then the gateway's own example modules. */
export function modulePaths(options: GatewayOptions): string[] {
  return [...(options.path ?? []), path.join(APP_DIR, 'yang')];
}

/** The user name of the in-process sessions (shown by ietf-netconf-monitoring). */
const LOCAL_USER = 'restconf';

/**
 * The embedded NETCONF server (@yangkit/netconf-server) with the modules of `--module`, its
 * startup datastore in `--startup-file`, sessions over in-process duplex pairs, and optionally
 * an SSH listener so that NETCONF clients edit the same datastores.
 */
export async function startEmbedded(options: GatewayOptions): Promise<BackendSetup> {
  const modules = options.module ?? EXAMPLE_MODULES;
  let schema: SchemaTree;
  try {
    // get-bulk is answered by the handler itself; its module only has to be in the schema.
    schema = await loadServerSchema({
      paths: modulePaths(options),
      texts: [GET_BULK_YANG],
      modules: [...modules, GET_BULK_MODULE, ...RESTCONF_MODULES],
    });
  } catch (error) {
    throw new GatewayError('SCHEMA', `cannot load the YANG modules: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let netconf: NetconfServer;
  try {
    netconf = await NetconfServer.create({
      schema,
      ...(options.startupFile === undefined ? {} : { startupFile: options.startupFile }),
    });
  } catch (error) {
    throw new GatewayError('FILE', `cannot start the embedded NETCONF server: ${(error as Error).message}`, {
      cause: error,
    });
  }
  exampleHandlers(netconf);
  const openSession = async () => {
    const [a, b] = duplexPair();
    netconf.connect(a, { username: LOCAL_USER });
    return connectStream(b);
  };
  const initial = options.initialData ?? (options.module === undefined ? SAMPLE_DATA : '');
  if (initial !== '') await loadInitialData(openSession, initial);

  let sshListener: SshListener | undefined;
  if (options.netconfSshListen !== undefined) {
    const { host, port } = parseHostPort(options.netconfSshListen, '--netconf-ssh-listen');
    try {
      sshListener = await startSshServer(netconf, {
        host,
        port,
        users: [
          { username: options.netconfSshUser ?? 'netconf', password: options.netconfSshPassword ?? '' },
        ],
        // Kept beside the startup file so that clients keep trusting it; ephemeral otherwise.
        ...(options.startupFile === undefined ? {} : { hostKeyFile: `${options.startupFile}.ssh-host-key` }),
      });
    } catch (error) {
      await netconf.close();
      throw new GatewayError('LISTEN', `cannot serve NETCONF over SSH on ${options.netconfSshListen}`, {
        cause: error,
      });
    }
  }
  const backend = createBackend({ openSession });
  const persisted = options.startupFile === undefined ? 'in memory only' : `kept in ${options.startupFile}`;
  return {
    schema,
    backend,
    netconf,
    ...(sshListener === undefined ? {} : { sshListener }),
    description: `embedded NETCONF server with ${modules.join(', ')} (datastore ${persisted})`,
    async close() {
      await sshListener?.close();
      await netconf.close();
    },
  };
}

/** Merges a `<config>` XML file into running when running holds no configuration yet. */
async function loadInitialData(
  openSession: () => Promise<import('@yangkit/netconf-client').NetconfSession>,
  file: string,
): Promise<void> {
  let xml: string;
  try {
    xml = readFileSync(file, 'utf8');
  } catch (error) {
    throw new GatewayError('FILE', `cannot read initial data ${file}`, { cause: error });
  }
  const session = await openSession();
  try {
    await session.ready;
    const running = await session.getConfig({ source: 'running' });
    if (running.trim() !== '') return;
    const target = session.capabilities.protocol.has('writable-running') ? 'running' : 'candidate';
    await session.editConfig({ target, config: xml.replace(/^<\?xml[^>]*\?>/, '') });
    if (target === 'candidate') await session.commit();
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    throw new GatewayError('FILE', `initial data ${file} was refused: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await session.close().catch(() => session.destroy());
  }
}
