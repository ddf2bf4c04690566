import { readSse, SseError } from '@yangkit/sse-stream';
import { RestconfClientError } from './errors.js';
import { decodeNotification, type RestconfNotification } from './notification.js';
import { failFrom, MEDIA, open, type TransportSettings } from './transport.js';

/** Options of reading an event stream or a subscription. */
export interface StreamOptions {
  /** Stops reading; the loop then throws `ABORTED`. */
  readonly signal?: AbortSignal;
  /**
   * Reconnect after the connection ends or drops, sending `Last-Event-ID` (WHATWG SSE
   * section 9.2.4), when the server numbered its events. Default true.
   */
  readonly reconnect?: boolean;
  /** Reconnection attempts in a row before giving up. Default 5. */
  readonly maxReconnects?: number;
  /** Wait before reconnecting, unless the server sent `retry`. Default 1000 ms. */
  readonly retryMs?: number;
  /** Resume after this event id (sent as `Last-Event-ID` on the first request too). */
  readonly lastEventId?: string;
  /** Largest event, in characters. Default 1 MiB. */
  readonly maxEventSize?: number;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

const aborted = (signal: AbortSignal | undefined, cause?: unknown) =>
  new RestconfClientError('ABORTED', 'reading the event stream was aborted', {
    cause: cause ?? signal?.reason,
  });

/**
 * Reads the notifications of a `text/event-stream` resource (RFC 8040 section 6.3, RFC 8650
 * section 3.4) as they arrive. Each SSE event's `data` is one notification; keepalive
 * comments are skipped. When the connection ends and the server gave event ids, it
 * reconnects with `Last-Event-ID`; otherwise the iteration ends with the stream.
 */
export async function* readNotifications(
  settings: TransportSettings,
  url: URL,
  options: StreamOptions = {},
): AsyncGenerator<RestconfNotification, void, undefined> {
  const { signal } = options;
  let lastId = options.lastEventId;
  let retryMs = options.retryMs ?? 1000;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw aborted(signal);
    let dropped: unknown;
    try {
      const response = await open(settings, {
        method: 'GET',
        url,
        accept: MEDIA.eventStream,
        headers: {
          'cache-control': 'no-cache',
          ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
        },
        ...(signal ? { signal } : {}),
      });
      if (response.status >= 400) await failFrom(response, settings.maxResponseBytes);
      if (response.body === null)
        throw new RestconfClientError('INVALID_RESPONSE', 'event stream has no body');
      for await (const event of readSse(response.body, {
        ...(signal ? { signal } : {}),
        ...(options.maxEventSize === undefined ? {} : { maxEventSize: options.maxEventSize }),
        onRetry: (ms) => {
          retryMs = ms;
        },
      })) {
        if (event.id !== undefined) lastId = event.id;
        if (event.data === '') continue;
        failures = 0;
        yield decodeNotification(event.data, event.id);
      }
    } catch (error) {
      if (signal?.aborted) throw aborted(signal, error);
      if (SseError.isInstance(error)) {
        throw new RestconfClientError('INVALID_RESPONSE', error.message, { cause: error });
      }
      // Only a dropped connection is worth a retry; HTTP and decoding errors are final.
      if (RestconfClientError.isInstance(error) && error.code !== 'NETWORK') throw error;
      dropped = error;
    }
    const reconnect = (options.reconnect ?? true) && lastId !== undefined;
    if (!reconnect) {
      if (dropped === undefined) return;
      if (RestconfClientError.isInstance(dropped)) throw dropped;
      throw new RestconfClientError('NETWORK', `event stream dropped: ${(dropped as Error)?.message}`, {
        cause: dropped,
      });
    }
    failures++;
    if (failures > (options.maxReconnects ?? 5)) {
      throw new RestconfClientError(
        'NETWORK',
        `event stream lost after ${failures - 1} reconnection attempts`,
        {
          cause: dropped,
        },
      );
    }
    await sleep(retryMs, signal);
  }
}
