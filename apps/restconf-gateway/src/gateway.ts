import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  createRestconfHandler,
  EVENT_QUEUE_DEFAULTS,
  type RestconfHandler,
  SUBSCRIPTION_DEFAULTS,
} from '@yangkit/restconf-server';
import type { Logger as PinoLogger } from 'pino';
import { apiDocs } from './api-docs.js';
import { createAudit, type GatewayAudit } from './audit.js';
import { basicAuth, denyAccess, setRemoteUser, singleUserCheck } from './basic-auth.js';
import { type BackendSetup, startEmbedded } from './embedded.js';
import { GatewayError } from './errors.js';
import { garbageCollector } from './garbage-collection.js';
import { type ConnectionCloser, createHttp2Server, type GatewayHttp2Server, http1Closer } from './http2.js';
import { limitsLine, limitsOf } from './limits.js';
import { createAuditLogger, createLogger, handlerLogger } from './logger.js';
import { GatewayMetrics } from './metrics.js';
import { checkOptions, type GatewayOptions } from './options.js';
import { startRemote } from './remote.js';
import { DEFAULT_CERT_TO_NAME, readCertToNameFile } from './security/cert-to-name.js';
import { clientCertAuth } from './security/client-cert.js';
import { clientErrorAnswer } from './security/client-error.js';
import { type LoginLimits, LoginThrottle } from './security/login-throttle.js';
import { monitoringAccess } from './security/monitoring-access.js';
import { refusalEncoding } from './security/refusal.js';
import { requestLimit } from './security/request-limit.js';
import { serverTls } from './security/tls-options.js';
import { unauthenticatedConnections } from './security/unauthenticated-connections.js';
import { readUsersFile, usersFileCheck } from './security/users-file.js';

/** How long shutdown waits for requests in progress before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A running gateway. */
export interface Gateway {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The RESTCONF root path (`/restconf`). */
  readonly root: string;
  /**
   * The HTTP server: node:http, node:https, or with TLS and `http2` (the default) the node:http2
   * secure server that also answers HTTP/1.1 (with the same `headersTimeout`/`requestTimeout`).
   */
  readonly http: Server | GatewayHttp2Server;
  readonly handler: RestconfHandler;
  /** The backend, its schema and (when embedded) the NETCONF server. */
  readonly backend: BackendSetup;
  /** Stops listening, ends open connections and NETCONF sessions, stops the embedded server. */
  close(): Promise<void>;
}

