import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { childElement, finishInSlices, innerXml, type XmlElement, type XmlLimits } from '@yangkit/xml';
import { BASE_1_0, BASE_1_1, type Capabilities, parseCapabilities } from './capabilities.js';
import { attachFramer, sendMessage } from './duplex-pair.js';
import { NetconfError, NetconfRpcError, type RpcErrorInfo } from './errors.js';
import { createFramer, encodeMessage, type Framer, type FramingMode } from './framing.js';
import {
  buildHello,
  buildRpc,
  NETCONF_BASE_NS,
  type NetconfNotification,
  NOTIFICATION_NS,
  parseHello,
  parseNotification,
} from './messages.js';
import { iterateNotifications } from './notification-iterator.js';
import { readMessage, readMessageSteps } from './read-message.js';
import { lazyReply, type ScannedReply, scanReplySteps } from './reply.js';
import { parseRpcErrors } from './rpc-error.js';

/** Options of a NETCONF session, whatever its transport. */
export interface SessionOptions {
  /** Extra client capabilities to advertise; base:1.0 and base:1.1 are always sent unless `baseVersions` says otherwise. */
  capabilities?: readonly string[];
  /** Base versions to offer (default both); `['1.0']` forces end-of-message framing. */
  baseVersions?: ReadonlyArray<'1.0' | '1.1'>;
  /** Milliseconds to wait for the server `<hello>` (default 30 000). */
  helloTimeout?: number;
  /** Default per-RPC timeout in milliseconds (default 60 000; 0 disables). */
  rpcTimeout?: number;
  /** Largest message accepted from the server, in bytes (default 64 MiB). */
  maxMessageBytes?: number;
  /** Deepest XML nesting accepted (default 256). */
  maxDepth?: number;
  /** Notifications one iterator may hold unread; beyond that it fails with `SESSION_CLOSED` (default 10 000). */
  maxQueuedNotifications?: number;
  /**
   * Some servers (yuma123 netconfd) leave an `<rpc>` that reaches them in the same read as the
   * client `<hello>` unanswered until more input arrives, which happens when the transport
   * delivers both late and together. When the first RPC of a session has no reply after this many
   * milliseconds, one probe `<get>` selecting nothing is sent so the server reads on; its reply is
   * dropped. Default 1000; `false` disables.
   */
  firstRpcProbe?: number | false;
  /**
   * Replies longer than this many characters are not parsed into a tree on arrival: one pass
   * checks them (DOCTYPE, entities, processing instructions, tag balance, depth) and reads the
   * envelope (message-id, `<ok/>`, `<rpc-error>`, the range of `<data>`), `xml` and the data of
   * `get`/`getConfig`/`getData` are slices of the message, and `element` is parsed on first
   * access. Replies holding `<rpc-error>` are always parsed in full. Default 16 KiB; `Infinity`
   * parses every reply at once.
   */
  fullParseLimit?: number;
}

const FULL_PARSE_LIMIT = 16 * 1024;

// A <get> whose filter selects nothing on any server: session-id 0 is never assigned (RFC 6241 8.1).
const PROBE_RPC = buildRpc(
  'probe',
  '<get><filter type="subtree"><netconf-state xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"><sessions><session><session-id>0</session-id></session></sessions></netconf-state></filter></get>',
);

/** Per-call options of an RPC. */
export interface RpcOptions {
  /** Milliseconds before the RPC fails with `RPC_TIMEOUT`; 0 disables; defaults to the session's `rpcTimeout`. */
  timeout?: number;
  /** Aborting fails the RPC with `RPC_ABORTED` (the server may still carry it out). */
  signal?: AbortSignal;
}

/** A successful `<rpc-reply>` (RFC 6241 section 4.2). */
export interface RpcReply {
  readonly messageId: string;
  /** True when the reply is `<ok/>`. */
  readonly ok: boolean;
  /**
   * The content of `<rpc-reply>` as XML, namespaces pushed down: a slice of the message for a
   * large reply, written from `element` on first access otherwise.
   */
  readonly xml: string;
  /** The parsed `<rpc-reply>` element (read on first access for a large reply). */
  readonly element: XmlElement;
  /** `<rpc-error>` elements with severity `warning` (any `error` makes the RPC fail instead). */
  readonly warnings: readonly RpcErrorInfo[];
}

/**
 * Why a session ended: `closed` after `<close-session>` or `close()`; `transport-closed` when the
 * peer or the connection went away (including a `<kill-session>` from elsewhere); `protocol-error`
 * for a malformed frame, message or hello; `destroyed` after `destroy()`.
 */
export interface SessionEnd {
  readonly reason: 'closed' | 'transport-closed' | 'protocol-error' | 'destroyed';
  readonly error?: NetconfError;
}

