import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { Backend } from './backend.js';
import type { BodyAdmissionStats } from './body-admission.js';
import type { Responder } from './response.js';
import type { EventStreamStats } from './streams/index.js';
import type { SubscriptionStats } from './subscriptions/index.js';

/** Request counters kept for `/server-status` and the metrics. */
export class RequestStats {
  readonly started = Date.now();
  readonly byStatus = new Map<number, number>();
  total = 0;
  /** The responses being written, event streams among them. */
  readonly inProgress = new Set<Responder>();

  /** Requests being answered. */
  get inFlight(): number {
    return this.inProgress.size;
  }

  /**
   * True while a request is being answered that is not an event stream (RFC 8040 or RFC 8650):
   * a stream stays open as long as its client, and is no request being answered.
   */
  answering(): boolean {
    for (const out of this.inProgress) if (!out.streaming) return true;
    return false;
  }

  /** Records a finished request. */
  record(status: number): void {
    this.total++;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }
}

/**
 * The `/server-status` document: uptime, requests by status, requests in flight (open event
 * streams among them), the event streams (SSE) open, RFC 8650 subscriptions, the body admission
 * and NETCONF sessions.
 */
export function serverStatusJson(
  stats: RequestStats,
  backend: Backend,
  subs: SubscriptionStats,
  events: EventStreamStats,
  bodies: BodyAdmissionStats,
): string {
  const b = backend.stats();
  return JSON.stringify({
    'uptime-seconds': Math.floor((Date.now() - stats.started) / 1000),
    requests: {
      total: stats.total,
      'in-flight': stats.inFlight,
      'by-status': Object.fromEntries([...stats.byStatus].sort((x, y) => x[0] - y[0])),
    },
    'active-streams': events.open,
    subscriptions: { open: subs.open, 'queued-bytes': subs.queuedBytes },
    'request-bodies': {
      decoding: bodies.decoding,
      waiting: bodies.waiting,
      refused: bodies.refused,
      'idle-collections': bodies.collections,
      'young-collections': bodies.youngCollections,
    },
    'netconf-sessions': { open: b.sessions, idle: b.idle, active: b.active },
  });
}

/**
 * prom-client, required when metrics are asked for rather than imported: its modules cost a
 * process some megabytes of memory that a server without `/metrics` never needs.
 */
function loadPromClient(): typeof PromClient {
  return createRequire(import.meta.url)('prom-client') as typeof PromClient;
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
    const { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } = loadPromClient();
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
    const registers = [this.registry];
    // Values kept elsewhere, read when /metrics is scraped.
    const gauge = (name: string, help: string, read: () => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    };
    const counter = (name: string, help: string, read: () => number): void => {
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    };
    gauge(
      'restconf_netconf_sessions',
      'NETCONF sessions open to the backend',
      () => backend.stats().sessions,
    );
    gauge(
      'restconf_subscriptions',
      'RFC 8650 subscriptions established and not ended',
      () => subscriptions().open,
    );
    gauge(
      'restconf_subscription_queued_bytes',
      'Bytes of notifications held for subscriptions whose receiver has not connected',
      () => subscriptions().queuedBytes,
    );
    counter(
      'restconf_event_stream_overflows_total',
      'Event stream clients disconnected because they read too slowly (their queue reached its bound)',
      () => events().overflowed,
    );
    gauge(
      'restconf_bodies_decoding',
      'Request bodies holding a slot of the body admission: being read, decoded or applied',
      () => bodies().decoding,
    );
    gauge(
      'restconf_bodies_waiting',
      'Request bodies waiting for a slot of the body admission, none of their bytes read',
      () => bodies().waiting,
    );
    counter(
      'restconf_bodies_refused_total',
      'Requests answered 503 because too many bodies were being decoded and waiting, or 429 because their client held half of the places',
      () => bodies().refused,
    );
    counter(
      'restconf_idle_collections_total',
      'Full garbage collections run once no request had been answered and no big request body had been in progress for a while',
      () => bodies().collections,
    );
    counter(
      'restconf_young_collections_total',
      'Collections of the young generation run once the server was quiet, to let V8 shrink it',
      () => bodies().youngCollections,
    );
    gauge('restconf_requests_in_flight', 'RESTCONF requests being answered', () => stats.inFlight);
  }

  /** Records one finished request. */
  observe(method: string, status: number, seconds: number): void {
    this.requests.inc({ method, status: String(status) });
    this.duration.observe({ method }, seconds);
  }
}
