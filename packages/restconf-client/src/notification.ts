import { childElement, childElements, textOf } from '@yangkit/xml';
import { RestconfClientError } from './errors.js';
import { readBodyXml } from './xml.js';

/** One notification received on an event stream or subscription. */
export interface RestconfNotification {
  /** `eventTime` of the notification (RFC 5277 / RFC 8040 section 6.4). */
  readonly eventTime: string;
  /** The event's qualified name: `module:name` in JSON, the element's local name in XML. */
  readonly event: string;
  /**
   * The event content: the JSON value of the event member, or for XML the whole
   * `<notification>` document text (decode it with a YANG-aware codec).
   */
  readonly data: unknown;
  /** The SSE `id` of the event, when the server numbers its events. */
  readonly id?: string;
  /** The raw `data` of the SSE event. */
  readonly raw: string;
}

/**
 * Decodes the `data` of one SSE event into a notification (RFC 8040 section 6.4). JSON:
 *
 *     { "ietf-restconf:notification": { "eventTime": "2016-11-23T...", "example-mod:event": {...} } }
 *
 * XML: `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>...
 * </eventTime><event xmlns="...">...</event></notification>`.
 *
 * @throws {RestconfClientError} `INVALID_RESPONSE` for data that is no notification
 */
export function decodeNotification(raw: string, id?: string): RestconfNotification {
  const base = id === undefined ? { raw } : { raw, id };
  if (/^\s*</.test(raw)) {
    const notification = readBodyXml(raw);
    const time = childElement(notification, 'eventTime');
    const event = childElements(notification).find((e) => e !== time)?.local;
    if (notification.local !== 'notification' || time === undefined || event === undefined) {
      throw notANotification();
    }
    return { ...base, eventTime: textOf(time).trim(), event, data: raw };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (error) {
    throw new RestconfClientError('INVALID_RESPONSE', 'event data is neither JSON nor XML', { cause: error });
  }
  const notification =
    typeof doc === 'object' && doc !== null
      ? (doc as Record<string, unknown>)['ietf-restconf:notification']
      : undefined;
  if (typeof notification !== 'object' || notification === null) throw notANotification();
  const record = notification as Record<string, unknown>;
  const eventTime = record.eventTime;
  const event = Object.keys(record).find((k) => k !== 'eventTime');
  if (typeof eventTime !== 'string' || event === undefined) throw notANotification();
  return { ...base, eventTime, event, data: record[event] };
}

function notANotification(): RestconfClientError {
  return new RestconfClientError('INVALID_RESPONSE', 'event data holds no notification with an eventTime');
}
