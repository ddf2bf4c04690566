import { childElements, innerXml, NETCONF_BASE_NS, parseXml } from '@yangkit/netconf-client';

/**
 * The content of the `<config>` of the `<edit-config>` that loads `--initial-data`: the file's
 * top-level data elements, or, when the file is one NETCONF `<config>` element (RFC 6241 section
 * 7.2, in the base namespace or in none), its children, the namespaces declared on it pushed down
 * onto them. Throws the reader's `XmlError` (with line and column) for a file that is no XML.
 */
export function initialConfig(text: string): string {
  // The XML declaration may only start a document: the content goes inside <edit-config>.
  const body = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
  // Wrapped, so that several top-level elements read as one document.
  const top = childElements(parseXml(`<initial-data>${body}</initial-data>`));
  const only = top.length === 1 ? top[0] : undefined;
  if (only?.local !== 'config') return body;
  return only.ns === '' || only.ns === NETCONF_BASE_NS ? innerXml(only) : body;
}
