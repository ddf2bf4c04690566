import { childElements, innerXml, NETCONF_BASE_NS, parseXml } from '@yangkit/netconf-client';
import { decodeJson, encodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';

/**
 * The content of the `<config>` of the `<edit-config>` that loads `--initial-data`: the file's
 * top-level data elements, or, when the file is one NETCONF `<config>` element (RFC 6241 section
 * 7.2, in the base namespace or in none), its children, the namespaces declared on it pushed down
 * onto them. A file that starts with `{` is JSON (RFC 7951), the datastore's content as a PUT of
 * `{+restconf}/data` carries it (in `ietf-restconf:data` or not), decoded against `schema` and
 * written as XML. Throws the reader's `XmlError` (with line and column) for a file that is no XML,
 * the codec's error for JSON that is not the schema's data, and an error saying so for a file that
 * holds no data element.
 */
export function initialConfig(text: string, schema: SchemaTree): string {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return encodeXml(decodeJson(schema, start, { kind: 'config' }));
  // The XML declaration may only start a document: the content goes inside <edit-config>.
  const body = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
  // Wrapped, so that several top-level elements read as one document.
  const top = childElements(parseXml(`<initial-data>${body}</initial-data>`));
  if (top.length === 0) throw new Error('it holds no XML element and is no JSON object');
  const only = top.length === 1 ? top[0] : undefined;
  if (only?.local !== 'config') return body;
  return only.ns === '' || only.ns === NETCONF_BASE_NS ? innerXml(only) : body;
}
