import type { SseWriter } from '@yangkit/sse-stream';
import {
  type DataNode,
  decodeXml,
  encodeJsonChunks,
  encodeXmlChunks,
  finishInSlices,
  finishSteps,
  type InstanceTree,
  joinSteps,
  type Steps,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { BackendNotification, BackendSubscription, InvokeRequest } from '../backend.js';
import type { Encoding } from '../media.js';
import type { Responder } from '../response.js';
import type { StreamSettings } from '../streams/index.js';
import { RSN_MODULE, SN_MODULE, SN_NS, YANG_PUSH_MODULE } from './names.js';
import { leafNode } from './state.js';

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
   * An RFC 8641 datastore subscription: until the GET it takes no notification from the backend,
   * which (as it can make an update again at any time) computes none for a receiver not there.
   */
  readonly datastore?: boolean;
  /** Called once when the subscription ended (it leaves the registry). */
  readonly onEnd: (reason: EndReason) => void;
}

/** A notification waiting for the GET, encoded as the receiver will get it. */
interface Pending {
  readonly data: string;
  readonly bytes: number;
  /** A YANG Push update: a later push-update, holding the whole selection, makes it useless. */
  readonly update: boolean;
}

/**
 * One RFC 8639 dynamic subscription established through the handler: it holds the backend's
 * subscription (delete- and modify-subscription go where it lives, RFC 8639 section 2.4.4) and
 * delivers its notifications to the one SSE response that GETs its uri (RFC 8650 section 3.4).
 * Until then, notifications wait in a queue bounded in bytes and in count (the stream settings'
 * `maxQueuedBytes`, `maxQueuedEvents`), where a push-update replaces the updates before it; a
 * datastore subscription does not even take notifications from the backend meanwhile.
 */
