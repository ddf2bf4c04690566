import type { NetconfSession } from '@yangkit/netconf-client';
import { formatFields, type ResolvedApiPath, toSubtreeFilter } from '@yangkit/restconf-uri';
import {
  applyDepth,
  applyFields,
  applyWithDefaults,
  decodeXml,
  encodeJsonChunks,
  encodeXmlChunks,
  type InstanceTree,
} from '@yangkit/yang-json-codec';
import { encodeOptions, type RequestContext } from './context.js';
import { RestconfError } from './errors.js';
import { filterContent, findInstances, resourceTree, schemaOf } from './instances.js';
import { dataMediaType } from './media.js';
import { hasMonitoring, MONITORING_NS, restconfStateXml } from './monitoring.js';

/**
 * Reads the datastore or below one resource from the backend as NETCONF XML: `<get-config>` for
 * `content=config`, else `<get>`, with the subtree filter of the target. Defaults come back as
 * the backend stores them (explicit) and the with-defaults mode is applied afterwards.
 */
export async function fetchXml(
  ctx: RequestContext,
  session: NetconfSession,
  resolved: ResolvedApiPath | undefined,
): Promise<string> {
  const s = ctx.settings;
  const content = ctx.query.content ?? 'all';
  const filter = resolved === undefined ? undefined : { subtree: toSubtreeFilter(resolved) };
  const wd = s.backend.capabilities.withDefaults === undefined ? {} : { withDefaults: 'explicit' as const };
  const opts = { ...(filter === undefined ? {} : { filter }), ...wd };
  let xml =
    content === 'config' ? await session.getConfig({ source: 'running', ...opts }) : await session.get(opts);
  const first = resolved?.steps[0];
  const wantsState =
    content !== 'config' &&
    hasMonitoring(s) &&
    (first === undefined || schemaOf(first).namespace === MONITORING_NS);
  if (wantsState) xml += restconfStateXml(s);
  return xml;
}

/** Decodes what the backend sent; elements of modules outside the schema are skipped. */
export function decodeData(ctx: RequestContext, xml: string): InstanceTree {
  return decodeXml(ctx.settings.schema, xml, { kind: 'data', strict: false });
}

/**
 * GET and HEAD on the datastore and data resources (RFC 8040 sections 4.2, 4.3): the target and
 * its descendants after content, with-defaults, fields and depth, streamed in the negotiated
 * encoding.
 */
export async function readData(ctx: RequestContext, resolved: ResolvedApiPath | undefined): Promise<void> {
  const s = ctx.settings;
  const xml = await s.backend.withSession((session) => fetchXml(ctx, session, resolved));
  let tree = decodeData(ctx, xml);
  const content = ctx.query.content ?? 'all';
  if (content !== 'all') filterContent(tree, content);
  if (resolved !== undefined) {
    const nodes = findInstances(tree, resolved);
    if (nodes.length === 0) {
      throw new RestconfError('NOT_FOUND', 'no data resource at the request target', {
        errorTag: 'invalid-value',
        status: 404,
      });
    }
    tree = resourceTree(tree, nodes);
  }
  applyWithDefaults(tree, ctx.query.withDefaults ?? s.defaultStyle);
  if (ctx.query.fields !== undefined) applyFields(tree, formatFields(ctx.query.fields));
  if (ctx.query.depth !== undefined) applyDepth(tree, ctx.query.depth);
  // The target itself is always written, even as an empty non-presence container.
  const opts = {
    ...encodeOptions(s),
    ...(resolved !== undefined && emptyTarget(tree) ? { returnEmptyNpContainers: true } : {}),
  };
  const chunks =
    ctx.encoding === 'json'
      ? encodeJsonChunks(tree, { ...opts, wrapper: true })
      : encodeXmlChunks(tree, { ...opts, wrapper: true });
  await ctx.out.stream(200, dataMediaType(ctx.encoding), chunks);
}

function emptyTarget(tree: InstanceTree): boolean {
  for (const nodes of tree.children.values()) {
    for (const n of nodes) if (n.children === undefined || n.children.size > 0) return false;
  }
  return true;
}
