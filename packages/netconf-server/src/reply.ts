import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { escapeXmlText, namespaceDeclarations, replaceNonXmlChars } from '@yangkit/xml';
import type { RpcErrorFields } from './errors.js';

/**
 * Writes one `<rpc-error>` (RFC 6241 section 4.3):
 * ```
 * <rpc-error><error-type/><error-tag/><error-severity/>[<error-app-tag/>][<error-path/>]
 *   [<error-message xml:lang="en"/>][<error-info>...</error-info>]</rpc-error>
 * ```
 * An error must always be written: a message or value quoting the input has the characters XML
 * 1.0 cannot carry replaced (U+FFFD).
 */
export function writeRpcError(e: RpcErrorFields): string {
  const text = (v: string) => escapeXmlText(replaceNonXmlChars(v));
  let s = `<rpc-error><error-type>${e.errorType}</error-type><error-tag>${e.errorTag}</error-tag><error-severity>${e.errorSeverity ?? 'error'}</error-severity>`;
  if (e.errorAppTag !== undefined) s += `<error-app-tag>${text(e.errorAppTag)}</error-app-tag>`;
  if (e.errorPath !== undefined) {
    const decl = namespaceDeclarations(e.errorPathNamespaces ?? []);
    s += `<error-path${decl}>${text(e.errorPath)}</error-path>`;
  }
  if (e.errorMessage !== undefined)
    s += `<error-message xml:lang="en">${text(e.errorMessage)}</error-message>`;
  const info = e.errorInfo;
  if (info !== undefined && Object.keys(info).length > 0) {
    s += '<error-info>';
    for (const [k, v] of Object.entries(info)) s += `<${k}>${text(v)}</${k}>`;
    s += '</error-info>';
  }
  return `${s}</rpc-error>`;
}

/**
 * Reply content written in pieces as the transport takes them (a big `<data>`), rather than as one
 * string: the session frames each piece as it comes (RFC 6242), so that neither the event loop
 * nor memory holds the whole reply. Pulling a piece does the work of that piece (encoding).
 */
export interface ReplyPieces {
  /**
   * The content's pieces, in order; an empty one is a step of work that writes nothing yet (judging
   * a big list ahead of its first entry), where the writer may give the event loop a turn.
   */
  readonly pieces: Iterable<string>;
  /** Called once, when the pieces are all written or will not be (the session ended, a failure). */
  release(): void;
}

/** What an operation answers: the reply content as one string, or in pieces. */
export type ReplyContent = string | ReplyPieces;

/**
 * The start of `<rpc-reply>`, echoing the `<rpc>` attributes (message-id and any other, RFC 6241
 * section 4.2); {@link REPLY_END} ends it.
 */
export function replyStart(attributes: string): string {
  return `<rpc-reply xmlns="${NETCONF_BASE_NS}"${attributes}>`;
}

/** The end of `<rpc-reply>`. */
export const REPLY_END = '</rpc-reply>';

/** Wraps reply content in `<rpc-reply>` (see {@link replyStart}). */
export function writeReply(attributes: string, content: string): string {
  return `${replyStart(attributes)}${content}${REPLY_END}`;
}
