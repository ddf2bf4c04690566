import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import {
  CodecError,
  encodeXmlChunks,
  type FilterElement,
  type InstanceTree,
  type Steps,
  selectSubtreeSteps,
  selectXPathSteps,
  type TreeView,
  type WithDefaultsMode,
} from '@yangkit/yang-json-codec';
import { type CompiledXPath, compileXPath, XPathError } from '@yangkit/yang-xpath';
import type { Datastore, DatastoreName } from './datastore.js';
import { RpcError, rpcError, rpcErrorOf } from './errors.js';
import type { ReplyContent, ReplyPieces } from './reply.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import { holdRead, sharedReply, sharedReplyInSlices } from './shared-read.js';

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

/** A parsed `<filter>` (RFC 6241 6.1, 8.9): subtree elements, or an XPath expression compiled once. */
export type Filter =
  | { readonly subtree: readonly FilterElement[] }
  | { readonly xpath: string; readonly scope: ReadonlyMap<string, string>; readonly compiled?: CompiledXPath }
  | undefined;

/** The elements of a subtree filter as the codec's selection reads them (namespace optional, section 6.2.1). */
export function filterElements(els: readonly XmlElement[]): FilterElement[] {
  return els.map((el) => ({
    name: el.local,
    namespace: el.ns === '' ? undefined : el.ns,
    text: textOf(el),
    children: filterElements(childElements(el)),
    lookupPrefix: (prefix: string) => el.scope.lookup(prefix),
  }));
}

/** Reads a `<filter>` element: subtree (the default type) or xpath with its `select`. */
export function filterOf(el: XmlElement | undefined): Filter {
  if (!el) return undefined;
  const type = el.attributes.find((a) => a.local === 'type' && a.ns === '')?.value ?? 'subtree';
  if (type === 'subtree') return { subtree: filterElements(childElements(el)) };
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
    if (el.namespace === undefined) anyNs.add(el.name);
    else {
      const m = server.schema.moduleByNamespace(el.namespace);
      if (m) names.add(`${m.name}:${el.name}`);
    }
  }
  return (q) => names.has(q) || anyNs.has(q.slice(q.indexOf(':') + 1));
}

/** An XPath filter compiled with the prefixes in scope, or `invalid-value` when it does not compile. */
export function compiledXPath(filter: {
  xpath: string;
  scope: ReadonlyMap<string, string>;
  compiled?: CompiledXPath;
}): CompiledXPath {
  if (filter.compiled !== undefined) return filter.compiled;
  try {
    return compileXPath(filter.xpath, { prefixes: filter.scope });
  } catch (error) {
    throw invalidXPath(error);
  }
}

function invalidXPath(error: unknown): RpcError {
  return rpcError(
    'invalid-value',
    `invalid XPath filter: ${error instanceof Error ? error.message : String(error)}`,
    {
      errorType: 'protocol',
      errorInfo: { 'bad-attribute': 'select', 'bad-element': 'filter' },
    },
  );
}

/**
 * Applies a filter to a tree in steps, a step every few dozen nodes: the selection, sharing what it
 * selects whole with `tree`. An XPath filter's expression is evaluated in steps too (node by node
 * along its location steps), then its selection built in steps, within
 * `maxXPathWork` units of work (see `NetconfServerOptions.maxXPathWork`) when given.
 */
function* selectSteps(
  tree: InstanceTree,
  filter: NonNullable<Filter>,
  maxXPathWork?: number,
): Steps<InstanceTree> {
  try {
    if ('subtree' in filter) return yield* selectSubtreeSteps(tree, filter.subtree);
    const options = maxXPathWork === undefined ? {} : { maxWork: maxXPathWork };
    return yield* selectXPathSteps(tree, compiledXPath(filter), options);
  } catch (error) {
    if (error instanceof RpcError) throw error;
    if (CodecError.isInstance(error)) throw rpcErrorOf(tree.schema, [error])!;
    if (XPathError.isWorkLimit(error)) throw workLimitPassed(maxXPathWork);
    throw invalidXPath(error);
  }
}

/**
 * RFC 6241 appendix A `resource-denied` ("insufficient resources"): the filter's evaluation passed
 * the server's bound of work, as one whose cost grows with the square of the datastore does.
 */
function workLimitPassed(maxXPathWork: number | undefined): RpcError {
  return rpcError(
    'resource-denied',
    `the XPath filter needs more than the server's limit of ${maxXPathWork} units of work (nodes visited and predicates evaluated)`,
    { errorInfo: { 'bad-element': 'filter' } },
  );
}

