import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import {
  applyWithDefaults,
  type DataNode,
  encodeJsonChunks,
  encodeXmlChunks,
  finishInSlices,
  type InstanceTree,
  type NodeFilter,
  type OriginRule,
  type PathStep,
  snapshotAfterSteps,
  snapshotChunks,
  type TreeView,
  type ViewedNode,
  viewedTopLevelSteps,
} from '@yangkit/yang-json-codec';
import type { SharedRead } from './backend.js';
import { encodeOptions, type RequestContext } from './context.js';
import { RestconfError } from './errors.js';
import { findInstances, resourceTree, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { addRestconfState } from './monitoring.js';
import { followsRunning, type NmdaDatastore } from './nmda/datastores.js';
import { markSystemOrigin } from './nmda/origin.js';
import { addSchemaLocations } from './schema-locations.js';
import { addSubscriptionState } from './subscriptions/index.js';
import { annotateValidators } from './validator-metadata.js';
import { selectsSeveral } from './wildcard.js';

/**
 * A read copied by the backend holds its origin annotations (an external NETCONF server's): a node
 * without one has its parent's (RFC 8342 section 5.3.4).
 */
const inheritedOrigin: OriginRule = (_, parentOrigin) => parentOrigin;

/**
 * What the answer writes of the tree read: content, with-defaults (RFC 8040 sections 4.8.1,
 * 4.8.9), fields and depth (4.8.3, 4.8.2), and with `with-origin` the origins (RFC 8527 section
 * 3.2.2: the shared read's rule, or the annotations of a copy), applied by the encoder as it walks
 * the tree.
 */
function viewOf(ctx: RequestContext, read: TreeRead): TreeView {
  const q = ctx.query;
  const { shared } = read;
  return {
    content: q.content ?? 'all',
    withDefaults: q.withDefaults ?? ctx.settings.defaultStyle,
    ...(q.fields === undefined ? {} : { fields: q.fields }),
    ...(q.depth === undefined ? {} : { depth: q.depth }),
    ...(q.withOrigin ? { origin: shared?.origin ?? inheritedOrigin } : {}),
    ...(shared?.filter === undefined ? {} : { filter: writtenFilter(shared.filter, read.own) }),
  };
}

/** The filter state of the tree written: its top-level nodes are judged along their ancestors. */
const TOP = {};
/** The filter state of the handler's own state: none of it is the backend's to leave out. */
const OWN = {};

/**
 * The shared read's filter (RFC 8341 section 3.4.5, judged from the datastore root) over the tree
 * the handler writes: a resource's top-level nodes are judged along their ancestors, and the
 * handler's own top-level nodes (`own`) are written whole, as with a read the backend filtered.
 */
export function writtenFilter(filter: NodeFilter, own: ReadonlySet<DataNode>): NodeFilter {
  return {
    root: TOP,
    child: (parent, node) => (parent === TOP ? stateAlong(filter, own, node) : filter.child(parent, node)),
    keepsAllBelow: (state) => state === OWN || (state !== TOP && filter.keepsAllBelow(state)),
    // The top-level nodes are judged one by one, each along its own ancestors.
    namedEntries: (parent, schema) => (parent === TOP ? undefined : filter.namedEntries?.(parent, schema)),
  };
}

/** The state of `node` under `filter` from the top level down (undefined: left out). */
export function stateAlong(filter: NodeFilter, own: ReadonlySet<DataNode>, node: DataNode): unknown {
  const chain: DataNode[] = [];
  for (let n: DataNode | undefined = node; n !== undefined; n = n.parent) chain.push(n);
  if (own.has(chain[chain.length - 1]!)) return OWN;
  let state: unknown = filter.root;
  for (let i = chain.length - 1; i >= 0 && !filter.keepsAllBelow(state); i--) {
    // The filter is not asked about keys: they are written with their entry.
    if (chain[i]!.schema.isKey) continue;
    state = filter.child(state, chain[i]!);
    if (state === undefined) return undefined;
  }
  return state;
}

function noTarget(): RestconfError {
  return new RestconfError('NOT_FOUND', 'no data resource at the request target', {
    errorTag: 'invalid-value',
  });
}

/** True when the target is a leaf with a default, in the content asked for. */
function hasDefault(target: readonly PathStep[], content: 'config' | 'nonconfig' | 'all'): boolean {
  const schema = target.at(-1)?.schema;
  if (schema?.kind !== 'leaf' || schema.defaults.length === 0) return false;
  return content === 'all' || (content === 'config') === schema.config;
}

/**
 * The instance tree of a read: the datastore, or the target resource and its descendants; with
 * `shared`, the backend's read that holds its nodes (to release once written).
 */
async function readTree(
  ctx: RequestContext,
  target: readonly PathStep[] | undefined,
  ds: NmdaDatastore | undefined,
): Promise<TreeRead> {
  const s = ctx.settings;
  const content = ctx.query.content ?? 'all';
  const request = {
    ...(ds === undefined ? {} : { datastore: ds.name }),
    ...(target === undefined ? {} : { target }),
    content,
    ...(ctx.query.withOrigin ? { withOrigin: true } : {}),
    user: ctx.user,
  };
  // The query parameters apply while the tree is written (see viewOf), so a backend that can share
  // its nodes is never asked for a copy.
  const shared = s.backend.readShared === undefined ? undefined : await s.backend.readShared(request);
  try {
    const own = new Set<DataNode>();
    const tree = selectTarget(ctx, target, ds, shared?.tree ?? (await s.backend.read(request)), own);
    return shared === undefined ? { tree, own } : { tree, own, shared };
  } catch (error) {
    shared?.release();
    throw error;
  }
}

/** What a read gives to write: the tree, the shared read it comes from, and the handler's own top-level nodes in it. */
interface TreeRead {
  readonly tree: InstanceTree;
  readonly shared?: SharedRead;
  readonly own: ReadonlySet<DataNode>;
}

/** The read's tree with the handler's own state added (its top-level nodes put in `own`), narrowed to the target resource. */
function selectTarget(
  ctx: RequestContext,
  target: readonly PathStep[] | undefined,
  ds: NmdaDatastore | undefined,
  tree: InstanceTree,
  own: Set<DataNode>,
): InstanceTree {
  const s = ctx.settings;
  const content = ctx.query.content ?? 'all';
  // restconf-state is the handler's own state data, in the `{+restconf}/data` view and in
  // operational, which holds all state data (RFC 8342 section 5.3).
  if ((ds === undefined || ds.name === 'operational') && content !== 'config') {
    const state = addRestconfState(s, tree, target);
    for (const node of state) own.add(node);
    if (ctx.query.withOrigin) markSystemOrigin(state);
  }
  addSubscriptionState(ctx, tree);
  addSchemaLocations(s, tree);
  if (target === undefined) return tree;
  let nodes = findInstances(tree, target);
  // A leaf with a default and no value answers the default in use (RFC 8040 section 3.5.4), in
  // the `{+restconf}/data` view and in operational (RFC 8342 section 5.3); a conventional
  // datastore holds what was written to it.
  if (nodes.length === 0 && (ds === undefined || ds.name === 'operational') && hasDefault(target, content)) {
    // The tree holds no datastore node then (only copies of the target's ancestors): adding to it is safe.
    nodes = findInstances(applyWithDefaults(tree, 'report-all'), target);
  }
  if (nodes.length === 0) throw noTarget();
  // With `with-origin` the view states at the target the origin its ancestors give it.
  return resourceTree(tree, nodes);
}

/**
 * GET and HEAD on the datastore and data resources (RFC 8040 sections 4.2, 4.3), and on an NMDA
 * datastore `ds` (RFC 8527 section 3.1): the target and its descendants after content,
 * with-defaults, fields and depth, streamed in the negotiated encoding. With `with-origin` the
 * `ietf-origin:origin` annotations are written in both encodings.
 */
export async function readData(
  ctx: RequestContext,
  resolved: ResolvedApiPath | undefined,
  ds?: NmdaDatastore,
): Promise<void> {
  const read = await readTree(ctx, resolved === undefined ? undefined : toPathSteps(resolved), ds);
  try {
    await writeTree(ctx, resolved, ds, read);
  } finally {
    read.shared?.release();
  }
}

/** Writes the tree read, through the view of the query (content, with-defaults, fields, depth), as the response. */
async function writeTree(
  ctx: RequestContext,
  resolved: ResolvedApiPath | undefined,
  ds: NmdaDatastore | undefined,
  read: TreeRead,
): Promise<void> {
  const s = ctx.settings;
  const { tree, shared } = read;
  const view = viewOf(ctx, read);
  /** The answer, given the target's instances as the view writes them (none for the datastore). */
  const answer = (target: readonly ViewedNode[] | undefined): Iterable<string> => {
    // The target may hold nothing in the content asked for (RFC 8040 section 4.8.1).
    if (target?.length === 0) throw noTarget();
    // Entity tags follow running (RFC 8040 section 3.4.1), and intended, its validated copy here.
    const annotated = annotateValidators(ctx, tree, ds === undefined || followsRunning(ds));
    const base = encodeOptions(s, ctx.encoding);
    // Every field in one literal, not spread: a spread gave V8 new maps for each answer.
    const opts = {
      indent: base.indent,
      sortSystemOrdered: base.sortSystemOrdered,
      simpleNames: base.simpleNames,
      view,
      metadata: base.metadata || ctx.query.withOrigin === true || annotated,
      // The target itself is always written, even as an empty non-presence container.
      returnEmptyNpContainers: base.returnEmptyNpContainers || target?.every((t) => t.empty) === true,
      // The datastore, and every entry of a list, are one document (in XML one <data> root).
      wrapper: resolved === undefined || selectsSeveral(resolved),
    };
    return ctx.encoding === 'json' ? encodeJsonChunks(tree, opts) : encodeXmlChunks(tree, opts);
  };
  let chunks: Iterable<string>;
  if (resolved === undefined) {
    const written = answer(undefined);
    chunks = shared === undefined ? written : snapshotChunks(written, shared);
  } else {
    // The target's instances are judged by the view before anything is written, in slices: a
    // target list of many entries, or a big list below the target that a read-only user's rules
    // judge entry by entry, is not one turn. A shared read stays one snapshot meanwhile.
    const target = viewedTopLevelSteps(tree, view);
    chunks =
      shared === undefined
        ? answer(await finishInSlices(target))
        : await snapshotAfterSteps(shared, target, answer);
  }
  await ctx.out.stream(200, dataMediaType(ctx.encoding), chunks);
}
