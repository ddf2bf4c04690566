import { type EnvelopeElement, scanEnvelope } from './envelope.js';
import { NetconfError } from './errors.js';
import { NETCONF_BASE_NS } from './messages.js';
import type { RpcReply } from './session.js';
import {
  childElement,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_LENGTH,
  escapeXmlAttribute,
  innerXml,
  parseXml,
  type XmlElement,
  type XmlLimits,
} from './xml.js';

/**
 * What a large `<rpc-reply>` (RFC 6241 section 4.2) is made of when only its envelope was
 * scanned: enough to correlate and answer it, with the content kept as slices of the message.
 */
export interface ScannedReply {
  readonly messageId: string | undefined;
  readonly ok: boolean;
  /** The content of `<rpc-reply>`, namespaces pushed down onto each child. */
  readonly xml: string;
  /** The content of the first `<data>` child, namespaces pushed down; `undefined` without one. */
  readonly dataXml: string | undefined;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function splitName(qname: string): [prefix: string, local: string] {
  const colon = qname.indexOf(':');
  return colon === -1 ? ['', qname] : [qname.slice(0, colon), qname.slice(colon + 1)];
}

function withDeclarations(
  scope: ReadonlyMap<string, string>,
  el: EnvelopeElement,
): ReadonlyMap<string, string> {
  if (el.declarations.size === 0) return scope;
  const merged = new Map(scope);
  for (const [prefix, uri] of el.declarations) merged.set(prefix, uri);
  return merged;
}

function namespaceOf(scope: ReadonlyMap<string, string>, el: EnvelopeElement): string | undefined {
  const [prefix] = splitName(el.name);
  if (prefix === 'xml') return XML_NS;
  return scope.get(prefix) || undefined;
}

/**
 * The content of `parent` as text: each child element gets the declarations of `scope` it does not
 * make itself, written at the end of its start tag (the order innerXml writes them in); everything else is copied from the message unchanged
 * (it is already well-formed XML text), so nothing below the children is re-serialized.
 */
function contentWithScope(text: string, parent: EnvelopeElement, scope: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  let at = parent.contentStart;
  for (const child of parent.children) {
    out.push(text.slice(at, child.tagClose));
    for (const [prefix, uri] of scope) {
      if (prefix === 'xml' || child.declarations.has(prefix)) continue;
      out.push(prefix === '' ? ' xmlns="' : ` xmlns:${prefix}="`, escapeXmlAttribute(uri), '"');
    }
    at = child.tagClose;
  }
  out.push(text.slice(at, parent.contentEnd));
  return out.join('').trim();
}

/**
 * Scans an `<rpc-reply>` without building a tree (see `scanEnvelope` for what is checked).
 * Returns `undefined` when the message is not an `<rpc-reply>` in the base namespace or holds an
 * `<rpc-error>`: those are small, and the caller parses them in full.
 */
export function scanReply(text: string, limits: XmlLimits = {}): ScannedReply | undefined {
  const maxLength = limits.maxLength ?? DEFAULT_MAX_LENGTH;
  if (text.length > maxLength)
    throw new NetconfError('XML_PARSE', `document exceeds ${maxLength} characters`);
  const root = scanEnvelope(text, limits.maxDepth ?? DEFAULT_MAX_DEPTH);
  const scope = withDeclarations(new Map(), root);
  if (splitName(root.name)[1] !== 'rpc-reply' || namespaceOf(scope, root) !== NETCONF_BASE_NS)
    return undefined;
  let ok = false;
  let data: EnvelopeElement | undefined;
  for (const child of root.children) {
    const local = splitName(child.name)[1];
    if (local === 'rpc-error') return undefined;
    if (local === 'ok' && namespaceOf(withDeclarations(scope, child), child) === NETCONF_BASE_NS) ok = true;
    if (local === 'data' && data === undefined) data = child;
  }
  return {
    messageId: root.attributes.get('message-id'),
    ok,
    xml: contentWithScope(text, root, scope),
    dataXml: data === undefined ? undefined : contentWithScope(text, data, withDeclarations(scope, data)),
  };
}

const scannedReplies = new WeakMap<RpcReply, ScannedReply>();

/**
 * The reply a session resolves with for a scanned `<rpc-reply>`: `element` is parsed in full on
 * first access only (and throws `XML_PARSE` then if the content is not namespace-well-formed).
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
    xml: scanned.xml,
    get element(): XmlElement {
      element ??= parseXml(text, limits);
      return element;
    },
    warnings: [],
  };
  scannedReplies.set(reply, scanned);
  return reply;
}

/** The content of the first `<data>` of a reply, namespaces pushed down; `undefined` without one. */
export function replyDataXml(reply: RpcReply): string | undefined {
  const scanned = scannedReplies.get(reply);
  if (scanned !== undefined) return scanned.dataXml;
  const data = childElement(reply.element, 'data');
  return data === undefined ? undefined : innerXml(data).trim();
}
