import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import type { DataNode } from './data-tree.js';
import type { DatastoreName } from './datastore.js';
import { applyEdit, type EditOperation } from './edit-config.js';
import { rpcError } from './errors.js';
import { subtreeFilter, xpathFilter } from './filter.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import { type Selected, selectAll, type WithDefaultsMode, writeSelection } from './write-xml.js';

/** Namespace of ietf-netconf-nmda (RFC 8526). */
export const NMDA_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-nmda';
const DS_NS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

/** Resolves the `datastore` identityref (`ds:running`) to a datastore name. */
function datastoreOf(op: XmlElement): string {
  const el = childElement(op, 'datastore', NMDA_NS);
  if (!el)
    throw rpcError('missing-element', `<${op.local}> needs <datastore>`, {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'datastore' },
    });
  const text = textOf(el).trim();
  const colon = text.indexOf(':');
  const ns = el.scope.lookup(colon === -1 ? '' : text.slice(0, colon));
  const name = text.slice(colon + 1);
  if (ns !== DS_NS || !['running', 'candidate', 'startup', 'intended', 'operational'].includes(name)) {
    throw rpcError('invalid-value', `"${text}" is not a datastore of this server`, {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'datastore' },
    });
  }
  return name;
}

/** RFC 8526 3.1.1 `<get-data>`: datastore, subtree/xpath filter, config-filter, max-depth, with-origin, with-defaults. */
export async function getData(
  server: NetconfServer,
  session: ServerSession,
  op: XmlElement,
): Promise<string> {
  const name = datastoreOf(op);
  let root: DataNode;
  if (name === 'operational') root = await server.operationalView(session);
  else root = server.datastore(name === 'intended' ? 'running' : (name as DatastoreName)).root;
  const subtree = childElement(op, 'subtree-filter', NMDA_NS);
  const xpath = childElement(op, 'xpath-filter', NMDA_NS);
  // RFC 8341 section 3.4.5: unreadable nodes are left out before filtering.
  if (server.nacm) root = server.nacm.readable(session, root, xpath === undefined);
  let selection: Selected[];
  if (subtree) selection = subtreeFilter(server.schema, root, childElements(subtree));
  else if (xpath) selection = xpathFilter(server.schema, root, textOf(xpath).trim(), xpath.scope.bindings());
  else selection = selectAll(root);
  const cf = childElement(op, 'config-filter', NMDA_NS);
  const configFilter = cf ? textOf(cf).trim() === 'true' : undefined;
  const wd = childElement(op, 'with-defaults', NMDA_NS);
  const withOrigin = childElement(op, 'with-origin', NMDA_NS) !== undefined;
  const depthEl = childElement(op, 'max-depth', NMDA_NS);
  const depthText = depthEl ? textOf(depthEl).trim() : 'unbounded';
  const maxDepth = depthText === 'unbounded' ? undefined : Number(depthText);
  if (maxDepth !== undefined && (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 65535)) {
    throw rpcError('invalid-value', 'max-depth is 1..65535 or unbounded', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'max-depth' },
    });
  }
  if (withOrigin && name !== 'operational') {
    throw rpcError('invalid-value', 'with-origin applies to the operational datastore only', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'with-origin' },
    });
  }
  const body = writeSelection(server.schema, selection, {
    ...(wd ? { withDefaults: textOf(wd).trim() as WithDefaultsMode } : {}),
    ...(configFilter !== undefined ? { configFilter } : {}),
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    ...(withOrigin ? { origin: (n: DataNode) => (n.schema?.config ? 'intended' : 'system') } : {}),
  });
  return `<data xmlns="${NMDA_NS}">${body}</data>`;
}

/** RFC 8526 3.1.2 `<edit-data>`: edit-config semantics on running or candidate. */
export function editData(server: NetconfServer, session: ServerSession, op: XmlElement): string {
  const name = datastoreOf(op);
  if (name !== 'running' && name !== 'candidate') {
    throw rpcError('invalid-value', `the ${name} datastore cannot be edited`, {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'datastore' },
    });
  }
  const ds = server.datastore(name);
  server.checkLock(name, session);
  const access = server.nacm?.of(session);
  const dop = childElement(op, 'default-operation', NMDA_NS);
  const defaultOperation = (dop ? textOf(dop).trim() : 'merge') as EditOperation;
  const config = childElement(op, 'config', NMDA_NS);
  if (!config)
    throw rpcError('missing-element', '<edit-data> needs <config>', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'config' },
    });
  const content = childElements(config);
  const edit = (d: typeof ds): void =>
    applyEdit(server.schema, d, content, { defaultOperation, errorOption: 'rollback-on-error' });
  if (name === 'running') server.transact(session, edit, { access });
  else {
    const mark = ds.mark();
    try {
      edit(ds);
      server.nacm?.checkWrite(access, ds.changesSince(mark));
    } catch (error) {
      ds.undoTo(mark);
      throw error;
    }
  }
  void NETCONF_BASE_NS;
  return '<ok/>';
}