/** Extra wiring of {@link startGateway} that has no flag. */
export interface StartContext {
  /** Where to log (default: pino on stderr at `options.logLevel`); audit lines too without `auditLog`. */
  readonly logger?: PinoLogger;
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Starts the gateway: the backend (the external NETCONF server of `netconf`, else the embedded
 * one), the RESTCONF handler of @yangkit/restconf-server with the server parameters, and an
 * HTTP(S) server on `host:port` (default 127.0.0.1:8080). Resolves once it listens and the
 * backend answered.
 */
export async function startGateway(
  options: GatewayOptions = {},
  context: StartContext = {},
): Promise<Gateway> {
  checkOptions(options);
  const log = context.logger ?? createLogger(options.logLevel ?? 'info', options.logFormat);
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopback(host);
  const tls = options.tlsCert !== undefined && options.tlsKey !== undefined;
  const basic = options.httpUser !== undefined || options.usersFile !== undefined;
  const authenticated = basic || options.tlsCa !== undefined;
  // Basic credentials in clear on a network are as good as none (RFC 8040 section 2: TLS is required).
  if (!loopback && options.insecure !== true && (!authenticated || !tls)) {
    throw new GatewayError(
      'INVALID_FLAG',
      `refusing to serve ${host} without ${authenticated ? 'TLS' : 'authentication'}: add ${authenticated ? '--tls-cert and --tls-key' : '--http-user, --users-file or --tls-ca'}, listen on 127.0.0.1, or pass --insecure`,
    );
  }
  const pem = serverTls(options);
  const certUser =
    options.tlsCa === undefined
      ? undefined
      : clientCertAuth(
          options.tlsCertToName === undefined
            ? DEFAULT_CERT_TO_NAME
            : readCertToNameFile(options.tlsCertToName),
        );
  // Read before anything is started, so that a bad file stops nothing half-started.
  const users =
    options.usersFile === undefined || options.httpUser !== undefined
      ? undefined
      : readUsersFile(options.usersFile);
  const auditLogger = createAuditLogger(log, options.auditLog);
  const root = options.restconfRoot ?? '/restconf';
  const audit = createAudit(auditLogger.log, root.replace(/\/+$/, '') || '/restconf');
  const limits = limitsOf(options);
  const metrics = new GatewayMetrics();
  const login = basic ? basicLogin(options, users, limits, metrics, audit) : undefined;

  let setup: BackendSetup;
  try {
    setup =
      options.netconf === undefined
        ? await startEmbedded(options, { warn: (message) => log.warn(message) })
        : await startRemote(options);
  } catch (error) {
    auditLogger.close();
    throw error;
  }
  let handler: RestconfHandler | undefined;
  const encoding = refusalEncoding(options);
  const limit = requestLimit(limits.requestsPerClient, encoding);
  const monitoring = monitoringAccess({
    encoding,
    users: authenticated ? monitoringUsers(options) : undefined,
    metrics: options.metrics === true,
    serverStatus: options.serverStatus === true,
  });
  // The OpenAPI documents and the explorer (on by default on loopback only), beside the root.
  const explorer = options.explorer ?? loopback;
  const docs = options.withRestconf === false ? undefined : apiDocs(setup, options, explorer);
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (!monitoring(req, res)) {
      audit.refused(req, res, 'access-denied', 'only monitoring users may read this page');
      return;
    }
    if (!limit(req, res)) {
      audit.refused(req, res, 'resource-denied', 'too many requests in progress for this client');
      return;
    }
    if (docs?.(req, res)) return;
    handler!(req, res);
  };
  const unauthenticated = authenticated
    ? unauthenticatedConnections(limits.unauthenticatedConnections, () => metrics.unauthenticatedClosed.inc())
    : undefined;
  const admit = (req: IncomingMessage, res: ServerResponse, user: string): void => {
    setRemoteUser(req, user);
    unauthenticated?.authenticated(req);
    serve(req, res);
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    audit.begin(req, res);
    // RFC 8040 section 2.5: a verified client certificate names the user; Basic is the fallback.
    const fromCert = certUser?.(req);
    if (fromCert !== undefined) admit(req, res, fromCert);
    else if (login !== undefined)
      void login(req, res).then((user) => {
        if (user !== undefined) admit(req, res, user);
      });
    else if (certUser !== undefined) {
      denyAccess(req, res, false, encoding);
      audit.refused(req, res, 'access-denied', 'authentication required');
    } else serve(req, res);
  };
  let http: Server | GatewayHttp2Server;
  let closer: ConnectionCloser;
  if (pem !== undefined && options.http2 !== false) {
    ({ server: http, closer } = createHttp2Server(pem, listener, {
      onStreamReset: (reason) => metrics.streamResets.inc({ reason }),
      ...(unauthenticated === undefined ? {} : { onConnection: unauthenticated.opened }),
    }));
  } else {
    const server = pem === undefined ? createServer(listener) : createHttpsServer(pem, listener);
    if (unauthenticated !== undefined)
      server.on(pem === undefined ? 'connection' : 'secureConnection', unauthenticated.opened);
    http = server;
    closer = http1Closer(server);
  }
  // What Node's HTTP/1 parser refuses is answered with an errors body too.
  http.on('clientError', clientErrorAnswer(encoding));
  // The user of a certificate is kept per connection: no renegotiation may swap the certificate.
  if (certUser !== undefined)
    http.on('secureConnection', (socket: TLSSocket) => socket.disableRenegotiation());
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 8080, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await setup.backend.close();
    await setup.close();
    auditLogger.close();
    throw new GatewayError(
      'LISTEN',
      `cannot listen on ${host}:${options.port ?? 8080}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const port = (http.address() as AddressInfo).port;
  const subscriptionLimits = {
    maxPerUser: options.maxSubscriptionsPerUser ?? SUBSCRIPTION_DEFAULTS.maxPerUser,
    maxTotal: options.maxSubscriptions ?? SUBSCRIPTION_DEFAULTS.maxTotal,
    receiveWithinSeconds: options.subscriptionReceiveTimeout ?? SUBSCRIPTION_DEFAULTS.receiveWithinSeconds,
  };
  const eventQueueBytes = options.eventQueueBytes ?? EVENT_QUEUE_DEFAULTS.maxQueuedBytes;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  handler = createRestconfHandler({
    schema: setup.schema,
    backend: setup.backend,
    root,
    serverUrl: options.restconfServerUrl ?? url,
    logger: handlerLogger(log),
    audit: audit.listener,
    ...encoding,
    ...(options.simpleJsonNames === undefined ? {} : { simpleJsonNames: options.simpleJsonNames }),
    ...(options.messageIndent === undefined ? {} : { messageIndent: options.messageIndent }),
    ...(options.defaultStyle === undefined ? {} : { defaultStyle: options.defaultStyle }),
    ...(options.returnEmptyNpcontainers === undefined
      ? {}
      : { returnEmptyNpContainers: options.returnEmptyNpcontainers }),
    ...(options.systemSorted === undefined ? {} : { systemSorted: options.systemSorted }),
    ...(options.systemSortType === undefined ? {} : { systemSortType: options.systemSortType }),
    ...(options.wildcardKeys === undefined ? {} : { wildcardKeys: options.wildcardKeys }),
    ...(options.withRestconf === undefined ? {} : { withRestconf: options.withRestconf }),
    ...(options.withYangMetadata === undefined ? {} : { withYangMetadata: options.withYangMetadata }),
    ...(options.withJsonMetadata === undefined ? {} : { withJsonMetadata: options.withJsonMetadata }),
    ...(options.restconfCapability === undefined ? {} : { capabilities: options.restconfCapability }),
    ...(options.serverStatus === undefined ? {} : { serverStatus: options.serverStatus }),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    maxKeyLength: limits.keyLength,
    maxStringLength: limits.stringLength,
    maxBodyNodes: limits.bodyNodes,
    maxBodiesDecoding: limits.bodiesDecoding,
    maxBodiesWaiting: limits.bodiesWaiting,
    maxHeapPercent: limits.heapPercent,
    ...(limits.idleCollection ? idleCollectors() : {}),
    ...(options.withNmda === undefined ? {} : { withNmda: options.withNmda }),
    ...(options.sseKeepalive === undefined ? {} : { sseKeepalive: options.sseKeepalive }),
    streams: {
      maxQueuedBytes: eventQueueBytes,
      // The handler's own evaluation of a stream's filter is bounded as the embedded server's.
      ...(options.maxXpathWork === undefined ? {} : { maxXPathWork: options.maxXpathWork }),
    },
    // The NACM recovery user sees every user's subscriptions in the state; others their own.
    subscriptions: {
      ...subscriptionLimits,
      admins: options.nacmAdmin === undefined ? [] : [options.nacmAdmin],
    },
  });
  if (handler.metricsRegistry !== undefined) metrics.register(handler.metricsRegistry);
  const gateway: Gateway = {
    url,
    root,
    http,
    handler,
    backend: setup,
    async close() {
      // Graceful: stop accepting, end the event streams, let requests in progress finish (up to
      // a bound), then end the NETCONF sessions.
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      await handler!.close();
      closer.close(SHUTDOWN_GRACE_MS);
      await closed;
      await setup.close();
      auditLogger.close();
    },
  };
  try {
    await handler.ready;
  } catch (error) {
    await gateway.close();
    throw new GatewayError('BACKEND', `the NETCONF backend did not start: ${(error as Error).message}`, {
      cause: error,
    });
  }
  log.info(`serving RESTCONF at ${url}${root} with the ${setup.description}`);
  if (setup.sshListener !== undefined) {
    const a = setup.sshListener.address;
    log.info(
      `serving NETCONF over SSH on ${a.address}:${a.port} for user ${options.netconfSshUser ?? 'netconf'}`,
    );
  }
  const updateBytes = setup.netconf?.subscriptionLimits.updateBytes;
  const xpathWork = setup.netconf?.maxXPathWork;
  if (xpathWork !== undefined) log.info(`XPath filters: ${xpathWork} units of work per evaluation`);
  log.info(
    `subscriptions: ${subscriptionLimits.maxPerUser} per user, ${subscriptionLimits.maxTotal} in all, ${subscriptionLimits.receiveWithinSeconds} s to GET the uri; ${eventQueueBytes} bytes queued per event stream client or unreceived subscription${updateBytes === undefined ? '' : `; ${updateBytes} bytes of content per YANG Push update`}`,
  );
  log.info(
    limitsLine(limits, {
      http,
      http2: pem !== undefined && options.http2 !== false,
      authenticated,
      basic,
      usersFile: users !== undefined,
    }),
  );
  if (docs !== undefined) {
    log.info(
      `OpenAPI documents at ${url}/openapi.json${explorer ? `, the explorer at ${url}/explorer/` : ''}`,
    );
  }
  if (options.serverStatus === true) log.info(`server status at ${url}/server-status`);
  if (options.metrics === true) log.info(`Prometheus metrics at ${url}/metrics`);
  if (pem !== undefined && options.http2 !== false) log.info('HTTP/2 and HTTP/1.1 by ALPN');
  if (certUser !== undefined)
    log.info(
      `client certificates ${options.tlsClientAuth === 'require' ? 'required' : 'requested'}: a verified one is mapped to a user${basic ? ', else HTTP Basic' : ''}`,
    );
  if (!authenticated) log.warn(`no authentication: every client that can reach ${host} may read and edit`);
  if (setup.tryFirst !== undefined && !authenticated && !tls)
    log.info(`try: curl -s ${url}${root}${setup.tryFirst}`);
  return gateway;
}

/**
 * The collection the handler runs once the gateway is quiet (`--idle-collection`). Not the shrink
 * of the young generation (`collectYoungGeneration`): the young generation is the process's, and the
 * `restconf-gateway` command keeps it small at all times instead (4 MiB semi-spaces).
 */
function idleCollectors(): { collectGarbage: () => void } {
  return { collectGarbage: garbageCollector() };
}

/** The users who may read the monitoring pages: those named, else the administrator. */
function monitoringUsers(options: GatewayOptions): ReadonlySet<string> {
  if (options.monitoringUser !== undefined) return new Set(options.monitoringUser);
  const admin = options.nacmAdmin ?? options.httpUser;
  return new Set(admin === undefined ? [] : [admin]);
}

/**
 * HTTP Basic logins of `--http-user` or `--users-file`, throttled per address and user name;
 * refused ones are counted in `metrics` and written to the audit trail.
 */
function basicLogin(
  options: GatewayOptions,
  users: ReadonlyMap<string, string> | undefined,
  limits: LoginLimits,
  metrics: GatewayMetrics,
  audit: GatewayAudit,
) {
  const check =
    users === undefined
      ? singleUserCheck(options.httpUser!, options.httpPassword ?? '')
      : usersFileCheck(users, () => metrics.passwordChecks.inc());
  return basicAuth({
    check,
    encoding: refusalEncoding(options),
    throttle: new LoginThrottle(limits),
    onRefused(req, res, { reason, user, answer }) {
      if (reason !== 'no-credentials') metrics.loginFailures.inc({ reason });
      if (reason === 'invalid-credentials') audit.loginFailed(req, res, user ?? '');
      else audit.refused(req, res, answer.errorTag, answer.message);
    },
  });
}