/** Events of a {@link NetconfSessionCore}. */
export interface SessionEvents {
  notification: [NetconfNotification];
  close: [SessionEnd];
}

interface Pending {
  resolve: (reply: RpcReply) => void;
  reject: (error: NetconfError) => void;
  cleanup: () => void;
}

/**
 * One NETCONF session over an injected duplex stream: the hello exchange, framing switch,
 * message-id correlation with any number of RPCs in flight, notifications, and the end of the
 * session. Operations live in {@link NetconfSession}; this class knows only `<rpc>`.
 */
export class NetconfSessionCore extends EventEmitter<SessionEvents> {
  /** Resolves once the server `<hello>` has been received and checked. */
  readonly ready: Promise<void>;
  /** Resolves when the session ends, with the reason. */
  readonly closed: Promise<SessionEnd>;
  #stream: Duplex;
  #framer: Framer;
  #mode: FramingMode = 'eom';
  #options: SessionOptions;
  #pending = new Map<string, Pending>();
  #nextId = 1;
  #hello: { capabilities: Capabilities; sessionId: number } | undefined;
  #end: SessionEnd | undefined;
  #closing = false;
  /**
   * Messages that came while a large one is read in slices (see `#readInSlices`): handled after it,
   * in order, so that no reply or notification overtakes one sent before it.
   */
  #backlog: string[] | undefined;
  #helloTimer: NodeJS.Timeout | undefined;
  #readyResolve!: () => void;
  #readyReject!: (error: NetconfError) => void;
  #closedResolve!: (end: SessionEnd) => void;

