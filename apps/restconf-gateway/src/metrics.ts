import { Counter, type Registry } from 'prom-client';

/**
 * The gateway's own Prometheus counters: what it refuses or resets before the RESTCONF handler,
 * served at `/metrics` beside the handler's metrics once {@link register}ed in its registry.
 */
export class GatewayMetrics {
  readonly loginFailures = new Counter({
    name: 'restconf_login_failures_total',
    help: 'Logins refused, by reason: invalid-credentials (401), throttled (429: too many failures or logins in progress for the address or user name), busy (503: too many logins waiting for a password check)',
    labelNames: ['reason'] as const,
    registers: [],
  });
  readonly passwordChecks = new Counter({
    name: 'restconf_password_checks_total',
    help: 'scrypt password checks run: one per login not let in from the cache of verified credentials, whether the user exists or not',
    registers: [],
  });
  readonly streamResets = new Counter({
    name: 'restconf_http2_stream_resets_total',
    help: 'HTTP/2 streams the server reset, by reason: answered (RST_STREAM NO_ERROR after the answer to a request the client had not ended), request-timeout (CANCEL: the request did not arrive whole within the request timeout)',
    labelNames: ['reason'] as const,
    registers: [],
  });
  readonly unauthenticatedClosed = new Counter({
    name: 'restconf_unauthenticated_connections_closed_total',
    help: 'Connections that had not authenticated a request, closed to stay within --max-unauthenticated-connections',
    registers: [],
  });

  /** Adds the counters to `registry` (the handler's, which `/metrics` serves). */
  register(registry: Registry): void {
    for (const metric of [
      this.loginFailures,
      this.passwordChecks,
      this.streamResets,
      this.unauthenticatedClosed,
    ])
      registry.registerMetric(metric);
  }
}
