import type { NetconfSession } from '@yangkit/netconf-client';
import { formatFields, type ResolvedApiPath, toSubtreeFilter } from '@yangkit/restconf-uri';
import {
  applyDepth,
  applyFields,
  applyWithDefaults,
  type DataNode,
  encodeJsonChunks,
  encodeXmlChunks,
  type InstanceTree,
  walk,
} from '@yangkit/yang-json-codec';
import { encodeOptions, type RequestContext } from '../context.js';
import { RestconfError } from '../errors.js';
import { findInstances, resourceTree, toPathSteps } from '../instances.js';
import { dataMediaType } from '../media.js';
import { decodeData } from '../read.js';
import { addSchemaLocations } from '../schema-locations.js';
import { addSubscriptionState } from '../subscriptions/index.js';
import { annotateValidators } from '../validator-metadata.js';
import { selectsSeveral } from '../wildcard.js';
import { followsRunning, type NmdaDatastore } from './datastores.js';

const NC_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';

/**
 * Reads one NMDA datastore with `<get-data>` (RFC 8526 section 3.1.1): the subtree filter of the
 * target and `<with-origin/>` when the query asks for it (RFC 8527 section 3.2.2). Defaults come
 * back as the backend keeps them and the with-defaults mode is applied afterwards, as on `/data`.
 * The reply's content is put in a NETCONF `<data>` element for the codec.
 */
export async function getDataXml(
  ctx: RequestContext,
  session: NetconfSession,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath | undefined,
): Promise<string> {
  const inner = await session.getData({
    datastore: ds.name,
    ...(resolved === undefined ? {} : { filter: { subtree: toSubtreeFilter(resolved) } }),
    ...(ctx.query.withOrigin ? { withOrigin: true } : {}),
  });
  return `<data xmlns="${NC_NS}">${inner}</data>`;
}

/** The `ietf-origin:origin` of a node: its own annotation or, as RFC 8342 section 5.3.4 says, its parent's. */
function originOf(node: DataNode | undefined): string | undefined {
  for (let n = node; n !== undefined; n = n.parent) {
    const a = n.annotations?.find((x) => x.module === 'ietf-origin' && x.name === 'origin');
    if (a !== undefined) return a.value;
  }
  return undefined;
}

/**
 * Gives each target node the origin it inherits from ancestors that the response leaves out, so
 * that a data resource's origin is stated on its top node.
 */
function keepInheritedOrigin(nodes: DataNode[]): void {
  for (const n of nodes) {
    if (hasOrigin(n)) continue;
    const value = originOf(n.parent);
    if (value !== undefined)
      n.annotations = [...(n.annotations ?? []), { module: 'ietf-origin', name: 'origin', value }];
  }
}

function hasOrigin(n: DataNode): boolean {
  return n.annotations?.some((x) => x.module === 'ietf-origin' && x.name === 'origin') === true;
}

/**
 * Applies the with-defaults mode; with `with-origin`, values it adds get origin `default`
 * (RFC 8342 section 5.3.4: values from a schema default).
 */
function withDefaults(ctx: RequestContext, tree: InstanceTree): void {
  const before = ctx.query.withOrigin ? new Set(walk(tree)) : undefined;
  applyWithDefaults(tree, ctx.query.withDefaults ?? ctx.settings.defaultStyle);
  if (before === undefined) return;
  for (const n of walk(tree)) {
    if (before.has(n) || hasOrigin(n)) continue;
    n.annotations = [
      ...(n.annotations ?? []),
      { module: 'ietf-origin', name: 'origin', value: 'ietf-origin:default' },
    ];
  }
}

function emptyTarget(tree: InstanceTree): boolean {
  for (const nodes of tree.children.values()) {
    for (const n of nodes) if (n.children === undefined || n.children.size > 0) return false;
  }
  return true;
}

/**
 * GET and HEAD on `{root}/ds/<datastore>[/<api-path>]` (RFC 8527 section 3.1): the RFC 8040 read
 * of the datastore or data resource with with-defaults, fields and depth, from the named
 * datastore. With `with-origin` the `ietf-origin:origin` annotations are written in both
 * encodings, even when JSON metadata is otherwise off.
 */
export async function readNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath | undefined,
): Promise<void> {
  const s = ctx.settings;
  const xml = await s.backend.legacy.withSession(
    (session) => getDataXml(ctx, session, ds, resolved),
    ctx.user,
  );
  let tree = decodeData(ctx, xml);
  // The subscriptions state is operational: it gets the RFC 8650 uri as on `/data`.
  addSubscriptionState(ctx, tree);
  addSchemaLocations(ctx.settings, tree);
  if (resolved !== undefined) {
    const nodes = findInstances(tree, toPathSteps(resolved));
    if (nodes.length === 0) {
      throw new RestconfError('NOT_FOUND', 'no data resource at the request target', {
        errorTag: 'invalid-value',
        status: 404,
      });
    }
    if (ctx.query.withOrigin) keepInheritedOrigin(nodes);
    tree = resourceTree(tree, nodes);
  }
  withDefaults(ctx, tree);
  if (ctx.query.fields !== undefined) applyFields(tree, formatFields(ctx.query.fields));
  if (ctx.query.depth !== undefined) applyDepth(tree, ctx.query.depth);
  const annotated = annotateValidators(ctx, tree, followsRunning(ds));
  const opts = {
    ...encodeOptions(s),
    ...(ctx.query.withOrigin || annotated ? { metadata: true } : {}),
    // The target itself is always written, even as an empty non-presence container.
    ...(resolved !== undefined && emptyTarget(tree) ? { returnEmptyNpContainers: true } : {}),
  };
  // The datastore, and every entry of a list, are one document (in XML one <data> root).
  const wrapper = resolved === undefined || selectsSeveral(resolved);
  const chunks =
    ctx.encoding === 'json'
      ? encodeJsonChunks(tree, { ...opts, wrapper })
      : encodeXmlChunks(tree, { ...opts, wrapper });
  await ctx.out.stream(200, dataMediaType(ctx.encoding), chunks);
}
