import {
  BASE_1_0,
  BASE_1_1,
  createFramer,
  encodeMessage,
  encodeMessagePiece,
  type Framer,
  NETCONF_BASE_NS,
  type NetconfError,
} from '@yangkit/netconf-client';
import {
  childElement,
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  readXmlDocument,
  readXmlDocumentSteps,
  textOf,
  type XmlElement,
} from '@yangkit/xml';
import { finishInSlices, nextText, SLICE_MS, Slices } from '@yangkit/yang-json-codec';
import { RpcError, type RpcErrorFields } from './errors.js';
import {
  REPLY_END,
  type ReplyContent,
  type ReplyPieces,
  replyStart,
  writeReply,
  writeRpcError,
} from './reply.js';

/** Who is on the other end of a session (ietf-netconf-monitoring `session` entry). */
export interface SessionInfo {
  /** The authenticated user name (RFC 6241 section 9). */
  readonly username: string;
  /** The peer's address, when the transport has one. */
  readonly sourceHost?: string;
  /** ietf-netconf-monitoring transport identity, e.g. `netconf-ssh`; default `in-process`. */
  readonly transport?: string;
}

/** How a session ended (ietf-netconf-notifications `termination-reason`). */
export type TerminationReason = 'closed' | 'killed' | 'dropped' | 'timeout' | 'bad-hello' | 'other';

/** What a session needs from the engine. */
export interface SessionHost {
  capabilities(): readonly string[];
  /**
   * Runs one operation; resolves with the reply content (`<ok/>`, `<data>...</data>`, output), as one
   * string or in pieces.
   */
  dispatch(session: ServerSession, operation: XmlElement, rpc: XmlElement): Promise<ReplyContent>;
  sessionStarted(session: ServerSession): void;
  /** `established`: whether the hello exchange had completed (only then was the session announced). */
  sessionEnded(
    session: ServerSession,
    reason: TerminationReason,
    established: boolean,
    killedBy?: number,
  ): void;
  readonly maxMessageBytes: number;
  /** Closes a session that has not sent a valid hello after this many ms (0: never). */
  readonly helloTimeoutMs?: number;
  /** Closes an established session idle this many ms (0: never), unless {@link sessionInUse}. */
  readonly idleTimeoutMs?: number;
  /** True while an idle session must stay open (it holds a subscription or a confirmed commit). */
  sessionInUse?(session: ServerSession): boolean;
}

/** The byte sink of a session; the transport (a Duplex, an SSH channel) implements it. */
export interface SessionIo {
  /** Writes bytes; returns false when the transport's buffer is full (Node stream semantics). */
  write(bytes: Buffer): boolean | undefined;
  /** Resolves once a full transport buffer has drained; the next rpc waits for it. */
  drained?(): Promise<void>;
  /** True while the transport's buffer is full: the peer does not read what was sent. */
  backedUp?(): boolean;
  /** Ends the transport. */
  end(): void;
  /** Gives the session's framer to a transport that can hand it whole messages (in-process pipes). */
  attach?(framer: Framer): void;
  /** Sends one message without framing when the transport can; false when it must be framed. */
  sendMessage?(xml: string): boolean;
}

/** Counters of ietf-netconf-monitoring `sessions/session`. */
export interface SessionCounters {
  inRpcs: number;
  inBadRpcs: number;
  outRpcErrors: number;
  outNotifications: number;
}

/** Thrown to end a session after its reply is sent (close-session). */
export const CLOSE_AFTER_REPLY = Symbol('close-after-reply');

/**
 * One NETCONF session's protocol state machine (RFC 6241 section 8.1, RFC 6242): sends the server
 * hello, reads the client hello, switches to chunked framing when both sides speak base:1.1, then
 * answers each `<rpc>` in order. It does no I/O itself: bytes come in through {@link feed} and go
 * out through the injected {@link SessionIo}.
 */
export class ServerSession {
  readonly id: number;
  readonly info: SessionInfo;
  readonly loginTime = new Date();
  readonly counters: SessionCounters = { inRpcs: 0, inBadRpcs: 0, outRpcErrors: 0, outNotifications: 0 };
  /** Per-session state kept by the engine (subscriptions, pending confirmed commit). */
  readonly data = new Map<string, unknown>();
  private state: 'hello' | 'open' | 'closed' = 'hello';
  private readonly framer: Framer;
  private queue: Promise<void> = Promise.resolve();
  private closeAfterReply = false;
  /** Set by `<close-session>`: the reply is all the session still sends. */
  private ending = false;
  /** The transport refused more bytes; the next rpc waits for `drain` (backpressure). */
  private congested = false;
  /** Work to run once the reply of the rpc being answered has been sent. */
  private afterReplyTasks: (() => void)[] = [];
  /** The hello timer, then the idle timer. */
  private timer: NodeJS.Timeout | undefined;
  /** Rpcs received and not yet answered: a session answering one is not idle. */
  private inFlight = 0;
  /** While a reply is written in pieces: the notifications that wait for its end. */
  private held: string[] | undefined;
  /** While a reply is written in pieces: resolves at its end. */
  private replyEnd: Promise<void> | undefined;
  /** While a reply in pieces waits for the transport to drain: ends the wait (the session ended). */
  private stopWaiting: (() => void) | undefined;

