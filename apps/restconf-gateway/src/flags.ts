import { DEFAULT_MAX_XPATH_WORK } from '@yangkit/netconf-server';
import { GatewayError } from './errors.js';

/** How a flag's value is read. */
export type FlagType = 'boolean' | 'string' | 'integer' | 'list';

/** One command-line flag (also a key of the config file). */
export interface FlagSpec {
  /** The name without dashes, e.g. `restconf-server-url`. */
  readonly name: string;
  readonly type: FlagType;
  /** Allowed values, when the flag is an enumeration. */
  readonly choices?: readonly string[];
  /** Smallest and largest value of an integer flag. */
  readonly range?: readonly [number, number];
  /** The default shown in `--help`. */
  readonly defaultText?: string;
  /** Placeholder for the value in `--help`. */
  readonly value?: string;
  /** One line for `--help`. */
  readonly help: string;
  /** Only on the command line, never in a config file. */
  readonly cliOnly?: boolean;
}

const BOOLEAN_CHOICES = ['true', 'false'];

/**
 * Every flag of `restconf-gateway`: the server parameters of the interface specification
 * ("Server parameters" and the retrieval settings), then the gateway's own.
 */
export const FLAGS: readonly FlagSpec[] = [
  { name: 'help', type: 'boolean', help: 'Print this help and exit.', cliOnly: true },
  {
    name: 'config',
    type: 'string',
    value: 'FILE',
    help: 'JSON config file: an object of flag names to values; flags given on the command line win.',
    cliOnly: true,
  },
  {
    name: 'host',
    type: 'string',
    defaultText: '127.0.0.1',
    value: 'ADDR',
    help: 'Address the HTTP server listens on.',
  },
  {
    name: 'port',
    type: 'integer',
    range: [0, 65535],
    defaultText: '8080',
    value: 'N',
    help: 'Port the HTTP server listens on (0 picks a free port).',
  },
  {
    name: 'restconf-root',
    type: 'string',
    defaultText: '/restconf',
    value: 'PATH',
    help: 'Path of the RESTCONF root announced in /.well-known/host-meta.',
  },
  {
    name: 'tls-cert',
    type: 'string',
    value: 'FILE',
    help: 'PEM certificate chain: serve HTTPS instead of HTTP (with --tls-key).',
  },
  { name: 'tls-key', type: 'string', value: 'FILE', help: 'PEM private key for --tls-cert.' },
  {
    name: 'tls-key-passphrase-file',
    type: 'string',
    value: 'FILE',
    help: 'File holding the passphrase of an encrypted --tls-key (first line).',
  },
  {
    name: 'tls-ca',
    type: 'string',
    value: 'FILE',
    help: 'PEM CA certificates that client certificates must chain to: the server asks clients for a certificate and maps a verified one to a user (RFC 8040 section 2.5).',
  },
  {
    name: 'tls-client-auth',
    type: 'string',
    choices: ['optional', 'require'],
    defaultText: 'optional',
    help: 'With --tls-ca: optional lets clients without a verified certificate use Basic; require refuses their TLS handshake.',
  },
  {
    name: 'tls-cert-to-name',
    type: 'string',
    value: 'FILE',
    help: 'JSON list of RFC 7407 cert-to-name entries {fingerprint, map-type, name?} mapping client certificates to users, tried in order. Default: the subject CommonName of any certificate that chains to --tls-ca.',
  },
  {
    name: 'http2',
    type: 'boolean',
    defaultText: 'true',
    help: 'With TLS, serve HTTP/2 and HTTP/1.1 on the same port, chosen by ALPN; false serves HTTP/1.1 only. Cleartext is always HTTP/1.1.',
  },
  {
    name: 'http-user',
    type: 'string',
    value: 'NAME',
    help: 'Require HTTP Basic authentication as this user; the password comes from RESTCONF_HTTP_PASSWORD or --http-password-file. Needed to listen beyond loopback.',
  },
  {
    name: 'http-password-file',
    type: 'string',
    value: 'FILE',
    help: 'File holding the password of --http-user (first line).',
  },
  {
    name: 'path',
    type: 'list',
    value: 'DIR',
    help: 'Folder searched for YANG modules (repeatable). A module found here wins over the copies shipped with the gateway, whatever their revision; those are searched for what the folders lack.',
  },
  {
    name: 'module',
    type: 'list',
    value: 'NAME',
    help: 'Module the embedded backend implements (repeatable), or the module set used with --netconf. Default: the RFC 8040 example modules.',
  },
  {
    name: 'startup-file',
    type: 'string',
    value: 'FILE',
    help: "The embedded backend's startup datastore: loaded at start, written on every change of running. Without it the datastore starts empty and keeps nothing.",
  },
  {
    name: 'initial-data',
    type: 'string',
    value: 'FILE',
    help: 'Data merged into running at start when running is empty: XML, the top-level data elements, bare or inside a NETCONF <config> element (with or without the base namespace), or JSON (RFC 7951) as a PUT of {+restconf}/data carries it. Default: the sample jukebox when the example modules are served; an empty value loads nothing.',
  },
  {
    name: 'netconf',
    type: 'string',
    value: 'ssh://USER@HOST:PORT',
    help: 'Use this NETCONF server as the backend instead of the embedded one.',
  },
  {
    name: 'netconf-password-file',
    type: 'string',
    value: 'FILE',
    help: 'File holding the NETCONF password (else NETCONF_PASSWORD).',
  },
  {
    name: 'netconf-key',
    type: 'string',
    value: 'FILE',
    help: 'Private key for the NETCONF SSH login (passphrase from NETCONF_KEY_PASSPHRASE).',
  },
  {
    name: 'netconf-host-key',
    type: 'list',
    value: 'SHA256:...',
    help: "Pinned fingerprint of the NETCONF server's SSH host key (repeatable).",
  },
  {
    name: 'netconf-known-hosts',
    type: 'string',
    value: 'FILE',
    defaultText: '~/.ssh/known_hosts',
    help: 'known_hosts file checked when no --netconf-host-key is given.',
  },
  {
    name: 'netconf-ssh-listen',
    type: 'string',
    value: 'HOST:PORT',
    help: 'Also serve the embedded backend over NETCONF/SSH on this address.',
  },
  {
    name: 'netconf-ssh-user',
    type: 'string',
    value: 'NAME',
    defaultText: 'netconf',
    help: 'User of --netconf-ssh-listen; the password comes from NETCONF_SSH_PASSWORD.',
  },
  {
    name: 'netconf-hello-timeout',
    type: 'integer',
    range: [0, 86400],
    defaultText: '60',
    value: 'SECONDS',
    help: 'With --netconf-ssh-listen: seconds a new NETCONF session may take to send its <hello> before it is closed (0: no limit).',
  },
  {
    name: 'netconf-idle-timeout',
    type: 'integer',
    range: [0, 86400],
    defaultText: '0',
    value: 'SECONDS',
    help: 'With --netconf-ssh-listen: seconds without an rpc after which a NETCONF session is closed, unless it holds a subscription or a confirmed commit (0: never).',
  },
  {
    name: 'message-indent',
    type: 'integer',
    range: [-1, 9],
    defaultText: '-1',
    value: 'N',
    help: 'Indentation of response bodies; -1 or 0 writes one line.',
  },
  {
    name: 'restconf-default-encoding',
    type: 'string',
    choices: ['json', 'xml'],
    defaultText: 'json',
    help: 'Response encoding when the request does not choose one.',
  },
  {
    name: 'restconf-capability',
    type: 'list',
    value: 'URI',
    help: 'A capability URI added to restconf-state/capabilities (repeatable).',
  },
  {
    name: 'restconf-server-url',
    type: 'string',
    value: 'URL',
    defaultText: 'the listening address',
    help: 'Start of the URL in Location headers, e.g. https://example.com.',
  },
  {
    name: 'restconf-strict-headers',
    type: 'boolean',
    defaultText: 'false',
    help: 'Accept only RFC 8040 media types; when false also application/json, text/json and text/xml.',
  },
  {
    name: 'simple-json-names',
    type: 'boolean',
    defaultText: 'false',
    help: 'Leave module names out of JSON member names (departs from RFC 7951).',
  },
  {
    name: 'wildcard-keys',
    type: 'boolean',
    defaultText: 'false',
    help: 'Accept * as a key value in the last api-path segment of a GET, matching every entry.',
  },
  {
    name: 'with-json-metadata',
    type: 'boolean',
    defaultText: 'true',
    help: 'RFC 7952 metadata in JSON (e.g. with-defaults=report-all-tagged).',
  },
  {
    name: 'with-nmda',
    type: 'boolean',
    defaultText: 'false',
    help: 'Serve the NMDA datastore resources {root}/ds/<datastore> (RFC 8527) when the backend implements NMDA.',
  },
  {
    name: 'sse-keepalive',
    type: 'integer',
    range: [0, 3600],
    defaultText: '0',
    value: 'SECONDS',
    help: 'Seconds of event stream idleness before an ":SSE keepalive" comment: 0 (none) or 5..3600 (also SSE_KEEPALIVE).',
  },
  {
    name: 'with-restconf',
    type: 'boolean',
    defaultText: 'true',
    help: 'Serve RESTCONF; false leaves only /server-status and /metrics.',
  },
  {
    name: 'with-yang-metadata',
    type: 'boolean',
    defaultText: 'true',
    help: 'RFC 7952 metadata annotations in responses (false: none, in either encoding).',
  },
  {
    name: 'default-style',
    type: 'string',
    choices: ['explicit', 'trim', 'report-all'],
    defaultText: 'explicit',
    help: 'with-defaults mode when a GET has no with-defaults parameter.',
  },
  {
    name: 'return-empty-npcontainers',
    type: 'boolean',
    defaultText: 'false',
    help: 'Return empty non-presence containers.',
  },
  {
    name: 'system-sorted',
    type: 'boolean',
    defaultText: 'false',
    help: 'Sort system-ordered lists and leaf-lists by key.',
  },
  {
    name: 'system-sort-type',
    type: 'string',
    choices: ['ascending', 'descending'],
    defaultText: 'ascending',
    help: 'Order used by --system-sorted: by key values, ascending or descending.',
  },
  {
    name: 'server-status',
    type: 'boolean',
    defaultText: 'false',
    help: 'Serve /server-status (uptime, requests by status, NETCONF sessions).',
  },
  { name: 'metrics', type: 'boolean', defaultText: 'false', help: 'Serve Prometheus metrics at /metrics.' },
  {
    name: 'monitoring-user',
    type: 'list',
    value: 'USER',
    defaultText: 'the --nacm-admin or --http-user user',
    help: 'User who may read /metrics and /server-status (repeatable); others get 403. Without authentication everyone may.',
  },
  {
    name: 'explorer',
    type: 'boolean',
    defaultText: 'true on loopback',
    help: 'Serve the web explorer at /explorer/ (the OpenAPI documents are at /openapi.json and /openapi/MODULE.json).',
  },
  {
    name: 'max-body-bytes',
    type: 'integer',
    range: [1024, 1024 ** 3],
    defaultText: '16777216',
    value: 'N',
    help: 'Largest accepted request body.',
  },
  {
    name: 'max-key-length',
    type: 'integer',
    range: [16, 16 * 1024 ** 2],
    defaultText: '1024',
    value: 'N',
    help: 'Longest accepted list key value in UTF-8 bytes, in a URI or a body (longer: 400 invalid-value).',
  },
  {
    name: 'max-string-length',
    type: 'integer',
    range: [1024, 1024 ** 3],
    defaultText: '1048576',
    value: 'N',
    help: 'Longest accepted leaf or leaf-list value of a request body in UTF-8 bytes (longer: 400 invalid-value).',
  },
  {
    name: 'max-body-nodes',
    type: 'integer',
    range: [1000, 100_000_000],
    defaultText: '200000',
    value: 'N',
    help: 'Most data nodes (list entries, containers, leaves) in one request body (more: 413 too-big).',
  },
  {
    name: 'max-bodies-decoding',
    type: 'integer',
    range: [1, 1000],
    defaultText: '2',
    value: 'N',
    help: 'Request bodies over 64 KiB read, decoded and applied at once, across all clients; others wait, unread, for a slot.',
  },
  {
    name: 'max-bodies-waiting',
    type: 'integer',
    range: [0, 100_000],
    defaultText: '16',
    value: 'N',
    help: 'Request bodies waiting for one of --max-bodies-decoding; more get 503 with Retry-After: 1.',
  },
  {
    name: 'max-heap-percent',
    type: 'integer',
    range: [1, 100],
    defaultText: '70',
    value: 'N',
    help: 'Percent of the V8 heap limit in use above which a request body over 64 KiB gets 503 with Retry-After: 1, unread (100: never).',
  },
  {
    name: 'idle-collection',
    type: 'boolean',
    defaultText: 'true',
    help: '2 s after the last body over 64 KiB, or after the last request of a busy period (and after the start), run one full compacting garbage collection (at most once per 10 s, once the heap is well past what the last left live, and only while its pause would stay under 250 ms), to give the memory of the load back; false leaves that to V8.',
  },
  {
    name: 'insecure',
    type: 'boolean',
    defaultText: 'false',
    help: 'Allow listening beyond loopback without authentication or without TLS (credentials then cross the network in clear).',
  },
  {
    name: 'users-file',
    type: 'string',
    value: 'FILE',
    help: 'HTTP Basic users as user:scrypt-hash lines; add them with `restconf-gateway add-user --users-file FILE USER` (password on stdin).',
  },
  {
    name: 'nacm-admin',
    type: 'string',
    value: 'USER',
    help: 'With --users-file (the embedded backend then enforces NACM, RFC 8341): this user bypasses the rules, to write /ietf-netconf-acm:nacm.',
  },
  {
    name: 'max-requests-per-client',
    type: 'integer',
    range: [1, 1_000_000],
    defaultText: '32',
    value: 'N',
    help: 'Requests (event streams included) one client, by authenticated user (Basic or certificate) or else address, may have in progress; more get 429.',
  },
  {
    name: 'max-subscriptions-per-user',
    type: 'integer',
    range: [1, 100_000],
    defaultText: '8',
    value: 'N',
    help: 'RFC 8639 subscriptions (establish-subscription) one user may hold at once; more get 409 resource-denied (insufficient-resources).',
  },
  {
    name: 'max-subscriptions',
    type: 'integer',
    range: [1, 1_000_000],
    defaultText: '64',
    value: 'N',
    help: 'RFC 8639 subscriptions all users together may hold at once.',
  },
  {
    name: 'subscription-receive-timeout',
    type: 'integer',
    range: [1, 3600],
    defaultText: '60',
    value: 'SECONDS',
    help: 'Seconds an established subscription waits for the GET on its uri (RFC 8650) before it ends.',
  },
  {
    name: 'event-queue-bytes',
    type: 'integer',
    range: [1024, 1024 ** 3],
    defaultText: '1048576',
    value: 'N',
    help: 'Bytes of notifications held for one event stream client that reads too slowly (it is then disconnected), or for a subscription before its GET (it then ends).',
  },
  {
    name: 'max-update-bytes',
    type: 'integer',
    range: [1024, 1024 ** 3],
    defaultText: '--event-queue-bytes',
    value: 'N',
    help: 'Bytes of the content of one YANG Push update (RFC 8641) of the embedded server; the encoding of a bigger one stops there and its subscription is suspended (update-too-big) until an update fits.',
  },
  {
    name: 'max-xpath-work',
    type: 'integer',
    range: [1000, Number.MAX_SAFE_INTEGER],
    defaultText: String(DEFAULT_MAX_XPATH_WORK),
    value: 'N',
    help: "Units of work (nodes visited, predicates evaluated) the evaluation of a client's XPath filter may take: a NETCONF read or YANG Push selection of the embedded server past it is refused with resource-denied; on an event, a stream's filter (RESTCONF filter, RFC 5277 or RFC 8639 subscription of the embedded server) past it does not select the event, and ends an RFC 8639 subscription with filter-unavailable.",
  },
  {
    name: 'max-unauthenticated-connections',
    type: 'integer',
    range: [1, 1_000_000],
    defaultText: '1000',
    value: 'N',
    help: 'Connections that have not authenticated a request kept open at once; past this the oldest of them is closed (applies when the server authenticates).',
  },
  {
    name: 'login-failures-per-address',
    type: 'integer',
    range: [1, 1_000_000],
    defaultText: '10',
    value: 'N',
    help: 'Failed logins from one client address (IPv6 by /64) before its logins get 429 with Retry-After, for 1 s doubling with each further failure.',
  },
  {
    name: 'login-failures-per-user',
    type: 'integer',
    range: [1, 1_000_000],
    defaultText: '30',
    value: 'N',
    help: 'Failed logins for one user name before its logins from addresses it has not logged in from get 429 the same way.',
  },
  {
    name: 'audit-log',
    type: 'string',
    value: 'FILE',
    help: 'Append the audit lines (one per POST, PUT, PATCH or DELETE) to this file instead of the log on stderr.',
  },
  {
    name: 'log-level',
    type: 'string',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'silent'],
    defaultText: 'info',
    help: 'Least severe log level written to stderr.',
  },
  {
    name: 'log-format',
    type: 'string',
    choices: ['json', 'pretty'],
    defaultText: 'pretty on a terminal, else json',
    help: 'Log lines on stderr as JSON (pino) or as text for people.',
  },
];

