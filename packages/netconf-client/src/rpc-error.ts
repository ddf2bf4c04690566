import { childElement, childElements, innerXml, textOf, XML_NAMESPACE, type XmlElement } from '@yangkit/xml';
import type { RpcErrorInfo } from './errors.js';

/**
 * Decodes every `<rpc-error>` child of an `<rpc-reply>` (RFC 6241 section 4.3), in order:
 *
 * ```
 * <rpc-error>
 *   <error-type/> <error-tag/> <error-severity/> <error-app-tag/>?
 *   <error-path/>? <error-message xml:lang=".."/>? <error-info/>?
 * </rpc-error>
 * ```
 *
 * A missing mandatory field becomes `''` rather than an exception: servers in the wild send
 * malformed errors (netconfd's partial-lock sends an empty error-severity) and the caller still
 * needs to see them.
 */
export function parseRpcErrors(reply: XmlElement): RpcErrorInfo[] {
  return childElements(reply, 'rpc-error').map((el) => {
    const field = (name: string): string | undefined => {
      const child = childElement(el, name);
      return child === undefined ? undefined : textOf(child).trim();
    };
    const info: RpcErrorInfo = {
      errorType: field('error-type') ?? '',
      errorTag: field('error-tag') ?? '',
      errorSeverity: field('error-severity') ?? '',
    };
    const appTag = field('error-app-tag');
    if (appTag !== undefined) info.errorAppTag = appTag;
    const path = field('error-path');
    if (path !== undefined) info.errorPath = path;
    const messageEl = childElement(el, 'error-message');
    if (messageEl !== undefined) {
      info.errorMessage = textOf(messageEl).trim();
      const lang = messageEl.attributes.find((a) => a.local === 'lang' && a.ns === XML_NAMESPACE);
      if (lang !== undefined) info.errorMessageLang = lang.value;
    }
    const infoEl = childElement(el, 'error-info');
    if (infoEl !== undefined) {
      const fields: Record<string, string> = {};
      for (const child of childElements(infoEl)) {
        // Only simple (text-only) children become fields; structured ones stay in `xml`.
        if (child.children.some((c) => typeof c !== 'string')) continue;
        if (!Object.hasOwn(fields, child.local)) fields[child.local] = textOf(child).trim();
      }
      info.errorInfo = { xml: innerXml(infoEl).trim(), fields };
    }
    return info;
  });
}
