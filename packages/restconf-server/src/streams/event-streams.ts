import type { QueryParameters } from '@yangkit/restconf-uri';
import { SSE_HEADERS, type SseWriter } from '@yangkit/sse-stream';
import type { Backend, BackendNotification, EventStreamInfo } from '../backend.js';
import type { Settings } from '../context.js';
import { RestconfError } from '../errors.js';
import { checkEventStreamAccept, type Encoding } from '../media.js';
import type { Responder } from '../response.js';
import { requesterOf } from '../subscriptions/requester.js';
import { EventDelivery } from './event-delivery.js';
import { compileEventFilter } from './event-filter.js';
import { LiveFeeds } from './live-feed.js';
import { MessageCache } from './notification-message.js';
import { streamsXml } from './stream-list.js';
import type { StreamSettings } from './stream-options.js';

/** A stream resource request: `/stream`, `/streams` or `/streams/<encoding>-<name>`. */
export interface StreamTarget {
  readonly encoding?: string;
  readonly name?: string;
}

/** Counters of the event streams, for tests and `/server-status`. */
export interface EventStreamStats {
  /** SSE responses open now. */
  readonly open: number;
  /** Notifications written to clients since the start. */
  readonly sent: number;
  /** Clients disconnected because their queue overflowed. */
  readonly overflowed: number;
}

/**
 * The handler's event streams (RFC 8040 section 6): the backend's stream list for
 * `restconf-state/streams`, and one SSE response per GET on a stream resource, each fed by a
 * NETCONF session of its own that holds one RFC 5277 subscription and ends with the response.
 */
export interface EventStreams {
  readonly settings: StreamSettings;
  /** Takes the backend's streams (once the backend started). */
  discover(backend: Backend): void;
  /** The streams known now. */
  list(): readonly EventStreamInfo[];
  /** `restconf-state/streams` as XML. */
  streamsXml(serverUrl: string, root: string): string;
  /** Serves a GET or HEAD on a stream resource until the client leaves or the stream ends. */
  serve(s: Settings, out: Responder, target: StreamTarget, query: QueryParameters): Promise<void>;
  stats(): EventStreamStats;
  /** Ends every open stream (graceful shutdown); their NETCONF sessions end with them. */
  close(): void;
}

