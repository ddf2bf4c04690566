import type { NetconfNotification } from '@yangkit/netconf-client';
import { outerXml } from '@yangkit/xml';
import { decodeXml, encodeJson } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { Encoding } from '../media.js';
import { NCEVENT_NS } from './stream-list.js';

/** The RFC 5277 control events that carry no data and end or mark a replay. */
export type ControlEvent = 'replayComplete' | 'notificationComplete';

/** Which control event `n` is, if any (RFC 5277 sections 2.2.2, 2.2.3 via nc-notifications). */
export function controlEventOf(n: NetconfNotification): ControlEvent | undefined {
  for (const child of n.element.children) {
    if (typeof child === 'string' || child.ns !== NCEVENT_NS) continue;
    if (child.local === 'replayComplete' || child.local === 'notificationComplete') return child.local;
  }
  return undefined;
}

/**
 * One notification as the text of an SSE event (RFC 8040 section 6.4). XML: the
 * `<notification>` element with `<eventTime>` and the event. JSON (RFC 8040 section 6.4, RFC 7951):
 * `{"ietf-restconf:notification":{"eventTime":"...","module:event":{...}}}`.
 */
export function notificationMessage(
  schema: SchemaTree,
  n: NetconfNotification,
  encoding: Encoding,
  indent: number,
): string {
  if (encoding === 'xml') return outerXml(n.element);
  const control = controlEventOf(n);
  if (control !== undefined && schema.moduleByName('nc-notifications')?.implemented !== true) {
    // The schema may lack nc-notifications; these events have no content to encode.
    return JSON.stringify({
      'ietf-restconf:notification': { eventTime: n.eventTime, [`nc-notifications:${control}`]: {} },
    });
  }
  const tree = decodeXml(schema, outerXml(n.element), { kind: 'notification', strict: false });
  return encodeJson(tree, { indent });
}

/**
 * Remembers the last few encoded messages, so that an event delivered to many clients (each
 * with its own NETCONF session) is decoded and encoded once per encoding, not once per client.
 */
export class MessageCache {
  readonly #entries = new Map<string, string>();
  readonly #size: number;

  constructor(size = 64) {
    this.#size = size;
  }

  /** The message of `n` in `encoding`, from the cache or freshly encoded. */
  message(schema: SchemaTree, n: NetconfNotification, encoding: Encoding, indent: number): string {
    const key = `${encoding}\n${n.eventTime}\n${n.xml}`;
    let text = this.#entries.get(key);
    if (text === undefined) {
      text = notificationMessage(schema, n, encoding, indent);
      if (this.#entries.size >= this.#size) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, text);
    }
    return text;
  }
}
