import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { connectStream } from '@yangkit/netconf-client';
import {
  duplexPair,
  exampleHandlers,
  loadServerSchema,
  NetconfServer,
  SERVER_MODULES,
  type SshListener,
  startSshServer,
} from '@yangkit/netconf-server';
import {
  type Backend,
  createBackend,
  RESTCONF_MODULES,
  SUBSCRIPTION_FEATURES,
  subscriptionModules,
  YANGKIT_MODULE_TEXTS,
  YANGKIT_MODULES,
} from '@yangkit/restconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { GatewayError } from './errors.js';
import { initialConfig } from './initial-data.js';
import {
  EXAMPLE_MODULES,
  EXAMPLE_YANG_DIR,
  type GatewayOptions,
  parseHostPort,
  SAMPLE_DATA,
} from './options.js';

/** A backend with the schema the handler needs, and what to say about it at start. */
export interface BackendSetup {
  readonly schema: SchemaTree;
  readonly backend: Backend;
  /** A one-line description for the start-up log. */
  readonly description: string;
  /** A data resource to try first (below `{+restconf}`), when the backend holds known data. */
  readonly tryFirst?: string;
  /** The embedded NETCONF server, when the backend is embedded. */
  readonly netconf?: NetconfServer;
  /** The NETCONF/SSH listener of `--netconf-ssh-listen`. */
  readonly sshListener?: SshListener;
  /**
   * Runs `handle` (the handler's work for one request) so that its NETCONF sessions are opened as
   * `user`, the request's authenticated user; present when the backend enforces NACM.
   */
  readonly runAs?: (user: string | undefined, handle: () => void) => void;
  /** Stops what the setup started (after the handler closed its sessions). */
  close(): Promise<void>;
}

/**
 * The YANG folders searched: the ones given, then the RFC 8040 example modules for what they lack
 * (a module in a `--path` folder wins whatever its revision: it is the one the device has).
 */
export function moduleFolders(options: GatewayOptions): { paths: string[]; fallbackPaths: string[] } {
  return { paths: [...(options.path ?? [])], fallbackPaths: [EXAMPLE_YANG_DIR] };
}

/** The user name of the in-process sessions (shown by ietf-netconf-monitoring). */
const LOCAL_USER = 'restconf';

/** Per-user backends kept at most; the least recently added one is closed beyond. */
const MAX_USER_BACKENDS = 256;

/**
 * The embedded NETCONF server (@yangkit/netconf-server) with the modules of `--module`, its
 * startup datastore in `--startup-file`, sessions over in-process duplex pairs, and optionally
 * an SSH listener so that NETCONF clients edit the same datastores.
 */
export async function startEmbedded(options: GatewayOptions): Promise<BackendSetup> {
  const modules = options.module ?? EXAMPLE_MODULES;
  let schema: SchemaTree;
  try {
    // get-bulk and the with-etag annotations are the handler's own; their modules only have to be
    // in the schema. The embedded server implements RFC 8639 and YANG Push: RFC 8650
    // subscriptions are served, with the encodings the handler adds.
    schema = await loadServerSchema({
      ...moduleFolders(options),
      texts: [...YANGKIT_MODULE_TEXTS],
      modules: [...modules, ...YANGKIT_MODULES, ...RESTCONF_MODULES, ...subscriptionModules(SERVER_MODULES)],
      features: SUBSCRIPTION_FEATURES,
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
      // Users are authenticated only with a users file: then NACM (RFC 8341) applies to them.
      nacm: options.usersFile !== undefined,
      ...(options.startupFile === undefined ? {} : { startupFile: options.startupFile }),
      // For the NETCONF/SSH clients of --netconf-ssh-listen; the gateway's own sessions send their
      // hello at once, and an idle one that was closed is replaced when next needed.
      ...(options.netconfHelloTimeout === undefined ? {} : { helloTimeout: options.netconfHelloTimeout }),
      ...(options.netconfIdleTimeout === undefined ? {} : { idleTimeout: options.netconfIdleTimeout }),
    });
  } catch (error) {
    throw new GatewayError('FILE', `cannot start the embedded NETCONF server: ${(error as Error).message}`, {
      cause: error,
    });
  }
  exampleHandlers(netconf);
  // The gateway's own sessions (initial data, capabilities, the change watcher) are recovery
  // sessions (RFC 8341 section 3.4); so are those of the --nacm-admin user.
  const connect = async (username: string, recovery: boolean) => {
    const [a, b] = duplexPair();
    netconf.connect(a, { username }, { recovery });
    return connectStream(b);
  };
  const openSession = () => connect(LOCAL_USER, true);
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
  const system = createBackend({ openSession });
  const perUser = netconf.nacm === undefined ? undefined : userBackends(connect, system, options.nacmAdmin);
  const backend = perUser?.backend ?? system;
  const persisted = options.startupFile === undefined ? 'in memory only' : `kept in ${options.startupFile}`;
  return {
    schema,
    backend,
    netconf,
    ...(sshListener === undefined ? {} : { sshListener }),
    ...(perUser === undefined ? {} : { runAs: perUser.runAs }),
    description: `embedded NETCONF server with ${modules.join(', ')} (datastore ${persisted})`,
    ...(initial === SAMPLE_DATA
      ? { tryFirst: '/data/example-jukebox:jukebox/library/artist=Foo%20Fighters' }
      : {}),
    async close() {
      await sshListener?.close();
      await netconf.close();
    },
  };
}

/**
 * A backend whose requests run on NETCONF sessions of their authenticated user, one session pool
 * per user, so that the embedded server's NACM judges each request by its user. The capabilities
 * and the change watcher come from `system` (recovery sessions); a request that names no user
 * gets sessions of the unprivileged user `restconf`, never recovery ones.
 */
function userBackends(
  connect: (username: string, recovery: boolean) => Promise<import('@yangkit/netconf-client').NetconfSession>,
  system: Backend,
  admin: string | undefined,
): { backend: Backend; runAs: (user: string | undefined, handle: () => void) => void } {
  const current = new AsyncLocalStorage<string>();
  const pools = new Map<string, Backend>();
  const poolOf = (user: string): Backend => {
    let pool = pools.get(user);
    if (pool === undefined) {
      if (pools.size >= MAX_USER_BACKENDS) {
        const [oldest, old] = pools.entries().next().value!;
        pools.delete(oldest);
        void old.close();
      }
      pool = createBackend({
        openSession: () => connect(user, user === admin),
        watchChanges: false,
        maxIdle: 2,
      });
      pools.set(user, pool);
    }
    return pool;
  };
  const backend: Backend = {
    start: () => system.start(),
    get capabilities() {
      return system.capabilities;
    },
    withSession: (fn) => poolOf(current.getStore() ?? LOCAL_USER).withSession(fn),
    ownsSession: (id) => system.ownsSession(id) || [...pools.values()].some((p) => p.ownsSession(id)),
    onExternalChange: (listener) => system.onExternalChange(listener),
    stats() {
      let { sessions, idle, active } = system.stats();
      for (const p of pools.values()) {
        const s = p.stats();
        sessions += s.sessions;
        idle += s.idle;
        active += s.active;
      }
      return { sessions, idle, active };
    },
    async close() {
      await Promise.all([system.close(), ...[...pools.values()].map((p) => p.close())]);
      pools.clear();
    },
  };
  return {
    backend,
    runAs: (user, handle) => current.run(user ?? LOCAL_USER, handle),
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
    await session.editConfig({ target, config: initialConfig(xml) });
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
