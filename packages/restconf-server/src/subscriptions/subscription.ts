import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import { createSseWriter, type SseWriter } from '@yangkit/sse-stream';
import { escapeXmlText, outerXml } from '@yangkit/xml';
import { decodeXml, encodeJson } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { Encoding } from '../media.js';
import type { Responder } from '../response.js';
import type { StreamSettings } from '../streams/index.js';
import { RSN_NS, SN_MODULE, SN_NS, YP_NS } from './names.js';

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
  /** Keepalive, `retry:` and the queue bounds (also those of the queue before the GET). */
  readonly streams: StreamSettings;
  readonly messageIndent: number;
  readonly uri: string;
  /**
   * An RFC 8641 datastore subscription: until the GET its session stops reading, so the backend
   * (which can make an update again at any time) computes none for a receiver that is not there.
   */
  readonly datastore?: boolean;
  /** Called once when the subscription ended (it leaves the registry). */
  readonly onEnd: (reason: EndReason) => void;
}

/** A notification waiting for the GET, as the backend sent it (encoded only once a receiver came). */
interface Pending {
  readonly xml: string;
  readonly bytes: number;
  /** A YANG Push update: a later push-update, holding the whole selection, makes it useless. */
  readonly update: boolean;
}

/**
 * One RFC 8639 dynamic subscription established through the handler: it holds the NETCONF
 * session that established it (delete- and modify-subscription must come from that session,
 * RFC 8639 section 2.4.4) and delivers the session's notifications to the one SSE response that
 * GETs its uri (RFC 8650 section 3.4). Until then, notifications wait unencoded in a queue bounded
 * in bytes and in count (the stream settings' `maxQueuedBytes`, `maxQueuedEvents`), where a
 * push-update replaces the updates before it; a datastore subscription does not even read its
 * session meanwhile.
 */
export class Subscription {
  readonly id: number;
  readonly owner: string | undefined;
  readonly encoding: Encoding;
  readonly session: NetconfSession;
  readonly #ctx: SubscriptionContext;
  #pending: Pending[] = [];
  #pendingBytes = 0;
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
    // A subscription whose uri nobody GETs in time ends: it must not hold a NETCONF session (or a
    // place of its user) for ever.
    this.#timer = setTimeout(() => this.end('not-received'), receiveWithinMs);
    this.#timer.unref();
    this.#holdUnread();
  }

  /** True once a GET receives the subscription. */
  get received(): boolean {
    return this.#writer !== undefined;
  }

  get ended(): EndReason | undefined {
    return this.#ended;
  }

  /** UTF-8 bytes of the notifications waiting for the GET. */
  get queuedBytes(): number {
    return this.#pendingBytes;
  }

  /** A notification of the subscription's NETCONF session. */
  deliver(n: NetconfNotification): void {
    if (this.#ended !== undefined) return;
    const kind = kindOf(n);
    let xml = outerXml(n.element);
    if (kind === 'subscription-modified') {
      // The backend tells its own encoding (XML); a JSON receiver is told encode-json, or nothing
      // when the schema lacks that feature and so cannot express it.
      if (this.encoding === 'json') xml = xml.replace(ENCODING, this.#jsonEncoding);
      // RFC 8650 section 3.4 (the module's augment): subscription-modified carries the uri.
      xml = xml.replace(
        /<\/((?:[\w.-]+:)?)subscription-modified>\s*<\/((?:[\w.-]+:)?)notification>\s*$/,
        `<uri xmlns="${RSN_NS}">${escapeXmlText(this.#ctx.uri)}</uri></$1subscription-modified></$2notification>`,
      );
    }
    if (kind === 'subscription-terminated') this.#terminatedSeen = true;
    this.#send(xml, kind);
    // RFC 8639 sections 2.7.3, 2.7.4: nothing follows subscription-terminated or -completed.
    if (kind === 'subscription-terminated') this.end('killed');
    else if (kind === 'subscription-completed') this.end('completed');
  }

  /**
   * kill-subscription succeeded: the receiver is told with subscription-terminated (RFC 8639
   * section 2.4.5) unless the backend already sent it, and the stream ends.
   */
  killed(): void {
    if (!this.#terminatedSeen && this.#ended === undefined) {
      // Written as the backend would have sent it, then encoded like every other event.
      const xml = `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>${new Date().toISOString()}</eventTime><subscription-terminated xmlns="${SN_NS}"><id>${this.id}</id><reason>no-such-subscription</reason></subscription-terminated></notification>`;
      this.#send(xml, 'subscription-terminated');
    }
    this.end('killed');
  }

  /**
   * Sends an operation on the subscription's own session (modify- and delete-subscription,
   * RFC 8639 section 2.4.4); the session reads for the reply, then stops again while unreceived.
   */
  async rpc(xml: string): Promise<void> {
    try {
      await this.session.rpc(xml);
    } finally {
      this.#holdUnread();
    }
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
    const waiting = this.#pending;
    this.#clearPending();
    for (const p of waiting) this.#write(writer, p.xml);
    // What the backend held back while nobody received comes now, after what waited here.
    this.session.resumeReading();
    if (this.#ended !== undefined) void writer.close();
    await writer.closed;
  }

  /** Ends the subscription: its stream ends and its NETCONF session closes (ending it there). */
  end(reason: EndReason): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    clearTimeout(this.#timer);
    this.#clearPending();
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

  /** Until the GET, a datastore subscription's session reads nothing (see the context's `datastore`). */
  #holdUnread(): void {
    if (this.#ctx.datastore === true && this.#writer === undefined && this.#ended === undefined)
      this.session.pauseReading();
  }

  #clearPending(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #send(xml: string, kind: Kind | undefined): void {
    if (this.#writer !== undefined) {
      this.#write(this.#writer, xml);
      return;
    }
    // RFC 8641 section 3.7: a push-update holds the whole selection, so the updates before it
    // (push-update, push-change-update) tell a receiver nothing more.
    if (kind === 'push-update' && this.#pending.some((p) => p.update)) {
      this.#pending = this.#pending.filter((p) => !p.update);
      this.#pendingBytes = this.#pending.reduce((sum, p) => sum + p.bytes, 0);
    }
    const bytes = Buffer.byteLength(xml);
    const st = this.#ctx.streams;
    if (this.#pending.length >= st.maxQueuedEvents || this.#pendingBytes + bytes > st.maxQueuedBytes) {
      this.end('overflow');
      return;
    }
    this.#pending.push({ xml, bytes, update: kind === 'push-update' || kind === 'push-change-update' });
    this.#pendingBytes += bytes;
  }

  #write(writer: SseWriter, xml: string): void {
    const data = this.#message(xml);
    if (data !== undefined) writer.send({ data });
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

/** The notifications a subscription tells apart: RFC 8639 state changes and RFC 8641 updates. */
type Kind =
  | 'subscription-modified'
  | 'subscription-terminated'
  | 'subscription-completed'
  | 'push-update'
  | 'push-change-update'
  | 'other';

const KINDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [SN_NS, new Set(['subscription-modified', 'subscription-terminated', 'subscription-completed'])],
  [YP_NS, new Set(['push-update', 'push-change-update'])],
]);

/** What the notification's event is; undefined for an event of another module. */
function kindOf(n: NetconfNotification): Kind | undefined {
  for (const child of n.element.children) {
    if (typeof child === 'string' || child.local === 'eventTime') continue;
    const names = child.ns === '' ? undefined : KINDS.get(child.ns);
    if (names === undefined) return undefined;
    return names.has(child.local) ? (child.local as Kind) : 'other';
  }
  return undefined;
}