/** What a read writes besides its data: RFC 6243 with-defaults, the `<data>` namespace, the view. */
export interface ReadOptions {
  readonly withDefaults?: WithDefaultsMode | undefined;
  /** The namespace of `<data>` (NMDA's get-data). */
  readonly namespace?: string;
  /** The encoders' view (config-filter, depth, origin); access control is added to it. */
  readonly view?: TreeView;
}

/**
 * The `<data>` reply of a read of `tree` (the datastore's own, or it with state) by `session`
 * with `filter`, written in pieces as the session sends them (see `ServerSession`) from the
 * datastore's own nodes, which are held until then so that the reply stays one snapshot (see
 * {@link holdRead}). Call it in the synchronous run that read `datastore.tree`, once every check
 * of the request has passed.
 *
 * RFC 8341 section 3.4.5, nothing the session may not read is written: without a filter, `tree`
 * itself is written through a view whose `filter` leaves out the unreadable nodes, so nothing is
 * copied or walked ahead; a subtree or XPath filter selects among what the session may read, so
 * it is applied to the readable tree, copied whole for XPath (which walks to parents), else in the
 * parts NACM restricts. The copy and the selection are made in slices before the first byte (see
 * {@link sharedReplyInSlices}), the whole copy for XPath and the XPath expression's evaluation
 * included. Either way the view leaves out what with-defaults would write of a leaf the session may
 * not read.
 */
export function readReply(
  server: NetconfServer,
  session: ServerSession,
  datastore: Datastore,
  tree: InstanceTree,
  filter: Filter,
  options: ReadOptions = {},
): ReplyContent | Promise<ReplyContent> {
  return readPieces(server, session, datastore, tree, filter, options.view ?? {}, (selection, view) =>
    dataChunks(selection, options.withDefaults, options.namespace, view),
  );
}

/**
 * {@link readReply}'s reading, written by `chunks` (an encoder of the selection through `view`, to
 * which access control is added) rather than as `<data>`: the read of a YANG Push update too.
 */
export function readPieces(
  server: NetconfServer,
  session: ServerSession,
  datastore: Datastore,
  tree: InstanceTree,
  filter: Filter,
  view: TreeView,
  chunks: (selection: InstanceTree, view: TreeView) => Iterable<string>,
): ReplyPieces | Promise<ReplyPieces> {
  const readFilter = server.nacm?.readFilter(session);
  // With the copy too: what with-defaults adds in the view is judged like the rest.
  const readView = readFilter === undefined ? view : { ...view, filter: readFilter };
  const read = holdRead(datastore, tree);
  if (!filter) return sharedReply(read, chunks(tree, readView));
  return sharedReplyInSlices(
    read,
    readableSelection(server, session, tree, filter),
    (selection) => chunks(selection, readView),
    () => !session.open,
  );
}

/** What `session` may read of `tree`, selected by `filter`, in steps (see {@link readReply}). */
function* readableSelection(
  server: NetconfServer,
  session: ServerSession,
  tree: InstanceTree,
  filter: NonNullable<Filter>,
): Steps<InstanceTree> {
  const nacm = server.nacm;
  const readable = nacm ? yield* nacm.readableSteps(session, tree, !('xpath' in filter)) : tree;
  return yield* selectSteps(readable, filter, server.maxXPathWork);
}

/**
 * The `<data>` reply content of a selection (in `namespace` when given: NMDA's get-data): the codec's
 * XML, written through a view with the RFC 6243 retrieval mode and the rest of `view` (the tree is
 * only read), in chunks of about 64 KiB, each encoded when it is asked for; an empty one is a step
 * of the encoder that writes nothing yet (see the codec's `nextText`).
 */
export function* dataChunks(
  tree: InstanceTree,
  withDefaults: WithDefaultsMode | undefined,
  namespace?: string,
  view: TreeView = {},
): Generator<string> {
  const open = namespace === undefined ? '<data' : `<data xmlns="${namespace}"`;
  const chunks = encodeXmlChunks(tree, {
    view: withDefaults === undefined ? view : { ...view, withDefaults },
  });
  // One chunk behind the encoder: the last one ends the element.
  let held: string | undefined;
  for (const chunk of chunks) {
    if (chunk === '') {
      // The encoder's step of work that writes nothing yet: passed on, for the writer's turns.
      yield chunk;
      continue;
    }
    if (held !== undefined) yield held;
    held = held === undefined ? `${open}>${chunk}` : chunk;
  }
  yield held === undefined ? `${open}/>` : `${held}</data>`;
}
