import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Registry } from 'prom-client';

/** A count by reason, kept whether or not metrics are served. */
class Count {
  readonly byReason = new Map<string, number>();

  inc(labels: { readonly reason: string } = { reason: '' }): void {
    this.byReason.set(labels.reason, (this.byReason.get(labels.reason) ?? 0) + 1);
  }
}

/** A metric of {@link GatewayMetrics}: its name, help and labels (`reason`, or none). */
interface Described {
  readonly name: string;
  readonly help: string;
  readonly labelled: boolean;
  readonly count: Count;
}

/**
 * The gateway's own counters: what it refuses or resets before the RESTCONF handler. They are
 * plain counts; once {@link register}ed in the handler's registry they are served at `/metrics`,
 * read when it is scraped, so that prom-client is loaded only by a gateway started with `--metrics`.
 */
export class GatewayMetrics {
  readonly loginFailures = new Count();
  readonly passwordChecks = new Count();
  readonly streamResets = new Count();
  readonly unauthenticatedClosed = new Count();

  private described(): readonly Described[] {
    return [
      {
        name: 'restconf_login_failures_total',
        help: 'Logins refused, by reason: invalid-credentials (401), throttled (429: too many failures or logins in progress for the address or user name), busy (503: too many logins waiting for a password check)',
        labelled: true,
        count: this.loginFailures,
      },
      {
        name: 'restconf_password_checks_total',
        help: 'scrypt password checks run: one per login not let in from the cache of verified credentials, whether the user exists or not',
        labelled: false,
        count: this.passwordChecks,
      },
      {
        name: 'restconf_http2_stream_resets_total',
        help: 'HTTP/2 streams the server reset, by reason: answered (RST_STREAM NO_ERROR after the answer to a request the client had not ended), request-timeout (CANCEL: the request did not arrive whole within the request timeout)',
        labelled: true,
        count: this.streamResets,
      },
      {
        name: 'restconf_unauthenticated_connections_closed_total',
        help: 'Connections that had not authenticated a request, closed to stay within --max-unauthenticated-connections',
        labelled: false,
        count: this.unauthenticatedClosed,
      },
    ];
  }

  /** Adds the counters to `registry` (the handler's, which `/metrics` serves). */
  register(registry: Registry): void {
    const { Counter } = createRequire(import.meta.url)('prom-client') as typeof PromClient;
    for (const { name, help, labelled, count } of this.described())
      new Counter({
        name,
        help,
        labelNames: labelled ? ['reason'] : [],
        registers: [registry],
        collect() {
          this.reset();
          for (const [reason, n] of count.byReason) {
            if (labelled) this.inc({ reason }, n);
            else this.inc(n);
          }
        },
      });
  }
}
