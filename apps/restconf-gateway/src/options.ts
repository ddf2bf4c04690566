import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DefaultStyle } from '@yangkit/restconf-server';
import { GatewayError } from './errors.js';
import { checkConfig, convertFlag, FLAGS, type FlagValues, parseFlags } from './flags.js';
import type { LogFormat } from './logger.js';

/** Options of {@link startGateway}; each maps to the flag of the same name in kebab-case. */
export interface GatewayOptions {
  readonly host?: string;
  /** 0 picks a free port (default 8080). */
  readonly port?: number;
  readonly restconfRoot?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /** Passphrase of an encrypted `tlsKey` (`--tls-key-passphrase-file`). */
  readonly tlsKeyPassphrase?: string;
  /** CA certificates client certificates must chain to; with it the server asks for one. */
  readonly tlsCa?: string;
  /** `optional` (default) or `require` a verified client certificate in the TLS handshake. */
  readonly tlsClientAuth?: 'optional' | 'require';
  /** JSON file of RFC 7407 cert-to-name entries; default: CommonName of any verified certificate. */
  readonly tlsCertToName?: string;
  /** With TLS, HTTP/2 and HTTP/1.1 by ALPN (default true). */
  readonly http2?: boolean;
  /** File the audit lines are appended to (default: the log). */
  readonly auditLog?: string;
  /** HTTP Basic user; with `httpPassword`. */
  readonly httpUser?: string;
  readonly httpPassword?: string;
  /** File of `user:scrypt-hash` lines (see `restconf-gateway add-user`) for HTTP Basic. */
  readonly usersFile?: string;
  /** With `usersFile`: this user's sessions bypass NACM (RFC 8341 recovery), to set up the rules. */
  readonly nacmAdmin?: string;
  /** Serve beyond loopback without authentication or without TLS. */
  readonly insecure?: boolean;
  /** YANG module folders, searched before the RFC 8040 example modules (the repository's `yang/examples`). */
  readonly path?: readonly string[];
  /** Modules the embedded backend implements; default the RFC 8040 example modules. */
  readonly module?: readonly string[];
  readonly startupFile?: string;
  /** NETCONF `<config>` XML file merged into an empty running at start; `''` for none. */
  readonly initialData?: string;
  /** `ssh://user@host:port` of an external NETCONF server. */
  readonly netconf?: string;
  readonly netconfPassword?: string;
  readonly netconfKey?: string;
  readonly netconfKeyPassphrase?: string;
  readonly netconfHostKey?: readonly string[];
  readonly netconfKnownHosts?: string;
  /** `HOST:PORT` to serve the embedded backend over NETCONF/SSH. */
  readonly netconfSshListen?: string;
  readonly netconfSshUser?: string;
  readonly netconfSshPassword?: string;
  /** Seconds a NETCONF session of the embedded server may take to send `<hello>` (netconf-server's `helloTimeout`). */
  readonly netconfHelloTimeout?: number;
  /** Seconds without an rpc before a NETCONF session of the embedded server is closed (`idleTimeout`). */
  readonly netconfIdleTimeout?: number;
  readonly messageIndent?: number;
  readonly restconfDefaultEncoding?: 'json' | 'xml';
  readonly restconfCapability?: readonly string[];
  readonly restconfServerUrl?: string;
  readonly restconfStrictHeaders?: boolean;
  readonly simpleJsonNames?: boolean;
  readonly wildcardKeys?: boolean;
  readonly withJsonMetadata?: boolean;
  readonly withNmda?: boolean;
  /** Seconds before an SSE keepalive comment: 0 or 5..3600. */
  readonly sseKeepalive?: number;
  readonly withRestconf?: boolean;
  readonly withYangMetadata?: boolean;
  readonly defaultStyle?: DefaultStyle;
  readonly returnEmptyNpcontainers?: boolean;
  readonly systemSorted?: boolean;
  readonly systemSortType?: 'ascending' | 'descending';
  readonly serverStatus?: boolean;
  readonly metrics?: boolean;
  /** Serve the web explorer at `/explorer/` (default: on a loopback address only). */
  readonly explorer?: boolean;
  /** Users who may read `/metrics` and `/server-status` (default: the `nacmAdmin` or `httpUser` user). */
  readonly monitoringUser?: readonly string[];
  readonly maxBodyBytes?: number;
  /** Longest accepted list key value in UTF-8 bytes (default 1024). */
  readonly maxKeyLength?: number;
  /** Longest accepted leaf or leaf-list value of a request body in UTF-8 bytes (default 1 MiB). */
  readonly maxStringLength?: number;
  /** Most data nodes in one request body (default 200,000). */
  readonly maxBodyNodes?: number;
  /** Request bodies over 64 KiB read, decoded and applied at once, across all clients (default 2). */
  readonly maxBodiesDecoding?: number;
  /** Request bodies waiting for a slot of `maxBodiesDecoding`; more get 503 (default 16). */
  readonly maxBodiesWaiting?: number;
  /** Percent of the V8 heap limit in use above which a body over 64 KiB gets 503 (default 70). */
  readonly maxHeapPercent?: number;
  /** The full garbage collection after big bodies, which gives their memory back (default true). */
  readonly idleCollection?: boolean;
  /** Requests one client (its authenticated user, else its peer address) may have in progress (default 32). */
  readonly maxRequestsPerClient?: number;
  /** RFC 8639 subscriptions one user may hold at once (default 8). */
  readonly maxSubscriptionsPerUser?: number;
  /** RFC 8639 subscriptions all users together may hold at once (default 64). */
  readonly maxSubscriptions?: number;
  /** Seconds a subscription waits for the GET on its uri before it ends (default 60). */
  readonly subscriptionReceiveTimeout?: number;
  /** Bytes queued for one slow event stream client, or for a subscription before its GET (default 1 MiB). */
  readonly eventQueueBytes?: number;
  /**
   * UTF-8 bytes of the content of one RFC 8641 update the embedded server makes; past it the
   * subscription is suspended with `update-too-big` until one fits (default `eventQueueBytes`: a
   * bigger update could not wait for its receiver anyway).
   */
  readonly maxUpdateBytes?: number;
  /**
   * Units of work (nodes visited, predicates evaluated) the evaluation of a client's XPath filter
   * may take (default netconf-server's `DEFAULT_MAX_XPATH_WORK`): past it the embedded server
   * refuses a read with `resource-denied`, terminates an RFC 8639 subscription (`filter-unavailable`)
   * and does not send an RFC 5277 subscription the event; the handler does not send a stream's
   * client the event its `filter` passes it on.
   */
  readonly maxXpathWork?: number;
  /** Connections that have not authenticated a request kept at once; the oldest is closed past it (default 1000). */
  readonly maxUnauthenticatedConnections?: number;
  /** Failed logins from one address before it waits (default 10). */
  readonly loginFailuresPerAddress?: number;
  /** Failed logins for one user name before addresses it has not logged in from wait (default 30). */
  readonly loginFailuresPerUser?: number;
  readonly logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** JSON lines or text lines; default text when stderr is a terminal. */
  readonly logFormat?: LogFormat;
}