/** Flag values by name: booleans, strings, integers and lists, as given. */
export type FlagValues = Record<string, boolean | string | number | string[]>;

const BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));

function invalid(message: string): GatewayError {
  return new GatewayError('INVALID_FLAG', message);
}

/** Converts one raw value of `spec` (from argv or a config file) and checks it. */
export function convertFlag(
  spec: FlagSpec,
  raw: unknown,
  where: string,
): boolean | string | number | string[] {
  const name = `${where}${spec.name}`;
  switch (spec.type) {
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && BOOLEAN_CHOICES.includes(raw)) return raw === 'true';
      throw invalid(`${name} takes true or false, not ${JSON.stringify(raw)}`);
    }
    case 'integer': {
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && /^-?\d+$/.test(raw)
            ? Number(raw)
            : Number.NaN;
      const [lo, hi] = spec.range ?? [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
      if (!Number.isSafeInteger(n) || n < lo || n > hi)
        throw invalid(`${name} takes an integer from ${lo} to ${hi}, not ${JSON.stringify(raw)}`);
      return n;
    }
    case 'list': {
      const items = Array.isArray(raw) ? raw : [raw];
      if (!items.every((x): x is string => typeof x === 'string'))
        throw invalid(`${name} takes strings, not ${JSON.stringify(raw)}`);
      return items;
    }
    default: {
      if (typeof raw !== 'string') throw invalid(`${name} takes a string, not ${JSON.stringify(raw)}`);
      if (spec.choices !== undefined && !spec.choices.includes(raw))
        throw invalid(`${name} takes one of ${spec.choices.join(', ')}, not ${JSON.stringify(raw)}`);
      return raw;
    }
  }
}

