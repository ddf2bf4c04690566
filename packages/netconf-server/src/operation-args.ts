import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import type { DataNode } from './data-tree.js';
import type { DatastoreName } from './datastore.js';
import { RpcError, rpcError } from './errors.js';
import { subtreeFilter, xpathFilter } from './filter.js';
import type { NetconfServer } from './server.js';
import { type Selected, selectAll, type WithDefaultsMode } from './write-xml.js';

const WD_MODULE_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-with-defaults';

/** A child of an operation element in the NETCONF base namespace. */
export const base = (op: XmlElement, local: string): XmlElement | undefined =>
  childElement(op, local, NETCONF_BASE_NS);

/** A missing-element error for a required parameter of an operation. */
export function missing(op: XmlElement, local: string): RpcError {
  return new RpcError({
    errorType: 'protocol',
    errorTag: 'missing-element',
    errorMessage: `<${op.local}> needs <${local}>`,
    errorInfo: { 'bad-element': local },
  });
}

/** The datastore named inside `<source>`/`<target>` (RFC 6241 7.1); `<url>` is not supported. */
export function datastoreIn(
  op: XmlElement,
  local: 'source' | 'target',
  allowConfig = false,
): DatastoreName | XmlElement {
  const el = base(op, local);
  if (!el) throw missing(op, local);
  const inner = childElements(el)[0];
  if (!inner) throw missing(op, local);
  if (allowConfig && inner.local === 'config' && inner.ns === NETCONF_BASE_NS) return inner;
  if (inner.local === 'url')
    throw rpcError('operation-not-supported', 'the :url capability is not supported', {
      errorType: 'protocol',
    });
  if (
    inner.ns === NETCONF_BASE_NS &&
    (inner.local === 'running' || inner.local === 'candidate' || inner.local === 'startup')
  )
    return inner.local;
  throw rpcError('invalid-value', `<${inner.local}> is not a datastore of this server`, {
    errorType: 'protocol',
    errorInfo: { 'bad-element': inner.local },
  });
}

/** The RFC 6243 `<with-defaults>` parameter of a retrieval, if given. */
export function withDefaultsOf(op: XmlElement): WithDefaultsMode | undefined {
  const el = childElement(op, 'with-defaults', WD_MODULE_NS);
  if (!el) return undefined;
  const mode = textOf(el).trim();
  if (mode === 'report-all' || mode === 'report-all-tagged' || mode === 'trim' || mode === 'explicit')
    return mode;
  throw rpcError('invalid-value', `with-defaults "${mode}" is not a retrieval mode`, {
    errorType: 'protocol',
    errorInfo: { 'bad-element': 'with-defaults' },
  });
}

/** A parsed `<filter>` (RFC 6241 6.1, 8.9). */
export type Filter =
  | { readonly subtree: readonly XmlElement[] }
  | { readonly xpath: string; readonly scope: ReadonlyMap<string, string> }
  | undefined;

/** Reads a `<filter>` element: subtree (the default type) or xpath with its `select`. */
export function filterOf(el: XmlElement | undefined): Filter {
  if (!el) return undefined;
  const type = el.attributes.find((a) => a.local === 'type' && a.ns === '')?.value ?? 'subtree';
  if (type === 'subtree') return { subtree: childElements(el) };
  if (type === 'xpath') {
    const select = el.attributes.find((a) => a.local === 'select')?.value;
    if (select === undefined)
      throw rpcError('missing-attribute', 'an xpath filter needs a select attribute', {
        errorType: 'protocol',
        errorInfo: { 'bad-attribute': 'select', 'bad-element': 'filter' },
      });
    return { xpath: select, scope: el.scope.bindings() };
  }
  throw rpcError('bad-attribute', `filter type "${type}" is not subtree or xpath`, {
    errorType: 'protocol',
    errorInfo: { 'bad-attribute': 'type', 'bad-element': 'filter' },
  });
}

/** Which top-level nodes a subtree filter can select, so unrelated state providers are skipped. */
export function wantedTops(server: NetconfServer, filter: Filter): ((q: string) => boolean) | undefined {
  if (!filter || !('subtree' in filter)) return undefined;
  const names = new Set<string>();
  const anyNs = new Set<string>();
  for (const el of filter.subtree) {
    if (el.ns === '') anyNs.add(el.local);
    else {
      const m = server.schema.moduleByNamespace(el.ns);
      if (m) names.add(`${m.name}:${el.local}`);
    }
  }
  return (q) => names.has(q) || anyNs.has(q.slice(q.indexOf(':') + 1));
}

/** Applies a filter (or none) to a datastore root. */
export function select(server: NetconfServer, root: DataNode, filter: Filter): Selected[] {
  if (!filter) return selectAll(root);
  if ('subtree' in filter) return subtreeFilter(server.schema, root, filter.subtree);
  return xpathFilter(server.schema, root, filter.xpath, filter.scope);
}
