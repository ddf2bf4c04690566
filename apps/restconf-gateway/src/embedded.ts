import { readFileSync } from 'node:fs';
import { connectStream } from '@yangkit/netconf-client';
import {
  duplexPair,
  exampleHandlers,
  loadServerSchema,
  NetconfServer,
  SERVER_MODULES,
  type ServerLogger,
  type SshListener,
  startSshServer,
} from '@yangkit/netconf-server';
import {
  type Backend,
  createNetconfBackend,
  EVENT_QUEUE_DEFAULTS,
  RESTCONF_MODULES,
  SUBSCRIPTION_FEATURES,
  subscriptionModules,
  YANGKIT_MODULE_TEXTS,
  YANGKIT_MODULES,
} from '@yangkit/restconf-server';
import type { SchemaTree } from '@yangkit/yang-schema';
import { createEmbeddedBackend } from './embedded-backend.js';
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

/**
 * The embedded NETCONF server (@yangkit/netconf-server) with the modules of `--module`, its
 * startup datastore in `--startup-file`, reached through its tree API for data (no XML) and
 * through sessions over in-process duplex pairs for operations and subscriptions, and optionally
 * an SSH listener so that NETCONF clients edit the same datastores. `logger` hears the server's
 * warnings (a subscription's filter past `--max-xpath-work`).
 */
export async function startEmbedded(options: GatewayOptions, logger?: ServerLogger): Promise<BackendSetup> {
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
      // The handler's bounds (RFC 8650) for the NETCONF clients too: those of --netconf-ssh-listen,
      // and with NACM the sessions the gateway opens for each user.
      ...(options.maxSubscriptionsPerUser === undefined
        ? {}
        : { maxSubscriptionsPerUser: options.maxSubscriptionsPerUser }),
      ...(options.maxSubscriptions === undefined ? {} : { maxSubscriptions: options.maxSubscriptions }),
      // An update its receiver's queue could not hold is not made.
      maxUpdateBytes:
        options.maxUpdateBytes ?? options.eventQueueBytes ?? EVENT_QUEUE_DEFAULTS.maxQueuedBytes,
      ...(options.maxXpathWork === undefined ? {} : { maxXPathWork: options.maxXpathWork }),
      ...(logger === undefined ? {} : { logger }),
    });
  } catch (error) {
    throw new GatewayError('FILE', `cannot start the embedded NETCONF server: ${(error as Error).message}`, {
      cause: error,
    });
  }
  exampleHandlers(netconf);
  // The gateway's own sessions (initial data, capabilities, the change watcher) are recovery
  // sessions (RFC 8341 section 3.4); so are those of the --nacm-admin user. All serve RESTCONF
  // requests, so none is announced to event subscribers as a NETCONF session.
  const connect = async (username: string, recovery: boolean) => {
    const [a, b] = duplexPair();
    netconf.connect(a, { username }, { recovery, silent: true });
    return connectStream(b);
  };
  const openSession = () => connect(LOCAL_USER, true);
  const initial = options.initialData ?? (options.module === undefined ? SAMPLE_DATA : '');
  if (initial !== '') await loadInitialData(openSession, initial, schema);

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
  // With NACM each request's sessions are its authenticated user's, so that the server judges each
  // request by its user. NACM is on only with a users file, and then every request that reaches
  // the handler is authenticated: a session without a user is the backend's own (capabilities),
  // a recovery session, and so is one of the --nacm-admin user.
  const nacmAdmin = options.nacmAdmin;
  const backend = createEmbeddedBackend({
    netconf,
    sessionOf: (user) =>
      netconf.nacm === undefined || user === undefined
        ? netconf.localSession(LOCAL_USER, { recovery: true })
        : netconf.localSession(user, { recovery: user === nacmAdmin }),
    operations: createNetconfBackend({
      schema,
      // Changes of other clients come from the server's commit hook.
      watchChanges: false,
      openSession:
        netconf.nacm === undefined
          ? openSession
          : (user) => (user === undefined ? openSession() : connect(user, user === nacmAdmin)),
    }),
  });
  const persisted = options.startupFile === undefined ? 'in memory only' : `kept in ${options.startupFile}`;
  return {
    schema,
    backend,
    netconf,
    ...(sshListener === undefined ? {} : { sshListener }),
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

/** Merges a `<config>` XML file into running when running holds no configuration yet. */
async function loadInitialData(
  openSession: () => Promise<import('@yangkit/netconf-client').NetconfSession>,
  file: string,
  schema: SchemaTree,
): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new GatewayError('FILE', `cannot read initial data ${file}`, { cause: error });
  }
  const session = await openSession();
  try {
    await session.ready;
    const running = await session.getConfig({ source: 'running' });
    if (running.trim() !== '') return;
    const target = session.capabilities.protocol.has('writable-running') ? 'running' : 'candidate';
    await session.editConfig({ target, config: initialConfig(text, schema) });
    if (target === 'candidate') await session.commit();
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    throw new GatewayError('FILE', `initial data ${file} was refused`, {
      cause: error,
    });
  } finally {
    await session.close().catch(() => session.destroy());
  }
}
