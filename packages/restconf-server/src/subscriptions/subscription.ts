import { type NetconfNotification, type NetconfSession, outerXml } from '@yangkit/netconf-client';
import { createSseWriter, type SseWriter } from '@yangkit/sse-stream';
import { decodeXml, encodeJson } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { Encoding } from '../media.js';
import type { Responder } from '../response.js';
import type { StreamSettings } from '../streams/index.js';
import { escapeXml, RSN_NS, SN_MODULE, SN_NS } from './names.js';

/** Why a subscription ended. */
export type EndReason =
  | 'deleted'
  | 'killed'
  | 'completed'
  | 'client-left'
  | 'not-received'
  | 'backend-ended'
  | 'overflow';

/** What a subscription needs from the handler to encode and send its notifications. */
export interface SubscriptionContext {
  readonly schema: SchemaTree;
  readonly streams: StreamSettings;
  readonly messageIndent: number;
  readonly uri: string;
  /** Called once when the subscription ended (it leaves the registry). */
  readonly onEnd: (reason: EndReason) => void;
}

/**
 * One RFC 8639 dynamic subscription established through the handler: it holds the NETCONF
 * session that established it (delete- and modify-subscription must come from that session,
 * RFC 8639 section 2.4.4) and delivers the session's notifications to the one SSE response that
 * GETs its uri (RFC 8650 section 3.4). Until then, notifications wait in a bounded queue.
 */
export class Subscription {
  readonly id: number;
  readonly owner: string | undefined;
  readonly encoding: Encoding;
  readonly session: NetconfSession;
  readonly #ctx: SubscriptionContext;
  readonly #pending: string[] = [];
  #writer: SseWriter | undefined;
  #ended: EndReason | undefined;
  #terminatedSeen = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    id: number,
    owner: string | undefined,
    encoding: Encoding,
    session: NetconfSession,
    ctx: SubscriptionContext,
    receiveWithinMs: number,
  ) {
    this.id = id;
    this.owner = owner;
    this.encoding = encoding;
    this.session = session;
    this.#ctx = ctx;
    // A subscription nobody GETs must not hold a NETCONF session for ever.
    this.#timer = setTimeout(() => this.end('not-received'), receiveWithinMs);
    this.#timer.unref();
  }

  /** True once a GET receives the subscription. */
  get received(): boolean {
    return this.#writer !== undefined;
  }

  get ended(): EndReason | undefined {
    return this.#ended;
  }

  /** A notification of the subscription's NETCONF session. */
  deliver(n: NetconfNotification): void {
    if (this.#ended !== undefined) return;
    const state = stateChangeOf(n);
    let xml = outerXml(n.element);
    if (state === 'subscription-modified') {
      // The backend tells its own encoding (XML); a JSON receiver is told encode-json, or nothing
      // when the schema lacks that feature and so cannot express it.
      if (this.encoding === 'json') xml = xml.replace(ENCODING, this.#jsonEncoding);
      // RFC 8650 section 3.4 (the module's augment): subscription-modified carries the uri.
      xml = xml.replace(
        /<\/((?:[\w.-]+:)?)subscription-modified>\s*<\/((?:[\w.-]+:)?)notification>\s*$/,
        `<uri xmlns="${RSN_NS}">${escapeXml(this.#ctx.uri)}</uri></$1subscription-modified></$2notification>`,
      );
    }
    if (state === 'subscription-terminated') this.#terminatedSeen = true;
    const data = this.#message(xml);
    if (data !== undefined) this.#send(data);
    // RFC 8639 sections 2.7.3, 2.7.4: nothing follows subscription-terminated or -completed.
    if (state === 'subscription-terminated') this.end('killed');
    else if (state === 'subscription-completed') this.end('completed');
  }

  /**
   * kill-subscription succeeded: the receiver is told with subscription-terminated (RFC 8639
   * section 2.4.5) unless the backend already sent it, and the stream ends.
   */
  killed(): void {
    if (!this.#terminatedSeen && this.#ended === undefined) {
      // Written as the backend would have sent it, then encoded like every other event.
      const xml = `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>${new Date().toISOString()}</eventTime><subscription-terminated xmlns="${SN_NS}"><id>${this.id}</id><reason>no-such-subscription</reason></subscription-terminated></notification>`;
      const data = this.#message(xml);
      if (data !== undefined) this.#send(data);
    }
    this.end('killed');
  }

  /** Serves the subscription on `out` until it ends or the client leaves. */
  async receive(out: Responder): Promise<void> {
    const st = this.#ctx.streams;
    clearTimeout(this.#timer);
    out.status = 200;
    const writer = createSseWriter(out.res, {
      keepaliveSeconds: st.keepaliveSeconds,
      maxQueuedEvents: st.maxQueuedEvents,
      maxQueuedBytes: st.maxQueuedBytes,
      overflow: 'close',
      ...(st.retryMs === undefined ? {} : { retryMs: st.retryMs }),
      // The subscription lives as long as its event stream: no NETCONF session outlives a client.
      onClose: () => this.end('client-left'),
    });
    this.#writer = writer;
    for (const data of this.#pending.splice(0)) writer.send({ data });
    if (this.#ended !== undefined) void writer.close();
    await writer.closed;
  }

  /** Ends the subscription: its stream ends and its NETCONF session closes (ending it there). */
  end(reason: EndReason): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    clearTimeout(this.#timer);
    void this.#writer?.close();
    const session = this.session;
    if (session.endReason === undefined) void session.close().catch(() => session.destroy());
    this.#ctx.onEnd(reason);
  }

  get #jsonEncoding(): string {
    const sn = this.#ctx.schema.moduleByName(SN_MODULE);
    return sn?.enabledFeatures.includes('encode-json')
      ? `<encoding xmlns="${SN_NS}" xmlns:sn="${SN_NS}">sn:encode-json</encoding>`
      : '';
  }

  #send(data: string): void {
    if (this.#writer !== undefined) {
      this.#writer.send({ data });
      return;
    }
    if (this.#pending.length >= this.#ctx.streams.maxQueuedEvents) {
      this.end('overflow');
      return;
    }
    this.#pending.push(data);
  }

  /** The SSE data of an event; undefined when the schema cannot express it in JSON (skipped). */
  #message(xml: string): string | undefined {
    if (this.encoding === 'xml') return xml;
    try {
      const tree = decodeXml(this.#ctx.schema, xml, { kind: 'notification', strict: false });
      // An event of a module or feature outside the schema decodes to nothing.
      if (tree.children.size === 0) return undefined;
      return encodeJson(tree, { indent: this.#ctx.messageIndent });
    } catch {
      return undefined;
    }
  }
}

/** The `encoding` leaf of a subscription-modified (RFC 8639 `subscription-policy`). */
const ENCODING = /<((?:[\w.-]+:)?)encoding(?:\s[^>]*)?>[^<]*<\/\1encoding>/;

type StateChange = 'subscription-modified' | 'subscription-terminated' | 'subscription-completed' | 'other';

function stateChangeOf(n: NetconfNotification): StateChange | undefined {
  for (const child of n.element.children) {
    if (child.type !== 'element' || child.local === 'eventTime') continue;
    if (child.namespace !== SN_NS) return undefined;
    if (
      child.local === 'subscription-modified' ||
      child.local === 'subscription-terminated' ||
      child.local === 'subscription-completed'
    )
      return child.local;
    return 'other';
  }
  return undefined;
}