/** Largest number of command-line arguments read. */
const MAX_ARGS = 1000;

/**
 * Reads command-line arguments in the spec's `--name=value` form; `--name value` also works for
 * non-boolean flags, a bare `--name` sets a boolean to true, and list flags repeat.
 */
export function parseFlags(argv: readonly string[]): FlagValues {
  if (argv.length > MAX_ARGS) throw invalid(`too many arguments (${argv.length})`);
  const out: FlagValues = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--')
      throw invalid(`unexpected argument ${JSON.stringify(arg)}; flags look like --name=value`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const spec = BY_NAME.get(name);
    if (spec === undefined) throw invalid(`unknown flag --${name} (see --help)`);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (spec.type === 'boolean') raw = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw invalid(`--${name} needs a value`);
      raw = next;
      i++;
    }
    const value = convertFlag(spec, raw, '--');
    if (spec.type === 'list')
      out[name] = [...((out[name] as string[] | undefined) ?? []), ...(value as string[])];
    else if (name in out) throw invalid(`--${name} is given twice`);
    else out[name] = value;
  }
  return out;
}

/** Checks the entries of a parsed config file against {@link FLAGS}. */
export function checkConfig(config: unknown, file: string): FlagValues {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new GatewayError('INVALID_CONFIG', `${file} must hold a JSON object of flag names to values`);
  const out: FlagValues = {};
  for (const [name, raw] of Object.entries(config)) {
    const spec = BY_NAME.get(name);
    if (spec === undefined || spec.cliOnly === true)
      throw new GatewayError('INVALID_CONFIG', `${file}: unknown setting "${name}"`);
    try {
      out[name] = convertFlag(spec, raw, `${file}: `);
    } catch (error) {
      throw new GatewayError('INVALID_CONFIG', (error as Error).message);
    }
  }
  return out;
}

