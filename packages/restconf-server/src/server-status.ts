import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Backend } from './backend.js';
import type { BodyAdmissionStats } from './body-admission.js';
import type { EventStreamStats } from './streams/index.js';
import type { SubscriptionStats } from './subscriptions/index.js';

/** Request counters kept for `/server-status` and the metrics. */
export class RequestStats {
  readonly started = Date.now();
  readonly byStatus = new Map<number, number>();
  total = 0;
  inFlight = 0;
  /** Open event streams (SSE); none are served by this version, so it stays 0. */
  streams = 0;

  /** Records a finished request. */
  record(status: number): void {
    this.total++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
}

/**
 * The `/server-status` document: uptime, requests by status, requests in flight, active
 * streams, RFC 8650 subscriptions and NETCONF sessions.
 */
export function serverStatusJson(
  stats: RequestStats,
  backend: Backend,
  subscriptions: () => SubscriptionStats,
): string {
  const b = backend.stats();
  const subs = subscriptions();
  return JSON.stringify({
    'uptime-seconds': Math.floor((Date.now() - stats.started) / 1000),
    requests: {
      total: stats.total,
      'in-flight': stats.inFlight,
      'by-status': Object.fromEntries([...stats.byStatus].sort((x, y) => x[0] - y[0])),
    },
    'active-streams': stats.streams,
    subscriptions: { open: subs.open, 'queued-bytes': subs.queuedBytes },
    'netconf-sessions': { open: b.sessions, idle: b.idle, active: b.active },
  });
}

/** Prometheus metrics of the handler (prom-client). */
export class Metrics {
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'status'>;
  private readonly duration: Histogram<'method'>;

  constructor(
    registry: Registry | undefined,
    backend: Backend,
    stats: RequestStats,
    subscriptions: () => SubscriptionStats,
    events: () => EventStreamStats,
    bodies: () => BodyAdmissionStats,
  ) {
    const own = registry === undefined;
    this.registry = registry ?? new Registry();
    if (own) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'restconf_requests_total',
      help: 'RESTCONF requests answered, by method and HTTP status',
      labelNames: ['method', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'restconf_request_duration_seconds',
      help: 'Time from request to the end of the response',
      labelNames: ['method'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    new Gauge({
      name: 'restconf_netconf_sessions',
      help: 'NETCONF sessions open to the backend',
      registers: [this.registry],
      collect() {
        this.set(backend.stats().sessions);
      },
    });
    new Gauge({
      name: 'restconf_subscriptions',
      help: 'RFC 8650 subscriptions established and not ended',
      registers: [this.registry],
      collect() {
        this.set(subscriptions().open);
      },
    });
    new Gauge({
      name: 'restconf_subscription_queued_bytes',
      help: 'Bytes of notifications held for subscriptions whose receiver has not connected',
      registers: [this.registry],
      collect() {
        this.set(subscriptions().queuedBytes);
      },
    });
    new Counter({
      name: 'restconf_event_stream_overflows_total',
      help: 'Event stream clients disconnected because they read too slowly (their queue reached its bound)',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(events().overflowed);
      },
    });
    new Gauge({
      name: 'restconf_bodies_decoding',
      help: 'Request bodies holding a slot of the body admission: being read, decoded or applied',
      registers: [this.registry],
      collect() {
        this.set(bodies().decoding);
      },
    });
    new Gauge({
      name: 'restconf_bodies_waiting',
      help: 'Request bodies waiting for a slot of the body admission, none of their bytes read',
      registers: [this.registry],
      collect() {
        this.set(bodies().waiting);
      },
    });
    new Counter({
      name: 'restconf_bodies_refused_total',
      help: 'Requests answered 503 because too many bodies were being decoded and waiting',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(bodies().refused);
      },
    });
    new Gauge({
      name: 'restconf_requests_in_flight',
      help: 'RESTCONF requests being answered',
      registers: [this.registry],
      collect() {
        this.set(stats.inFlight);
      },
    });
  }

  /** Records one finished request. */
  observe(method: string, status: number, seconds: number): void {
    this.requests.inc({ method, status: String(status) });
    this.duration.observe({ method }, seconds);
  }
}
