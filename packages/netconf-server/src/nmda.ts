import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import type { DataNode, Steps, TreeEdit, WithDefaultsMode } from '@yangkit/yang-json-codec';
import { editDatastoreSteps } from './config-edit.js';
import { type DatastoreName, withState } from './datastore.js';
import { configEditsInSlices, type EditOperation } from './edit-config.js';
import { rpcError } from './errors.js';
import { type Filter, filterElements, readReply } from './operation-args.js';
import type { ReplyContent } from './reply.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';

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
): Promise<ReplyContent> {
  const name = datastoreOf(op);
  const subtree = childElement(op, 'subtree-filter', NMDA_NS);
  const xpath = childElement(op, 'xpath-filter', NMDA_NS);
  const filter: Filter = subtree
    ? { subtree: filterElements(childElements(subtree)) }
    : xpath
      ? { xpath: textOf(xpath).trim(), scope: xpath.scope.bindings() }
      : undefined;
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
  const state = name === 'operational' ? await server.operationalState(session) : undefined;
  const read = name === 'operational' || name === 'intended' ? 'running' : (name as DatastoreName);
  // At the datastore's turn, one synchronous run to the reply's hold: the tree read is its own.
  return server.readAtTurn(read, (datastore) => {
    const tree = state === undefined ? datastore.tree : withState(datastore.tree, state);
    // RFC 8341 section 3.4.5: unreadable nodes are left out (before filtering, or as the reply is
    // written). The selection shares nodes with the datastore: config-filter, max-depth and the
    // origins apply as it is written.
    return readReply(server, session, datastore, tree, filter, {
      withDefaults: wd ? (textOf(wd).trim() as WithDefaultsMode) : undefined,
      namespace: NMDA_NS,
      view: {
        ...(configFilter === undefined ? {} : { content: configFilter ? 'config' : 'nonconfig' }),
        // RFC 8526 max-depth counts top-level nodes as level 1; the codec's depth counts the datastore.
        ...(maxDepth === undefined ? {} : { depth: maxDepth + 1 }),
        ...(withOrigin ? { origin: operationalOrigin } : {}),
      },
    });
  });
}

/**
 * RFC 8342 section 5.3.4 `with-origin`: the origin of a node of this server's operational datastore
 * (a codec `OriginRule`): configuration comes from `intended`, state from the `system`. The encoders'
 * view writes it where it differs from the parent's, and `default` for what with-defaults adds.
 */
export function operationalOrigin(node: DataNode): string {
  return node.schema.config ? 'ietf-origin:intended' : 'ietf-origin:system';
}

/** RFC 8526 3.1.2 `<edit-data>`: edit-config semantics on running or candidate, in slices with the candidate held. */
export async function editData(
  server: NetconfServer,
  session: ServerSession,
  op: XmlElement,
): Promise<string> {
  const name = datastoreOf(op);
  const dop = childElement(op, 'default-operation', NMDA_NS);
  const defaultOperation = (dop ? textOf(dop).trim() : 'merge') as EditOperation;
  const config = childElement(op, 'config', NMDA_NS);
  if (!config)
    throw rpcError('missing-element', '<edit-data> needs <config>', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'config' },
    });
  const { edits } = await configEditsInSlices(server.schema, childElements(config), defaultOperation);
  await server.reserveCandidate(() => editDataSteps(server, session, name, edits));
  return '<ok/>';
}

/**
 * The edit of `<edit-data>` (RFC 8526 3.1.2) once its content is the codec's edits, in steps: all or
 * none, NACM checked (RFC 8341 section 3.4.5), on running one transaction (see `editRunningSteps`).
 * Both the NETCONF operation and the in-process tree API run it; run in slices, it goes within
 * `NetconfServer.reserveCandidate`.
 */
export function* editDataSteps(
  server: NetconfServer,
  session: ServerSession,
  name: string,
  edits: readonly TreeEdit[],
): Steps<void> {
  if (name !== 'running' && name !== 'candidate') {
    throw rpcError('invalid-value', `the ${name} datastore cannot be edited`, {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'datastore' },
    });
  }
  // The edits carry their operations: default-operation is merge, whatever <edit-data> said.
  yield* editDatastoreSteps(server, session, name, edits, {
    defaultOperation: 'merge',
    errorOption: 'rollback-on-error',
    testOption: 'test-then-set',
  });
}
