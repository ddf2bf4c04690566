import { escapeXmlAttribute, escapeXmlText, NETCONF_BASE_NS } from '@yangkit/netconf-client';
import type { RpcErrorFields } from './errors.js';

/**
 * Writes one `<rpc-error>` (RFC 6241 section 4.3):
 * ```
 * <rpc-error><error-type/><error-tag/><error-severity/>[<error-app-tag/>][<error-path/>]
 *   [<error-message xml:lang="en"/>][<error-info>...</error-info>]</rpc-error>
 * ```
 */
export function writeRpcError(e: RpcErrorFields): string {
  let s = `<rpc-error><error-type>${e.errorType}</error-type><error-tag>${e.errorTag}</error-tag><error-severity>${e.errorSeverity ?? 'error'}</error-severity>`;
  if (e.errorAppTag !== undefined) s += `<error-app-tag>${escapeXmlText(e.errorAppTag)}</error-app-tag>`;
  if (e.errorPath !== undefined) {
    let decl = '';
    for (const [p, u] of e.errorPathNamespaces ?? []) decl += ` xmlns:${p}="${escapeXmlAttribute(u)}"`;
    s += `<error-path${decl}>${escapeXmlText(e.errorPath)}</error-path>`;
  }
  if (e.errorMessage !== undefined)
    s += `<error-message xml:lang="en">${escapeXmlText(e.errorMessage)}</error-message>`;
  const info = e.errorInfo;
  if (info !== undefined && Object.keys(info).length > 0) {
    s += '<error-info>';
    for (const [k, v] of Object.entries(info)) s += `<${k}>${escapeXmlText(v)}</${k}>`;
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
