import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRestconfHandler, type RestconfHandler } from '@yangkit/restconf-server';
import type { Logger as PinoLogger } from 'pino';
import { basicAuth } from './basic-auth.js';
import { type BackendSetup, startEmbedded } from './embedded.js';
import { GatewayError } from './errors.js';
import { createLogger, handlerLogger } from './logger.js';
import { checkOptions, type GatewayOptions } from './options.js';
import { startRemote } from './remote.js';
import { requestLimit } from './security/request-limit.js';
import { readUsersFile, usersAuth } from './security/users-file.js';

/** How long shutdown waits for requests in progress before closing their connections. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A running gateway. */
export interface Gateway {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The RESTCONF root path (`/restconf`). */
  readonly root: string;
  readonly http: Server;
  readonly handler: RestconfHandler;
  /** The backend, its schema and (when embedded) the NETCONF server. */
  readonly backend: BackendSetup;
  /** Stops listening, ends open connections and NETCONF sessions, stops the embedded server. */
  close(): Promise<void>;
}

/** Extra wiring of {@link startGateway} that has no flag. */
export interface StartContext {
  /** Where to log (default: pino on stderr at `options.logLevel`). */
  readonly logger?: PinoLogger;
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function readPem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new GatewayError('FILE', `cannot read ${flag} ${file}`, { cause: error });
  }
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
  const log = context.logger ?? createLogger(options.logLevel ?? 'info');
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopback(host);
  const tls = options.tlsCert !== undefined && options.tlsKey !== undefined;
  const authenticated = options.httpUser !== undefined || options.usersFile !== undefined;
  // Basic credentials in clear on a network are as good as none (RFC 8040 section 2: TLS is required).
  if (!loopback && options.insecure !== true && (!authenticated || !tls)) {
    throw new GatewayError(
      'INVALID_FLAG',
      `refusing to serve ${host} without ${authenticated ? 'TLS' : 'authentication'}: add ${authenticated ? '--tls-cert and --tls-key' : '--http-user or --users-file'}, listen on 127.0.0.1, or pass --insecure`,
    );
  }
  const pem = tls
    ? { cert: readPem(options.tlsCert!, '--tls-cert'), key: readPem(options.tlsKey!, '--tls-key') }
    : undefined;

  const setup = options.netconf === undefined ? await startEmbedded(options) : await startRemote(options);
  let handler: RestconfHandler | undefined;
  const auth =
    options.httpUser === undefined ? undefined : basicAuth(options.httpUser, options.httpPassword ?? '');
  const limit =
    options.maxRequestsPerClient === undefined ? undefined : requestLimit(options.maxRequestsPerClient);
  const users = options.usersFile === undefined ? undefined : usersAuth(readUsersFile(options.usersFile));
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (limit !== undefined && !limit(req, res)) return;
    handler!(req, res);
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (auth !== undefined && !auth(req, res)) return;
    if (users === undefined) serve(req, res);
    else void users(req, res).then((ok) => ok && serve(req, res));
  };
  const http: Server = pem === undefined ? createServer(listener) : createHttpsServer(pem, listener);
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
    throw new GatewayError(
      'LISTEN',
      `cannot listen on ${host}:${options.port ?? 8080}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const port = (http.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const root = options.restconfRoot ?? '/restconf';
  handler = createRestconfHandler({
    schema: setup.schema,
    backend: setup.backend,
    root,
    serverUrl: options.restconfServerUrl ?? url,
    logger: handlerLogger(log),
    ...(options.restconfDefaultEncoding === undefined
      ? {}
      : { defaultEncoding: options.restconfDefaultEncoding }),
    ...(options.restconfStrictHeaders === undefined ? {} : { strictHeaders: options.restconfStrictHeaders }),
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
    ...(options.withNmda === undefined ? {} : { withNmda: options.withNmda }),
    ...(options.sseKeepalive === undefined ? {} : { sseKeepalive: options.sseKeepalive }),
  });
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
      http.closeIdleConnections();
      const timer = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await closed;
      clearTimeout(timer);
      await setup.close();
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
  if (options.serverStatus === true) log.info(`server status at ${url}/server-status`);
  if (options.metrics === true) log.info(`Prometheus metrics at ${url}/metrics`);
  if (auth === undefined && users === undefined)
    log.warn(`no authentication: every client that can reach ${host} may read and edit`);
  return gateway;
}
