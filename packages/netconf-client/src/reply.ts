import {
  childElement,
  childElements,
  finishSteps,
  innerXml,
  namespaceDeclarations,
  type Steps,
  streamXmlSteps,
  type XmlElement,
  XmlError,
  type XmlLimits,
  type XmlSink,
  type XmlSinkDecision,
} from '@yangkit/xml';
import { NetconfError } from './errors.js';
import { NETCONF_BASE_NS } from './messages.js';
import { messageError, readMessage } from './read-message.js';
import type { RpcReply } from './session.js';

/**
 * What a large `<rpc-reply>` (RFC 6241 section 4.2) is made of when only its envelope was
 * read: enough to correlate and answer it, with the content kept as slices of the message, each
 * written on first access (a read wants `<data>` only, not a second copy of the whole content).
 */
export interface ScannedReply {
  readonly messageId: string | undefined;
  readonly ok: boolean;
  /** The content of `<rpc-reply>`, namespaces pushed down onto each child. */
  readonly xml: string;
  /** The content of the first `<data>` child, namespaces pushed down; `undefined` without one. */
  readonly dataXml: string | undefined;
}

/** An element of the envelope (the root, its children and theirs) and where it stands in the text. */
interface Placed {
  readonly element: XmlElement;
  /** Index of the `>` (or the `/` of `/>`) ending the start tag: where pushed-down declarations go. */
  readonly tagClose: number;
  readonly contentStart: number;
  contentEnd: number;
  readonly children: Placed[];
}

function notOneRoot(): NetconfError {
  return new NetconfError('XML_PARSE', 'a document must have exactly one root element');
}

/** Depth of the elements whose places are recorded: the root (0), its children and theirs. */
const PLACED_DEPTH = 2;

/** Records the envelope elements; everything below them is read (and checked) but skipped. */
class EnvelopeSink implements XmlSink {
  root: Placed | undefined;
  /** The recorded element open at each depth. */
  private readonly openAt: Placed[] = [];

  constructor(private readonly message: string) {}

  open(element: XmlElement, depth: number, _start: number, end: number): XmlSinkDecision {
    const emptyTag = this.message.charCodeAt(end - 2) === 0x2f; /* `/>` */
    const placed: Placed = {
      element,
      tagClose: emptyTag ? end - 2 : end - 1,
      contentStart: end,
      contentEnd: end,
      children: [],
    };
    if (depth === 0) {
      if (this.root !== undefined) throw notOneRoot();
      this.root = placed;
    } else this.openAt[depth - 1]!.children.push(placed);
    this.openAt[depth] = placed;
    return depth < PLACED_DEPTH ? 'stream' : 'skip';
  }

  text(): void {}

  close(element: XmlElement, contentEnd: number): void {
    const placed = this.openAt.find((p) => p.element === element);
    if (placed !== undefined) placed.contentEnd = contentEnd;
  }
}

/**
 * The content of `parent` as text: each child element gets the declarations of `bindings` it does
 * not make itself, written at the end of its start tag; everything else is copied from the message
 * unchanged (it is already well-formed XML text), so nothing below the children is re-serialized.
 */
function contentWithScope(text: string, parent: Placed, bindings: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  let at = parent.contentStart;
  for (const child of parent.children) {
    out.push(text.slice(at, child.tagClose));
    out.push(
      namespaceDeclarations([...bindings].filter(([prefix]) => !child.element.declarations.has(prefix))),
    );
    at = child.tagClose;
  }
  out.push(text.slice(at, parent.contentEnd));
  return out.join('').trim();
}

/**
 * Reads an `<rpc-reply>` without building a tree: the whole message is read and checked as
 * `parseXml` checks it, but only the envelope is kept (the root, its children and theirs).
 * Returns `undefined` when the message is not an `<rpc-reply>` in the base namespace or holds an
 * `<rpc-error>`: those are small, and the caller reads them in full.
 */
export function scanReply(text: string, limits: XmlLimits = {}): ScannedReply | undefined {
  return finishSteps(scanReplySteps(text, limits));
}

/**
 * {@link scanReply} in steps (see the XML layer's `Steps`): a session reads a big reply a few
 * milliseconds at a time, so that the scan of megabytes does not hold the event loop.
 */
export function* scanReplySteps(text: string, limits: XmlLimits = {}): Steps<ScannedReply | undefined> {
  const sink = new EnvelopeSink(text);
  try {
    // Nothing below the envelope is kept, so the element count needs no bound beyond the size.
    yield* streamXmlSteps(text, sink, { ...limits, maxElements: Number.POSITIVE_INFINITY });
  } catch (error) {
    throw XmlError.isInstance(error) ? messageError(error) : error;
  }
  const root = sink.root;
  if (root === undefined) throw notOneRoot();
  if (root.element.local !== 'rpc-reply' || root.element.ns !== NETCONF_BASE_NS) return undefined;
  let ok = false;
  let data: Placed | undefined;
  for (const child of root.children) {
    const { local, ns } = child.element;
    if (local === 'rpc-error') return undefined;
    if (local === 'ok' && ns === NETCONF_BASE_NS) ok = true;
    if (local === 'data' && data === undefined) data = child;
  }
  let xml: string | undefined;
  let dataXml: string | undefined;
  return {
    messageId: root.element.attributes.find((a) => a.name === 'message-id')?.value,
    ok,
    get xml() {
      xml ??= contentWithScope(text, root, root.element.scope.bindings());
      return xml;
    },
    get dataXml() {
      if (data !== undefined) dataXml ??= contentWithScope(text, data, data.element.scope.bindings());
      return dataXml;
    },
  };
}

const scannedReplies = new WeakMap<RpcReply, ScannedReply>();

/**
 * The reply a session resolves with for a scanned `<rpc-reply>`: `element` is read in full on
 * first access only.
 */
export function lazyReply(
  scanned: ScannedReply,
  messageId: string,
  text: string,
  limits: XmlLimits,
): RpcReply {
  let element: XmlElement | undefined;
  const reply: RpcReply = {
    messageId,
    ok: scanned.ok,
    get xml(): string {
      return scanned.xml;
    },
    get element(): XmlElement {
      element ??= readMessage(text, limits);
      return element;
    },
    warnings: [],
  };
  scannedReplies.set(reply, scanned);
  return reply;
}

/**
 * The content of the first `<data>` of a reply as a decoder takes it, read once either way: the
 * text of a large reply (a slice of the message, namespaces pushed down; never parsed into a
 * tree), or the elements of a reply parsed on arrival; `undefined` without `<data>`.
 */
export function replyData(reply: RpcReply): string | XmlElement[] | undefined {
  const scanned = scannedReplies.get(reply);
  if (scanned !== undefined) return scanned.dataXml;
  const data = childElement(reply.element, 'data');
  return data === undefined ? undefined : childElements(data);
}

/**
 * A reply as a decoder takes it, read once either way: the text of a large reply's content (a slice
 * of the message, namespaces pushed down; never parsed into a tree, which would cost a pass over
 * the whole message at once), or the `<rpc-reply>` element of a reply parsed on arrival.
 */
export function replyContent(reply: RpcReply): string | XmlElement {
  const scanned = scannedReplies.get(reply);
  return scanned !== undefined ? scanned.xml : reply.element;
}

/** The content of the first `<data>` of a reply, namespaces pushed down; `undefined` without one. */
export function replyDataXml(reply: RpcReply): string | undefined {
  const scanned = scannedReplies.get(reply);
  if (scanned !== undefined) return scanned.dataXml;
  const data = childElement(reply.element, 'data');
  return data === undefined ? undefined : innerXml(data).trim();
}