/** Creates the event stream service of one handler. */
export function createEventStreams(settings: StreamSettings): EventStreams {
  let streams: readonly EventStreamInfo[] = [];
  const open = new Set<SseWriter>();
  let sent = 0;
  let overflowed = 0;
  const messages = new MessageCache();
  let live: LiveFeeds;

  return {
    settings,
    discover(backend) {
      live = new LiveFeeds(backend);
      streams = backend.capabilities.streams;
    },
    list: () => streams,
    streamsXml: (serverUrl, root) => streamsXml(streams, serverUrl, root),
    stats: () => ({ open: open.size, sent, overflowed }),
    close() {
      for (const w of [...open]) void w.close();
    },
    async serve(s, out, target, query) {
      const name = target.name ?? 'NETCONF';
      const encoding = encodingOf(target.encoding, s.defaultEncoding);
      const info = streams.find((x) => x.name === name);
      if (info === undefined) {
        throw new RestconfError('NOT_FOUND', `no event stream '${name}'`, {
          errorTag: 'invalid-value',
        });
      }
      checkEventStreamAccept(out.req.headers.accept, 'a stream resource');
      const filter =
        query.filter === undefined
          ? undefined
          : compileEventFilter(s.schema, query.filter, settings.maxXPathWork);
      const startTime = query.startTime?.text;
      const stopTime = query.stopTime?.text;
      if (startTime !== undefined && !info.replaySupport) {
        throw new RestconfError('REQUEST_INVALID', `stream '${name}' has no replay`, {
          errorType: 'protocol',
          errorTag: 'invalid-value',
        });
      }
      if (out.head) {
        out.status = 200;
        out.res.writeHead(200, { ...SSE_HEADERS });
        out.res.end();
        return;
      }
      const writerOptions = {
        keepaliveSeconds: settings.keepaliveSeconds,
        maxQueuedEvents: settings.maxQueuedEvents,
        maxQueuedBytes: settings.maxQueuedBytes,
        overflow: 'close' as const,
        // One write per client per turn, whatever the burst of events.
        coalesceWrites: true,
        ...(settings.retryMs === undefined ? {} : { retryMs: settings.retryMs }),
      };
      const atBackend = settings.backendFilter && filter !== undefined && s.backend.capabilities.xpath;
      /**
       * Passes the notifications of `writer`'s client on, in order: through the filter when it is
       * evaluated here, and encoded, in steps (see `EventDelivery`), dropped with the client.
       */
      const forwarding = (writer: SseWriter): Forwarding => {
        const delivery = new EventDelivery(
          {
            schema: s.schema,
            filter: atBackend ? undefined : filter,
            messages,
            format: { encoding, indent: s.messageIndent },
            maxWaiting: settings.maxQueuedEvents,
          },
          {
            send: (_n, event) => {
              if (!writer.isClosed && writer.sendEncoded(event)) sent++;
            },
            notEncoded: (_n, error) =>
              s.logger?.warn(`notification not encoded: ${(error as Error).message}`),
            overBound: (n) =>
              s.logger?.warn(
                `event stream ${name}: a client's filter needs more than the limit of ${settings.maxXPathWork} units of work (maxXPathWork) on an event of ${n.eventTime}, which is not sent (nor any other it passes the limit on)`,
              ),
            overflow: () => {
              s.logger?.warn(
                `event stream ${name}: ${settings.maxQueuedEvents} events wait for a client's filter or their encoding; the client is disconnected`,
              );
              void writer.close();
            },
          },
        );
        void writer.closed.then(() => delivery.clear());
        return { forward: (n) => delivery.deliver(n), sent: () => delivery.sent() };
      };
      const track = (writer: SseWriter): void => {
        open.add(writer);
        void writer.closed.then((info) => {
          open.delete(writer);
          if (info.reason !== 'overflow') return;
          overflowed++;
          s.logger?.warn(
            `event stream ${name}: a client read too slowly and was disconnected (its queue reached ${settings.maxQueuedBytes} bytes or ${settings.maxQueuedEvents} events)`,
          );
        });
      };

      if (startTime === undefined && !atBackend) {
        // A live subscription: shared with the other clients of the stream and the same user.
        let writer: SseWriter | undefined;
        let forward: ((n: BackendNotification) => void) | undefined;
        const early: BackendNotification[] = [];
        const leave = await live.join(name, requesterOf(out.req), {
          deliver(n) {
            if (writer === undefined || forward === undefined) {
              if (early.length < settings.maxQueuedEvents) early.push(n);
            } else if (!writer.isClosed) forward(n);
          },
          end() {
            void writer?.close();
          },
        });
        // The client left (or fell too far behind): it leaves the feed at once, and the feed's
        // NETCONF session ends with its last client.
        writer = out.eventStream({ ...writerOptions, onClose: () => leave() });
        track(writer);
        forward = forwarding(writer).forward;
        for (const n of early.splice(0)) forward(n);
        await writer.closed;
        return;
      }

      // A replay (or a filter the backend evaluates): a subscription of its own.
      const subscription = await s.backend.subscribe({
        stream: name,
        ...(atBackend ? { filter: filter.forBackend } : {}),
        ...(startTime === undefined ? {} : { startTime }),
        ...(stopTime === undefined ? {} : { stopTime }),
        user: requesterOf(out.req),
      });
      // The client left (or fell too far behind): its subscription ends at once.
      const writer = out.eventStream({ ...writerOptions, onClose: () => subscription.close() });
      track(writer);
      const { forward, sent: forwarded } = forwarding(writer);
      try {
        // The iteration ends with the subscription (RFC 5277 section 2.2.3: after notificationComplete).
        for await (const n of subscription) {
          if (writer.isClosed) break;
          forward(n);
        }
        // What still waits for the filter goes out before the end (unless the client left).
        await Promise.race([forwarded(), writer.closed]);
      } finally {
        // The stream ended (stop-time, backend gone, client gone): the client may reconnect.
        void writer.close();
        subscription.close();
      }
    },
  };
}

/** How one client's notifications are passed on (see `forwarding` in {@link createEventStreams}). */
interface Forwarding {
  forward(n: BackendNotification): void;
  /** Resolves once what was forwarded before is sent (or dropped). */
  sent(): Promise<void>;
}

function encodingOf(text: string | undefined, fallback: Encoding): Encoding {
  if (text === undefined) return fallback;
  if (text === 'xml' || text === 'json') return text;
  throw new RestconfError('NOT_FOUND', `no stream encoding '${text}'`, {
    errorTag: 'invalid-value',
  });
}