/** The folder of the gateway's own files (`data/`), from `src/` or `dist/`. */
export const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The RFC 8040 example modules, kept once for the whole repository in its `yang/examples`. */
export const EXAMPLE_YANG_DIR = path.resolve(APP_DIR, '../../yang/examples');

/** The RFC 8040 example modules served when no `--module` is given. */
export const EXAMPLE_MODULES: readonly string[] = [
  'example-jukebox',
  'example-ops',
  'example-actions',
  'example-mod',
  'example-events',
];

/** The sample jukebox loaded by default. */
export const SAMPLE_DATA = path.join(APP_DIR, 'data', 'jukebox.xml');

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function readSecret(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
  } catch (error) {
    throw new GatewayError('FILE', `cannot read ${what} ${file}`, { cause: error });
  }
}

/** Largest config file read (bytes); a config of flags is a few hundred. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads `--config FILE` as JSON. */
function readConfig(file: string): FlagValues {
  let text: string;
  try {
    if (statSync(file).size > MAX_CONFIG_BYTES)
      throw new GatewayError('INVALID_CONFIG', `${file} is larger than ${MAX_CONFIG_BYTES} bytes`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    throw new GatewayError('INVALID_CONFIG', `cannot read config file ${file}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new GatewayError('INVALID_CONFIG', `${file} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return checkConfig(parsed, file);
}

/** What the command line asks for. */
export type Command = { readonly help: true } | { readonly help: false; readonly options: GatewayOptions };

/**
 * Turns command-line arguments (and the config file they name, and the environment for secrets)
 * into {@link GatewayOptions}; throws a {@link GatewayError} with exit code 2 on bad usage.
 */
export function optionsFromArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  const flags = parseFlags(argv);
  if (flags.help === true) return { help: true };
  const merged: FlagValues = {
    ...(typeof flags.config === 'string' ? readConfig(flags.config) : {}),
    ...flags,
  };
  delete merged.config;
  delete merged.help;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(merged)) out[camel(k)] = v;
  const passwordFile = merged['netconf-password-file'];
  delete out.netconfPasswordFile;
  const netconfPassword =
    typeof passwordFile === 'string' ? readSecret(passwordFile, 'password file') : env.NETCONF_PASSWORD;
  if (netconfPassword !== undefined) out.netconfPassword = netconfPassword;
  if (env.NETCONF_KEY_PASSPHRASE !== undefined) out.netconfKeyPassphrase = env.NETCONF_KEY_PASSPHRASE;
  if (env.NETCONF_SSH_PASSWORD !== undefined) out.netconfSshPassword = env.NETCONF_SSH_PASSWORD;
  const httpFile = merged['http-password-file'];
  delete out.httpPasswordFile;
  const httpPassword =
    typeof httpFile === 'string' ? readSecret(httpFile, 'password file') : env.RESTCONF_HTTP_PASSWORD;
  if (httpPassword !== undefined) out.httpPassword = httpPassword;
  const passphraseFile = merged['tls-key-passphrase-file'];
  delete out.tlsKeyPassphraseFile;
  if (typeof passphraseFile === 'string')
    out.tlsKeyPassphrase = readSecret(passphraseFile, 'passphrase file');
  // The spec's SSE_KEEPALIVE environment setting, when no flag or config names it.
  if (out.sseKeepalive === undefined && env.SSE_KEEPALIVE !== undefined) {
    const spec = FLAGS.find((f) => f.name === 'sse-keepalive')!;
    out.sseKeepalive = convertFlag(spec, env.SSE_KEEPALIVE, 'SSE_KEEPALIVE ');
  }
  const options = out as GatewayOptions;
  checkOptions(options);
  return { help: false, options };
}

function usage(message: string): GatewayError {
  return new GatewayError('INVALID_FLAG', message);
}

/** Checks combinations of options that single flags cannot; throws with exit code 2. */
export function checkOptions(o: GatewayOptions): void {
  if (o.sseKeepalive !== undefined && o.sseKeepalive > 0 && o.sseKeepalive < 5)
    throw usage(`--sse-keepalive takes 0 or 5..3600 seconds, not ${o.sseKeepalive}`);
  if ((o.tlsCert === undefined) !== (o.tlsKey === undefined))
    throw usage('--tls-cert and --tls-key go together');
  if (o.tlsCa !== undefined && o.tlsCert === undefined)
    throw usage('--tls-ca needs --tls-cert and --tls-key');
  if (o.tlsClientAuth !== undefined && o.tlsCa === undefined) throw usage('--tls-client-auth needs --tls-ca');
  if (o.tlsCertToName !== undefined && o.tlsCa === undefined)
    throw usage('--tls-cert-to-name needs --tls-ca');
  if (o.tlsKeyPassphrase !== undefined && o.tlsKey === undefined)
    throw usage('--tls-key-passphrase-file needs --tls-key');
  if (o.httpUser !== undefined && (o.httpPassword === undefined || o.httpPassword === ''))
    throw usage('--http-user needs a password in RESTCONF_HTTP_PASSWORD or --http-password-file');
  if (o.nacmAdmin !== undefined && (o.usersFile === undefined || o.netconf !== undefined))
    throw usage('--nacm-admin needs --users-file and the embedded backend');
  if (o.netconf !== undefined) {
    parseNetconfUrl(o.netconf);
    if (o.startupFile !== undefined)
      throw usage('--startup-file belongs to the embedded backend, not --netconf');
    if (o.netconfSshListen !== undefined)
      throw usage('--netconf-ssh-listen belongs to the embedded backend, not --netconf');
    if (o.netconfPassword === undefined && o.netconfKey === undefined)
      throw usage('--netconf needs NETCONF_PASSWORD, --netconf-password-file or --netconf-key');
  }
  if (o.netconfSshListen === undefined) {
    if (o.netconfHelloTimeout !== undefined)
      throw usage('--netconf-hello-timeout needs --netconf-ssh-listen');
    if (o.netconfIdleTimeout !== undefined) throw usage('--netconf-idle-timeout needs --netconf-ssh-listen');
  } else {
    parseHostPort(o.netconfSshListen, '--netconf-ssh-listen');
    if (o.netconfSshPassword === undefined || o.netconfSshPassword === '')
      throw usage('--netconf-ssh-listen needs a password in NETCONF_SSH_PASSWORD');
  }
  if (o.restconfServerUrl !== undefined && !/^https?:\/\/[^/]+/.test(o.restconfServerUrl))
    throw usage(
      `--restconf-server-url must be an http:// or https:// URL, not ${JSON.stringify(o.restconfServerUrl)}`,
    );
  if (o.restconfRoot !== undefined && !/^\/[\w.~/-]*$/.test(o.restconfRoot))
    throw usage(`--restconf-root must be a path starting with /, not ${JSON.stringify(o.restconfRoot)}`);
}

/** A parsed `--netconf` URL. */
export interface NetconfUrl {
  readonly username: string;
  readonly host: string;
  readonly port: number;
}

/** Parses `ssh://user@host[:port]` (port 830 by default, RFC 6242 section 3). */
export function parseNetconfUrl(url: string): NetconfUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw usage(`--netconf must look like ssh://user@host:port, not ${JSON.stringify(url)}`);
  }
  if (
    u.protocol !== 'ssh:' ||
    u.hostname === '' ||
    u.username === '' ||
    u.pathname !== '' ||
    u.password !== ''
  )
    throw usage(
      `--netconf must look like ssh://user@host:port (no password in the URL), not ${JSON.stringify(url)}`,
    );
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return { username: decodeURIComponent(u.username), host, port: u.port === '' ? 830 : Number(u.port) };
}

/** Parses `HOST:PORT` (IPv6 in brackets). */
export function parseHostPort(text: string, flag: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = m === null ? Number.NaN : Number(m[3]);
  if (m === null || port > 65535)
    throw usage(`${flag} must look like HOST:PORT, not ${JSON.stringify(text)}`);
  return { host: (m[1] ?? m[2])!, port };
}
