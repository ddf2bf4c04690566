import { escapeXmlText } from '@yangkit/xml';
import { encodeJson, encodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { BackendNotification } from '../backend.js';
import type { Encoding } from '../media.js';
import { NCEVENT_NS } from './stream-list.js';

const NOTIFICATION_NS = 'urn:ietf:params:xml:ns:netconf:notification:1.0';

/**
 * One notification as the text of an SSE event (RFC 8040 section 6.4). XML: the
 * `<notification>` element with `<eventTime>` and the event. JSON (RFC 8040 section 6.4, RFC 7951):
 * `{"ietf-restconf:notification":{"eventTime":"...","module:event":{...}}}`.
 */
export function notificationMessage(
  schema: SchemaTree,
  n: BackendNotification,
  encoding: Encoding,
  indent: number,
): string {
  const control = n.control;
  if (control !== undefined && schema.moduleByName('nc-notifications')?.implemented !== true) {
    // The schema may lack nc-notifications; these events have no content to encode.
    return encoding === 'xml'
      ? `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${escapeXmlText(n.eventTime)}</eventTime><${control} xmlns="${NCEVENT_NS}"/></notification>`
      : JSON.stringify({
          'ietf-restconf:notification': { eventTime: n.eventTime, [`nc-notifications:${control}`]: {} },
        });
  }
  return encoding === 'xml' ? encodeXml(n.tree) : encodeJson(n.tree, { indent });
}

/**
 * The encoded messages of the last few notifications, so that an event delivered to many clients
 * (of a shared feed) is encoded once per encoding, not once per client.
 */
export class MessageCache {
  readonly #entries = new WeakMap<BackendNotification, Map<Encoding, string>>();

  /** The message of `n` in `encoding`, from the cache or freshly encoded. */
  message(schema: SchemaTree, n: BackendNotification, encoding: Encoding, indent: number): string {
    let messages = this.#entries.get(n);
    if (messages === undefined) this.#entries.set(n, (messages = new Map()));
    let text = messages.get(encoding);
    if (text === undefined) {
      text = notificationMessage(schema, n, encoding, indent);
      messages.set(encoding, text);
    }
    return text;
  }
}