export class Subscription {
  readonly id: number;
  readonly owner: string | undefined;
  readonly encoding: Encoding;
  readonly subscription: BackendSubscription;
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
    subscription: BackendSubscription,
    ctx: SubscriptionContext,
    receiveWithinMs: number,
  ) {
    this.id = id;
    this.owner = owner;
    this.encoding = encoding;
    this.subscription = subscription;
    this.#ctx = ctx;
    // A subscription whose uri nobody GETs in time ends: it must not hold the backend's
    // subscription (or a place of its user) for ever.
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

  /**
   * A notification of the backend's subscription, encoded in slices of a few milliseconds (a YANG
   * Push update may hold up to the server's bound of content); resolves once it is sent or queued.
   * Deliver the next one after: they keep their order.
   */
  async deliver(n: BackendNotification): Promise<void> {
    if (this.#ended !== undefined) return;
    const [event] = [...n.tree.children.values()].flat();
    const kind = kindOf(event);
    if (kind === 'subscription-modified') this.#completeModified(event!);
    if (kind === 'subscription-terminated') this.#terminatedSeen = true;
    const data = await finishInSlices(this.#message(n.tree));
    // Ended meanwhile (killed, the client gone): nothing more goes out.
    if (this.#ended !== undefined) return;
    this.#send(data, kind);
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
      const tree = decodeXml(this.#ctx.schema, xml, { kind: 'notification', strict: false });
      this.#send(finishSteps(this.#message(tree)), 'subscription-terminated');
    }
    this.end('killed');
  }

  /**
   * Invokes an operation where the subscription lives (modify- and delete-subscription, RFC 8639
   * section 2.4.4); the backend's notifications are held back again afterwards while unreceived.
   */
  async invoke(request: InvokeRequest): Promise<void> {
    try {
      await this.subscription.invoke(request);
    } finally {
      this.#holdUnread();
    }
  }

  /** Serves the subscription on `out` until it ends or the client leaves. */
  async receive(out: Responder): Promise<void> {
    const st = this.#ctx.streams;
    clearTimeout(this.#timer);
    const writer = out.eventStream({
      keepaliveSeconds: st.keepaliveSeconds,
      maxQueuedEvents: st.maxQueuedEvents,
      maxQueuedBytes: st.maxQueuedBytes,
      overflow: 'close',
      ...(st.retryMs === undefined ? {} : { retryMs: st.retryMs }),
      // The subscription lives as long as its event stream: no backend subscription outlives a client.
      onClose: () => this.end('client-left'),
    });
    this.#writer = writer;
    const waiting = this.#pending;
    this.#clearPending();
    for (const p of waiting) writer.send({ data: p.data });
    // What the backend held back while nobody received comes now, after what waited here.
    this.subscription.resume();
    if (this.#ended !== undefined) void writer.close();
    await writer.closed;
  }

  /** Ends the subscription: its stream ends and the backend's subscription with it. */
  end(reason: EndReason): void {
    if (this.#ended !== undefined) return;
    this.#ended = reason;
    clearTimeout(this.#timer);
    this.#clearPending();
    void this.#writer?.close();
    this.subscription.close();
    this.#ctx.onEnd(reason);
  }

  /**
   * subscription-modified as the receiver gets it: the backend tells its own encoding (XML), so a
   * JSON receiver is told encode-json, or nothing when the schema lacks that feature and so cannot
   * express it; and RFC 8650 section 3.4 (the module's augment) adds the uri.
   */
  #completeModified(event: DataNode): void {
    const children = event.children;
    if (children === undefined) return;
    const encoding = event.schema.dataChild(SN_MODULE, 'encoding');
    if (this.encoding === 'json' && encoding !== undefined && children.has(encoding)) {
      const sn = this.#ctx.schema.moduleByName(SN_MODULE);
      if (sn?.enabledFeatures.includes('encode-json'))
        children.set(encoding, [leafNode(encoding, event, `${SN_MODULE}:encode-json`)]);
      else children.delete(encoding);
    }
    const uri = event.schema.dataChild(RSN_MODULE, 'uri');
    if (uri !== undefined) children.set(uri, [leafNode(uri, event, this.#ctx.uri)]);
  }

  /** Until the GET, a datastore subscription takes no notification (see the context's `datastore`). */
  #holdUnread(): void {
    if (this.#ctx.datastore === true && this.#writer === undefined && this.#ended === undefined)
      this.subscription.pause();
  }

  #clearPending(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #send(data: string | undefined, kind: Kind | undefined): void {
    if (data === undefined) return;
    if (this.#writer !== undefined) {
      this.#writer.send({ data });
      return;
    }
    // RFC 8641 section 3.7: a push-update holds the whole selection, so the updates before it
    // (push-update, push-change-update) tell a receiver nothing more.
    if (kind === 'push-update' && this.#pending.some((p) => p.update)) {
      this.#pending = this.#pending.filter((p) => !p.update);
      this.#pendingBytes = this.#pending.reduce((sum, p) => sum + p.bytes, 0);
    }
    const bytes = Buffer.byteLength(data);
    const st = this.#ctx.streams;
    if (this.#pending.length >= st.maxQueuedEvents || this.#pendingBytes + bytes > st.maxQueuedBytes) {
      this.end('overflow');
      return;
    }
    this.#pending.push({ data, bytes, update: kind === 'push-update' || kind === 'push-change-update' });
    this.#pendingBytes += bytes;
  }

  /** The SSE data of an event, a chunk a step; undefined when the schema cannot express it (skipped). */
  *#message(tree: InstanceTree): Steps<string | undefined> {
    // An event of a module or feature outside the schema decodes to nothing.
    if (tree.children.size === 0) return undefined;
    return yield* joinSteps(
      this.encoding === 'xml'
        ? encodeXmlChunks(tree)
        : encodeJsonChunks(tree, { indent: this.#ctx.messageIndent }),
    );
  }
}

/** The notifications a subscription tells apart: RFC 8639 state changes and RFC 8641 updates. */
type Kind =
  | 'subscription-modified'
  | 'subscription-terminated'
  | 'subscription-completed'
  | 'push-update'
  | 'push-change-update'
  | 'other';

const KINDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [SN_MODULE, new Set(['subscription-modified', 'subscription-terminated', 'subscription-completed'])],
  [YANG_PUSH_MODULE, new Set(['push-update', 'push-change-update'])],
]);

/** What the notification's event is; undefined for an event of another module (or none the schema has). */
function kindOf(event: DataNode | undefined): Kind | undefined {
  const names = event === undefined ? undefined : KINDS.get(event.schema.module);
  if (names === undefined) return undefined;
  return names.has(event!.schema.name) ? (event!.schema.name as Kind) : 'other';
}