  constructor(
    private readonly host: SessionHost,
    id: number,
    info: SessionInfo,
    private readonly io: SessionIo,
  ) {
    this.id = id;
    this.info = info;
    this.framer = createFramer({
      maxMessageBytes: host.maxMessageBytes,
      onMessage: (m) => this.message(m),
      onError: (e) => this.malformed(e),
    });
    io.attach?.(this.framer);
  }

  /** True until the session ends. */
  get open(): boolean {
    return this.state !== 'closed';
  }

  /** True once the hello exchange is done. */
  get established(): boolean {
    return this.state === 'open';
  }

  /** True while notifications are sent: the session is established and has not asked to close. */
  get notifiable(): boolean {
    return this.state === 'open' && !this.ending;
  }

  /**
   * Stops notifications as soon as `<close-session>` is read, before its reply (RFC 6241 section
   * 7.8: the session is ending). Sessions that close together then do not each get the
   * netconf-session-end events of all the others, which cost the square of their number.
   */
  stopNotifications(): void {
    this.ending = true;
  }

  /** Sends the server `<hello>` (RFC 6241 8.1): capabilities and session-id. */
  start(): void {
    const caps = this.host
      .capabilities()
      .map((c) => `<capability>${escapeXmlText(c)}</capability>`)
      .join('');
    this.send(
      `<?xml version="1.0" encoding="UTF-8"?><hello xmlns="${NETCONF_BASE_NS}"><capabilities>${caps}</capabilities><session-id>${this.id}</session-id></hello>`,
    );
    // RFC 6241 8.1 leaves the hello wait to the server: a peer that never sends one is dropped.
    this.arm(this.host.helloTimeoutMs ?? 0, () => this.terminate('timeout'));
  }

  /**
   * Runs `task` once the reply of the rpc now being answered has been sent (and never when it
   * fails), so a notification it sends follows the reply, e.g. RFC 8639 subscription-modified.
   * Outside an rpc, `task` runs at once.
   */
  afterReply(task: () => void): void {
    if (this.inFlight === 0) task();
    else this.afterReplyTasks.push(task);
  }

  /** Feeds transport bytes. */
  feed(chunk: Uint8Array): void {
    if (this.state !== 'closed') this.framer.feed(chunk);
  }

  /** Sends one message: whole to a transport that takes messages, else framed. */
  send(xml: string): void {
    if (this.state === 'closed' || this.io.sendMessage?.(xml)) return;
    this.write(encodeMessage(xml, this.framer.mode));
  }

  private write(bytes: Buffer): void {
    if (this.io.write(bytes) === false) this.congested = true;
  }

  /**
   * True while the transport holds more than it takes (the client does not read what the session
   * sent: a slow link, or a client that paused its reading), or while a reply is written in pieces.
   * Work whose result could be made later waits for {@link drained} instead.
   */
  get backedUp(): boolean {
    return this.state !== 'closed' && (this.held !== undefined || this.io.backedUp?.() === true);
  }

  /**
   * Resolves once the reply being written in pieces is done and the transport took what was
   * written (at once when nothing waits, or on close).
   */
  async drained(): Promise<void> {
    await this.replyEnd;
    await this.io.drained?.();
  }

  /**
   * Sends a `<notification>` (RFC 5277 section 4); during a reply written in pieces, once it is
   * done (a message never goes between the pieces of another).
   */
  notify(xml: string): void {
    if (!this.notifiable) return;
    this.counters.outNotifications++;
    if (this.held !== undefined) this.held.push(xml);
    else this.send(xml);
  }

  /** Ends the session (transport closed, killed, close-session). */
  terminate(reason: TerminationReason, killedBy?: number): void {
    if (this.state === 'closed') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    clearTimeout(this.timer);
    this.afterReplyTasks = [];
    this.framer.reset();
    // A reply waiting for a client that reads nothing stops now, not when the transport closes.
    this.stopWaiting?.();
    try {
      this.io.end();
    } finally {
      this.host.sessionEnded(this, reason, wasOpen, killedBy);
    }
  }

  private malformed(error: NetconfError): void {
    // RFC 6242 section 4.2: a framing error is fatal; the session is closed.
    this.counters.inBadRpcs++;
    void error;
    this.terminate(this.state === 'hello' ? 'bad-hello' : 'dropped');
  }

