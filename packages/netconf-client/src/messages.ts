import { childElement, childElements, escapeXmlText, innerXml, textOf, type XmlElement } from '@yangkit/xml';
import { NetconfError } from './errors.js';

/** The NETCONF base namespace (RFC 6241 section 3.1). */
export const NETCONF_BASE_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
/** The RFC 5277 notification namespace. */
export const NOTIFICATION_NS = 'urn:ietf:params:xml:ns:netconf:notification:1.0';

/** A `<notification>` (RFC 5277 section 4): its eventTime and the event content. */
export interface NetconfNotification {
  /** The `<eventTime>` text (RFC 3339 date-time) as sent. */
  readonly eventTime: string;
  /**
   * The event content (every child but eventTime) as XML, with in-scope namespaces pushed down;
   * written from `element` when first read.
   */
  readonly xml: string;
  /** The parsed `<notification>` element. */
  readonly element: XmlElement;
}

/**
 * Builds a client `<hello>` (RFC 6241 section 8.1):
 * `<hello xmlns=base><capabilities><capability>uri</capability>...</capabilities></hello>`.
 */
export function buildHello(capabilities: readonly string[], sessionId?: number): string {
  const caps = capabilities.map((c) => `<capability>${escapeXmlText(c)}</capability>`).join('');
  const id = sessionId === undefined ? '' : `<session-id>${sessionId}</session-id>`;
  return `<?xml version="1.0" encoding="UTF-8"?><hello xmlns="${NETCONF_BASE_NS}"><capabilities>${caps}</capabilities>${id}</hello>`;
}

/** Decodes a `<hello>`: the capability URIs and the session-id, when present. */
export function parseHello(el: XmlElement): { capabilities: string[]; sessionId?: number } {
  if (el.local !== 'hello' || el.ns !== NETCONF_BASE_NS) {
    throw new NetconfError('HELLO', `expected <hello> in ${NETCONF_BASE_NS}, got <${el.name}>`);
  }
  const capsEl = childElement(el, 'capabilities', NETCONF_BASE_NS);
  if (capsEl === undefined) throw new NetconfError('HELLO', '<hello> without <capabilities>');
  const capabilities = childElements(capsEl, 'capability', NETCONF_BASE_NS).map((c) => textOf(c).trim());
  const idEl = childElement(el, 'session-id', NETCONF_BASE_NS);
  if (idEl === undefined) return { capabilities };
  const text = textOf(idEl).trim();
  const sessionId = Number(text);
  if (!/^[1-9][0-9]{0,9}$/.test(text) || sessionId > 4294967295) {
    throw new NetconfError('HELLO', `invalid session-id ${JSON.stringify(text)}`);
  }
  return { capabilities, sessionId };
}

/** Wraps an operation in `<rpc message-id=..>` (RFC 6241 section 4.1). */
export function buildRpc(messageId: string, operationXml: string): string {
  return `<rpc xmlns="${NETCONF_BASE_NS}" message-id="${messageId}">${operationXml}</rpc>`;
}

/** Decodes a `<notification>` element (RFC 5277 section 4). */
export function parseNotification(el: XmlElement): NetconfNotification {
  const timeEl = childElement(el, 'eventTime', NOTIFICATION_NS);
  if (timeEl === undefined) throw new NetconfError('MALFORMED_REPLY', '<notification> without <eventTime>');
  return new ReceivedNotification(el, timeEl);
}

/**
 * A notification as received: its `xml` is written when first read, so that a client that reads
 * the element (a RESTCONF server decoding the event) never pays for the text, megabytes for the
 * config-change of a big edit, in one turn.
 */
class ReceivedNotification implements NetconfNotification {
  readonly eventTime: string;
  readonly element: XmlElement;
  readonly #timeEl: XmlElement;
  #xml: string | undefined;

  constructor(element: XmlElement, timeEl: XmlElement) {
    this.eventTime = textOf(timeEl).trim();
    this.element = element;
    this.#timeEl = timeEl;
  }

  get xml(): string {
    this.#xml ??= innerXml({
      ...this.element,
      children: this.element.children.filter((c) => c !== this.#timeEl),
    }).trim();
    return this.#xml;
  }
}