  constructor(stream: Duplex, options: SessionOptions = {}) {
    super();
    this.#stream = stream;
    this.#options = options;
    this.ready = new Promise((resolve, reject) => {
      this.#readyResolve = resolve;
      this.#readyReject = reject;
    });
    this.ready.catch(() => {});
    this.closed = new Promise((resolve) => (this.#closedResolve = resolve));
    this.#framer = createFramer({
      onMessage: (text) => this.#onMessage(text),
      onError: (error) => this.#finish('protocol-error', error),
      ...(options.maxMessageBytes !== undefined && { maxMessageBytes: options.maxMessageBytes }),
    });
    attachFramer(stream, this.#framer);
    stream.on('data', (chunk: Buffer | string) => {
      if (this.#end === undefined) this.#framer.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    const lost = (cause?: unknown) => {
      // After <close-session> the server drops the transport: that is the expected end.
      if (this.#closing) return this.#finish('closed');
      const message = cause instanceof Error ? `transport error: ${cause.message}` : 'transport closed';
      this.#finish('transport-closed', new NetconfError('SESSION_CLOSED', message, { cause }));
    };
    stream.on('error', lost);
    stream.on('end', () => lost());
    stream.on('close', () => lost());
    this.#helloTimer = setTimeout(
      () => this.#finish('protocol-error', new NetconfError('HELLO', 'no <hello> from the server in time')),
      options.helloTimeout ?? 30_000,
    );
    const versions = options.baseVersions ?? ['1.0', '1.1'];
    const ours = [
      ...versions.map((v) => (v === '1.0' ? BASE_1_0 : BASE_1_1)),
      ...(options.capabilities ?? []),
    ];
    // RFC 6241 section 8.1: both peers send their hello at once, in end-of-message framing.
    this.#write(buildHello(ours));
  }

  /** The session-id the server assigned (available after `ready`). */
  get sessionId(): number {
    return this.#requireHello().sessionId;
  }

  /** The server's capabilities (available after `ready`). */
  get capabilities(): Capabilities {
    return this.#requireHello().capabilities;
  }

  /** `eom` (base:1.0) or `chunked` (base:1.1) once the hello exchange picked it. */
  get framing(): FramingMode {
    return this.#mode;
  }

  /** How the session ended, or `undefined` while it is open. */
  get endReason(): SessionEnd | undefined {
    return this.#end;
  }

  /** Number of RPCs awaiting a reply. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /**
   * Sends any operation (the XML inside `<rpc>`; unprefixed elements are in the base namespace)
   * and resolves with the reply; `<rpc-error>` rejects with {@link NetconfRpcError}.
   */
  async rpc(operationXml: string, options: RpcOptions = {}): Promise<RpcReply> {
    if (this.#end) throw this.#closedError();
    await this.ready;
    if (this.#end) throw this.#closedError();
    // The reply has to be read: a paused session reads again.
    this.resumeReading();
    if (options.signal?.aborted) throw new NetconfError('RPC_ABORTED', 'rpc aborted before it was sent');
    const messageId = String(this.#nextId++);
    return new Promise<RpcReply>((resolve, reject) => {
      const timeout = options.timeout ?? this.#options.rpcTimeout ?? 60_000;
      const timer =
        timeout > 0
          ? setTimeout(() => {
              this.#pending.delete(messageId);
              reject(
                new NetconfError('RPC_TIMEOUT', `no reply to message-id ${messageId} within ${timeout} ms`),
              );
            }, timeout)
          : undefined;
      const onAbort = () => {
        this.#pending.get(messageId)?.cleanup();
        this.#pending.delete(messageId);
        reject(
          new NetconfError('RPC_ABORTED', `rpc ${messageId} aborted`, { cause: options.signal?.reason }),
        );
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      this.#pending.set(messageId, { resolve, reject, cleanup });
      this.#write(buildRpc(messageId, operationXml));
      if (messageId === '1') this.#armProbe();
    });
  }

  /**
   * Ends the session politely: `<close-session>` (RFC 6241 section 7.8), then the transport.
   * Resolves with the end reason; safe to call more than once.
   */
  async close(options: RpcOptions = {}): Promise<SessionEnd> {
    if (this.#end) return this.#end;
    this.#closing = true;
    try {
      await this.rpc('<close-session/>', { timeout: 10_000, ...options });
    } catch {
      // The session ends either way; a server that drops the transport first is fine.
    }
    this.#finish('closed');
    return this.closed;
  }

  /**
   * Ends the session at once without `<close-session>`; in-flight RPCs fail with `SESSION_CLOSED`.
   * `reason` is what `endReason` reports: a transport that knows its connection died passes
   * `transport-closed`.
   */
  destroy(error?: NetconfError, reason: 'destroyed' | 'transport-closed' = 'destroyed'): void {
    this.#finish(reason, error);
  }

  /**
   * Stops reading the transport until {@link resumeReading} or the next {@link rpc}: what the server
   * sends waits in the transport, whose full buffer makes the server's writes wait in turn (NETCONF
   * has no flow control of its own; its transport's is the one there is). A server that honours it,
   * like `@yangkit/netconf-server` for YANG Push updates, computes nothing for a receiver that
   * reads nothing.
   */
  pauseReading(): void {
    if (this.#end === undefined) this.#stream.pause();
  }

  /** Reads the transport again after {@link pauseReading}; what waited there arrives first. */
  resumeReading(): void {
    if (this.#end === undefined && this.#stream.isPaused()) this.#stream.resume();
  }

  /**
   * Notifications (RFC 5277) as an async iterator that ends when the session ends. Each call
   * returns an independent iterator that sees every notification received after the call.
   */
  notifications(): AsyncIterableIterator<NetconfNotification> {
    return iterateNotifications(
      this,
      this.#end !== undefined,
      this.#options.maxQueuedNotifications ?? 10_000,
    );
  }

  #armProbe(): void {
    const delay = this.#options.firstRpcProbe ?? 1000;
    if (delay === false) return;
    const timer = setTimeout(() => {
      if (this.#pending.has('1')) this.#write(PROBE_RPC);
    }, delay);
    timer.unref();
  }

  #requireHello(): { capabilities: Capabilities; sessionId: number } {
    if (!this.#hello) throw new NetconfError('HELLO', 'the hello exchange has not completed');
    return this.#hello;
  }

  #closedError(): NetconfError {
    return new NetconfError('SESSION_CLOSED', `session ended (${this.#end?.reason ?? 'unknown'})`, {
      cause: this.#end?.error,
    });
  }

  #write(xml: string): void {
    if (this.#end) return;
    if (!sendMessage(this.#stream, xml)) this.#stream.write(encodeMessage(xml, this.#mode));
  }

  #onMessage(text: string): void {
    if (this.#end || text.trim() === '') return;
    if (this.#backlog !== undefined) this.#backlog.push(text);
    else if (this.#isLarge(text)) void this.#readInSlices(text);
    else this.#handle(text, undefined);
  }

  #limits(): XmlLimits {
    return this.#options.maxDepth === undefined ? {} : { maxDepth: this.#options.maxDepth };
  }

  /** A message read by its envelope alone (see `scanReplySteps`), in slices, rather than parsed whole. */
  #isLarge(text: string): boolean {
    return this.#hello !== undefined && text.length > (this.#options.fullParseLimit ?? FULL_PARSE_LIMIT);
  }

  /**
   * Reads `text`, a large message, in slices of a few milliseconds (megabytes of a `<get>` reply
   * would otherwise hold the event loop for their whole scan), then the messages that came
   * meanwhile, in the order they came.
   */
  async #readInSlices(text: string): Promise<void> {
    const backlog: string[] = [];
    this.#backlog = backlog;
    for (let next: string | undefined = text; next !== undefined && !this.#end; next = backlog.shift()) {
      if (!this.#isLarge(next)) {
        this.#handle(next, undefined);
        continue;
      }
      let scanned: ScannedReply | undefined;
      let el: XmlElement | undefined;
      try {
        scanned = await finishInSlices(scanReplySteps(next, this.#limits()));
        // Not a plain reply (a notification, say): read whole, in slices too.
        if (scanned === undefined) el = await finishInSlices(readMessageSteps(next, this.#limits()));
      } catch (error) {
        // A message that cannot be parsed cannot be correlated either: the session is unusable.
        this.#finish('protocol-error', error as NetconfError);
        break;
      }
      if (!this.#end) this.#handle(next, scanned, el);
    }
    this.#backlog = undefined;
  }

  /**
   * Handles one message: a reply read by its envelope (`scanned`), else the message parsed whole
   * (`read` when it was, in slices: a large one that is not a plain `<rpc-reply>`).
   */
  #handle(text: string, scanned: ScannedReply | undefined, read?: XmlElement): void {
    const limits = this.#limits();
    let el = read;
    try {
      if (scanned === undefined && el === undefined) el = readMessage(text, limits);
      if (!this.#hello) {
        this.#onHello(el!);
        return;
      }
    } catch (error) {
      // A message that cannot be parsed cannot be correlated either: the session is unusable.
      this.#finish('protocol-error', error as NetconfError);
      return;
    }
    if (scanned !== undefined) {
      const taken = this.#take(scanned.messageId);
      if (taken) taken[1].resolve(lazyReply(scanned, taken[0], text, limits));
    } else if (el === undefined) return;
    else if (el.local === 'rpc-reply' && el.ns === NETCONF_BASE_NS) this.#onReply(el, text);
    else if (el.local === 'notification' && el.ns === NOTIFICATION_NS) {
      try {
        this.emit('notification', parseNotification(el));
      } catch (error) {
        if (!NetconfError.isInstance(error)) throw error;
        // A notification without eventTime is dropped rather than ending the session.
      }
    }
  }

  /** Removes and returns the RPC a reply answers, if it is still waiting. */
  #take(messageId: string | undefined): [string, Pending] | undefined {
    let key = messageId;
    // A reply without message-id can only be matched when exactly one RPC is outstanding.
    if (key === undefined && this.#pending.size === 1) key = this.#pending.keys().next().value;
    const pending = key === undefined ? undefined : this.#pending.get(key);
    if (!pending || key === undefined) return undefined; // late reply after a timeout or abort
    this.#pending.delete(key);
    pending.cleanup();
    return [key, pending];
  }

  #onHello(el: XmlElement): void {
    const hello = parseHello(el);
    if (hello.sessionId === undefined) throw new NetconfError('HELLO', 'server <hello> without <session-id>');
    const capabilities = parseCapabilities(hello.capabilities);
    const offered = this.#options.baseVersions ?? ['1.0', '1.1'];
    const common = capabilities.baseVersions.filter((v) => (offered as readonly string[]).includes(v));
    if (common.length === 0) throw new NetconfError('HELLO', 'the server shares no NETCONF base version');
    clearTimeout(this.#helloTimer);
    this.#hello = { capabilities, sessionId: hello.sessionId };
    // RFC 6242 section 4.1: chunked framing once both peers advertised base:1.1.
    if (common.includes('1.1')) {
      this.#mode = 'chunked';
      this.#framer.setMode('chunked');
    }
    this.#readyResolve();
  }

  #onReply(el: XmlElement, text: string): void {
    const messageId = el.attributes.find((a) => a.local === 'message-id' && a.ns === '')?.value;
    const taken = this.#take(messageId);
    if (!taken) return;
    const [key, pending] = taken;
    const errors = parseRpcErrors(el);
    if (errors.some((e) => e.errorSeverity !== 'warning')) {
      pending.reject(new NetconfRpcError(errors, text));
      return;
    }
    // The text is written only when asked for: a caller decoding `element` never pays for it.
    let xml: string | undefined;
    pending.resolve({
      messageId: key,
      ok: childElement(el, 'ok', NETCONF_BASE_NS) !== undefined,
      get xml(): string {
        xml ??= innerXml(el).trim();
        return xml;
      },
      element: el,
      warnings: errors,
    });
  }

  #finish(reason: SessionEnd['reason'], error?: NetconfError): void {
    if (this.#end) return;
    const end: SessionEnd = error === undefined ? { reason } : { reason, error };
    this.#end = end;
    clearTimeout(this.#helloTimer);
    this.#readyReject(error ?? new NetconfError('SESSION_CLOSED', `session ended (${reason})`));
    const failure = this.#closedError();
    for (const pending of this.#pending.values()) {
      pending.cleanup();
      pending.reject(failure);
    }
    this.#pending.clear();
    this.#stream.destroy();
    this.emit('close', end);
    this.#closedResolve(end);
  }
}