  private message(text: string): void {
    if (this.state === 'closed') return;
    if (this.state === 'hello') {
      this.hello(text);
      return;
    }
    this.inFlight++;
    this.queue = this.queue.then(() =>
      this.rpc(text).finally(() => {
        this.inFlight--;
        this.idle();
      }),
    );
  }

  private arm(ms: number, fire: () => void): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (ms <= 0 || this.state === 'closed') return;
    this.timer = setTimeout(fire, ms);
    this.timer.unref();
  }

  /** (Re)starts the idle timer; when it fires, a session in use or answering an rpc is kept. */
  private idle(): void {
    const ms = this.host.idleTimeoutMs ?? 0;
    this.arm(ms, () => {
      if (this.inFlight > 0 || this.host.sessionInUse?.(this)) this.idle();
      else this.terminate('timeout');
    });
  }

  private hello(text: string): void {
    let el: XmlElement;
    try {
      el = readXmlDocument(text, { maxSize: this.host.maxMessageBytes });
    } catch {
      this.terminate('bad-hello');
      return;
    }
    if (
      el.local !== 'hello' ||
      el.ns !== NETCONF_BASE_NS ||
      childElement(el, 'session-id', NETCONF_BASE_NS)
    ) {
      // RFC 6241 8.1: a client hello carrying a session-id is an error; the session is closed.
      this.terminate('bad-hello');
      return;
    }
    const capsEl = childElement(el, 'capabilities', NETCONF_BASE_NS);
    const caps = capsEl
      ? childElements(capsEl, 'capability', NETCONF_BASE_NS).map((c) => textOf(c).trim())
      : [];
    if (!caps.includes(BASE_1_0) && !caps.includes(BASE_1_1)) {
      this.terminate('bad-hello');
      return;
    }
    this.state = 'open';
    this.idle();
    // RFC 6242 4.1: chunked framing once both peers advertised base:1.1, right after the hello.
    if (caps.includes(BASE_1_1)) this.framer.setMode('chunked');
    this.host.sessionStarted(this);
  }

  private async rpc(text: string): Promise<void> {
    this.afterReplyTasks = [];
    // Activity: the idle timer restarts when the rpc has been answered.
    clearTimeout(this.timer);
    if (this.congested && this.io.drained) {
      this.congested = false;
      await this.io.drained();
    }
    if (this.state !== 'open') return;
    let rpc: XmlElement;
    try {
      // In slices: a big message does not hold the event loop while it is read.
      rpc = await finishInSlices(readXmlDocumentSteps(text, { maxSize: this.host.maxMessageBytes }));
    } catch (error) {
      this.counters.inBadRpcs++;
      this.sendErrors('', [
        {
          errorType: 'rpc',
          errorTag: 'malformed-message',
          errorMessage: error instanceof Error ? error.message : 'malformed message',
        },
      ]);
      return;
    }
    // Ended while its message was read: nobody is left to answer.
    if (this.state !== 'open') return;
    if (rpc.local !== 'rpc' || rpc.ns !== NETCONF_BASE_NS) {
      this.counters.inBadRpcs++;
      this.sendErrors('', [
        {
          errorType: 'rpc',
          errorTag: 'unknown-element',
          errorMessage: `expected <rpc>, got <${rpc.local}>`,
          errorInfo: { 'bad-element': rpc.local },
        },
      ]);
      return;
    }
    const attrs =
      rpc.attributes.map((a) => ` ${a.name}="${escapeXmlAttribute(a.value)}"`).join('') + declarations(rpc);
    if (!rpc.attributes.some((a) => a.local === 'message-id' && a.ns === '')) {
      // RFC 6241 4.1: message-id is mandatory.
      this.counters.inBadRpcs++;
      this.sendErrors(attrs, [
        {
          errorType: 'rpc',
          errorTag: 'missing-attribute',
          errorMessage: 'the <rpc> has no message-id attribute',
          errorInfo: { 'bad-attribute': 'message-id', 'bad-element': 'rpc' },
        },
      ]);
      return;
    }
    const ops = childElements(rpc);
    if (ops.length !== 1) {
      this.counters.inBadRpcs++;
      this.sendErrors(attrs, [
        {
          errorType: 'rpc',
          errorTag: ops.length === 0 ? 'missing-element' : 'bad-element',
          errorMessage: 'an <rpc> holds exactly one operation',
          errorInfo: { 'bad-element': 'rpc' },
        },
      ]);
      return;
    }
    this.counters.inRpcs++;
    let content: ReplyContent;
    try {
      content = await this.host.dispatch(this, ops[0]!, rpc);
    } catch (error) {
      if (error !== CLOSE_AFTER_REPLY) {
        this.sendFailure(attrs, error);
        return;
      }
      this.closeAfterReply = true;
      content = '<ok/>';
    }
    if (typeof content === 'string') this.send(writeReply(attrs, content));
    else if (!(await this.sendPieces(attrs, content))) return;
    for (const task of this.afterReplyTasks.splice(0)) {
      try {
        task();
      } catch {
        // The reply is out; a failed follow-up must not stop the session's rpc queue.
      }
    }
    if (this.closeAfterReply) this.terminate('closed');
  }

  /**
   * Writes a reply whose content comes in pieces (see {@link ReplyPieces}), each framed as it comes
   * (RFC 6242 section 4.2), in slices of about {@link SLICE_MS} ms with a turn of the event loop
   * between them, waiting while the transport's buffer is full: a big reply holds neither the event
   * loop nor more memory than that buffer. Nothing else is written on the session meanwhile
   * (notifications wait, see {@link notify}). The first two pieces are made before anything is
   * written: a failure there is still an `<rpc-error>`, and a reply of one piece is written as one
   * message, as a string would be. A failure after the first byte cannot become an `<rpc-error>`
   * (RFC 6241 has no way to take back a reply begun): the session is closed instead. The pieces of
   * a reply are all checked before (filter, NACM, parameters), so only a defect can fail there.
   * Resolves true once the whole reply is written; false when it was not (an error was answered, or
   * the session ended, e.g. the client closed it mid-reply).
   */
  private async sendPieces(attrs: string, reply: ReplyPieces): Promise<boolean> {
    let ended = (): void => {};
    this.replyEnd = new Promise((resolve) => {
      ended = resolve;
    });
    this.held = [];
    try {
      const pieces = reply.pieces[Symbol.iterator]();
      // An empty piece is a step of the encoder that writes nothing yet (judging a big list ahead of
      // its first entry): skipped, with a turn of the event loop once the slice is over.
      const slices = new Slices();
      let first: IteratorResult<string>;
      let next: IteratorResult<string>;
      try {
        first = await nextText(pieces, slices);
        next = first.done === true ? first : await nextText(pieces, slices);
      } catch (error) {
        this.sendFailure(attrs, error);
        return false;
      }
      if (next.done === true) {
        // Closed meanwhile (by the client, or killed): the reply is not written.
        if (this.state !== 'open') return false;
        this.send(writeReply(attrs, first.done === true ? '' : first.value));
        return true;
      }
      try {
        let piece = replyStart(attrs) + first.value;
        for (;;) {
          // Closed meanwhile (by the client, or killed): the rest is not written.
          if (this.state !== 'open') return false;
          const last = next.done === true;
          this.write(encodeMessagePiece(last ? piece + REPLY_END : piece, this.framer.mode, last));
          if (last) return true;
          if (this.congested || slices.due) {
            await this.turn();
            slices.restart();
          }
          piece = next.value;
          next = await nextText(pieces, slices);
        }
      } catch {
        this.terminate('other');
        return false;
      }
    } finally {
      reply.release();
      const held = this.held;
      this.held = undefined;
      this.replyEnd = undefined;
      ended();
      for (const xml of held) this.send(xml);
    }
  }

  /** Gives the event loop a turn, or waits for a full transport to drain. */
  private async turn(): Promise<void> {
    if (!this.congested) return new Promise((resolve) => setImmediate(resolve));
    this.congested = false;
    const ended = new Promise<void>((resolve) => {
      this.stopWaiting = resolve;
    });
    await Promise.race([this.io.drained?.(), ended]);
    this.stopWaiting = undefined;
  }

  /** Answers a failed rpc: its {@link RpcError}s, or `operation-failed` for any other failure. */
  private sendFailure(attrs: string, error: unknown): void {
    if (RpcError.isInstance(error) && error instanceof RpcError) this.sendErrors(attrs, error.errors);
    else
      this.sendErrors(attrs, [
        {
          errorType: 'application',
          errorTag: 'operation-failed',
          errorMessage: error instanceof Error ? error.message : String(error),
        },
      ]);
  }

  private sendErrors(attrs: string, errors: readonly RpcErrorFields[]): void {
    // A failed rpc changed nothing: what was to follow its reply is dropped.
    this.afterReplyTasks = [];
    this.counters.outRpcErrors++;
    this.send(writeReply(attrs, errors.map(writeRpcError).join('')));
  }
}

function declarations(rpc: XmlElement): string {
  let s = '';
  for (const [p, u] of rpc.declarations) {
    if (p === '' && u === NETCONF_BASE_NS) continue;
    s += p === '' ? '' : ` xmlns:${p}="${escapeXmlAttribute(u)}"`;
  }
  return s;
}