/** The `--help` text: usage, then every flag with its value, default and meaning. */
export function helpText(): string {
  const lines = [
    'Usage: restconf-gateway [--name=value ...]',
    '',
    'Serves RESTCONF (RFC 8040) over HTTP in front of a NETCONF server: the embedded one (default,',
    'with the RFC 8040 example modules and sample jukebox data) or an external one (--netconf).',
    '',
    'Flags (a boolean may be given bare, e.g. --metrics; list flags repeat):',
  ];
  for (const f of FLAGS) {
    const value = f.type === 'boolean' ? '[=true|false]' : `=${f.choices?.join('|') ?? f.value ?? 'VALUE'}`;
    const def = f.defaultText === undefined ? '' : ` (default ${f.defaultText})`;
    lines.push(`  --${f.name}${value}`, `      ${f.help}${def}`);
  }
  lines.push(
    '',
    'Environment: NETCONF_PASSWORD, NETCONF_KEY_PASSPHRASE, NETCONF_SSH_PASSWORD, RESTCONF_HTTP_PASSWORD, SSE_KEEPALIVE.',
    'Exit codes: 0 after SIGINT/SIGTERM/SIGHUP/SIGUSR1 (open streams end first), 1 when the server fails, 2 for bad flags or config.',
  );
  return lines.join('\n');
}
