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
 * Wraps reply content in `<rpc-reply>`, echoing the `<rpc>` attributes (message-id and any other,
 * RFC 6241 section 4.2).
 */
export function writeReply(attributes: string, content: string): string {
  return `<rpc-reply xmlns="${NETCONF_BASE_NS}"${attributes}>${content}</rpc-reply>`;
}
