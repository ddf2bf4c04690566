import { CLIENT_MAX_WORK } from '@yangkit/yang-xpath';
import { RestconfError } from '../errors.js';

/** Options of event streams (RFC 8040 section 6) given to `createRestconfHandler`. */
export interface EventStreamOptions {
  /**
   * Seconds without output after which the comment `:SSE keepalive` is written: 0 (off) or
   * 5..3600 (`--sse-keepalive`, the `SSE_KEEPALIVE` setting; default 0).
   */
  readonly keepaliveSeconds?: number;
  /** Bound of each client's queue in events; a client past it is disconnected (default 1000). */
  readonly maxQueuedEvents?: number;
  /** Bound of each client's queue in bytes (default 1 MiB). */
  readonly maxQueuedBytes?: number;
  /**
   * Hand the `filter` to a backend with `:xpath` instead of evaluating it here (default false:
   * yuma123 netconfd drops the connection on an XPath `create-subscription` filter).
   */
  readonly backendFilter?: boolean;
  /** Reconnection delay sent to clients as the SSE `retry:` field, in ms (default: none sent). */
  readonly retryMs?: number;
  /**
   * Units of work (nodes an axis visits, predicates evaluated; yang-xpath's `maxWork`) the `filter`
   * of a stream request may take on one event when it is evaluated here (default yang-xpath's
   * `CLIENT_MAX_WORK`, 5,000,000): past it the event is not sent to that client (RFC 5277 section 3.6:
   * not selected), which is logged at warn once per client. A filter such as `//*[count(//*) > 0]`
   * costs the square of the event.
   */
  readonly maxXPathWork?: number;
}

/** The default queue bounds of {@link EventStreamOptions}. */
export const EVENT_QUEUE_DEFAULTS = { maxQueuedEvents: 1000, maxQueuedBytes: 1024 * 1024 } as const;

/** {@link EventStreamOptions} with every default filled in. */
export interface StreamSettings {
  readonly keepaliveSeconds: number;
  readonly maxQueuedEvents: number;
  readonly maxQueuedBytes: number;
  readonly retryMs: number | undefined;
  readonly backendFilter: boolean;
  readonly maxXPathWork: number;
}

/** Checks and completes the stream options; an out-of-range keepalive is `INVALID_OPTION`. */
export function streamSettings(options: EventStreamOptions = {}, sseKeepalive?: number): StreamSettings {
  const keepaliveSeconds = sseKeepalive ?? options.keepaliveSeconds ?? 0;
  // The spec's SSE_KEEPALIVE: uint16, range 0 | 5..3600.
  if (
    !Number.isInteger(keepaliveSeconds) ||
    (keepaliveSeconds !== 0 && (keepaliveSeconds < 5 || keepaliveSeconds > 3600))
  ) {
    throw new RestconfError(
      'INVALID_OPTION',
      `SSE keepalive ${keepaliveSeconds} is not 0 or 5..3600 seconds`,
      {
        errorTag: 'invalid-value',
      },
    );
  }
  const positive = (name: string, value: number): number => {
    if (!Number.isInteger(value) || value < 1) {
      throw new RestconfError('INVALID_OPTION', `${name} ${value} is not a positive integer`, {
        errorTag: 'invalid-value',
      });
    }
    return value;
  };
  return {
    keepaliveSeconds,
    maxQueuedEvents: positive(
      'maxQueuedEvents',
      options.maxQueuedEvents ?? EVENT_QUEUE_DEFAULTS.maxQueuedEvents,
    ),
    maxQueuedBytes: positive('maxQueuedBytes', options.maxQueuedBytes ?? EVENT_QUEUE_DEFAULTS.maxQueuedBytes),
    backendFilter: options.backendFilter ?? false,
    maxXPathWork: positive('maxXPathWork', options.maxXPathWork ?? CLIENT_MAX_WORK),
    retryMs: options.retryMs === undefined ? undefined : positive('retryMs', options.retryMs),
  };
}
