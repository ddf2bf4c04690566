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
import type { SchemaNode } from '@yangkit/yang-schema';
import { encodeOptions, type RequestContext } from './context.js';
import { RestconfError } from './errors.js';
import { filterContent, findInstances, resourceTree, schemaOf, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { hasMonitoring, MONITORING_NS, restconfStateXml } from './monitoring.js';
import { addSchemaLocations } from './schema-locations.js';
import { addSubscriptionState } from './subscriptions/index.js';
import { annotateValidators } from './validator-metadata.js';
import { selectsSeveral } from './wildcard.js';

const NC_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const WD_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-with-defaults';

const configOnly = new WeakMap<SchemaNode, boolean>();

/** True when no state data can sit at or below `node`, so `<get-config>` answers all there is. */
function holdsNoState(node: SchemaNode): boolean {
  let known = configOnly.get(node);
  if (known === undefined) {
    known = node.config && node.dataChildren().every(holdsNoState);
    configOnly.set(node, known);
  }
  return known;
}

const filters = new WeakMap<ResolvedApiPath, string>();

/** The `<filter>` of a target; resolved paths are kept per URL, so each one is written once. */
function subtreeFilterOf(resolved: ResolvedApiPath): string {
  let filter = filters.get(resolved);
  if (filter === undefined) {
    filter = `<filter type="subtree">${toSubtreeFilter(resolved)}</filter>`;
    filters.set(resolved, filter);
  }
  return filter;
}

/** Inserts elements at the end of a `<data>` document (`<data .../>` or `<data ...>...</data>`). */
function appendToData(xml: string, extra: string): string {
  const trimmed = xml.trimEnd();
  if (trimmed.endsWith('</data>')) return `${trimmed.slice(0, -'</data>'.length)}${extra}</data>`;
  if (trimmed.endsWith('/>') && trimmed.startsWith('<data')) return `${trimmed.slice(0, -2)}>${extra}</data>`;
  return `<data xmlns="${NC_NS}">${extra}</data>`;
}

/**
 * Reads the datastore or below one resource from the backend as a NETCONF `<data>` document:
 * `<get-config>` for `content=config` or a target that holds no state, else `<get>`, with the
 * subtree filter of the target. Defaults come back as the backend stores them (explicit) and the
 * with-defaults mode is applied afterwards on the decoded tree.
 */
export async function fetchXml(
  ctx: RequestContext,
  session: NetconfSession,
  resolved: ResolvedApiPath | undefined,
): Promise<string> {
  const s = ctx.settings;
  const content = ctx.query.content ?? 'all';
  const last = resolved?.steps[resolved.steps.length - 1];
  const useConfig = content === 'config' || (last !== undefined && holdsNoState(schemaOf(last)));
  const filter = resolved === undefined ? '' : subtreeFilterOf(resolved);
  const wd =
    s.backend.legacy.capabilities.withDefaults === undefined
      ? ''
      : `<with-defaults xmlns="${WD_NS}">explicit</with-defaults>`;
  const rpc = useConfig
    ? `<get-config><source><running/></source>${filter}${wd}</get-config>`
    : `<get>${filter}${wd}</get>`;
  // The reply's XML is already serialized with its namespaces; it is decoded as is.
  let xml = (await session.rpc(rpc)).xml;
  const first = resolved?.steps[0];
  const wantsState =
    content !== 'config' &&
    hasMonitoring(s) &&
    (first === undefined || schemaOf(first).namespace === MONITORING_NS);
  if (wantsState) xml = appendToData(xml, restconfStateXml(s));
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
  const xml = await s.backend.legacy.withSession((session) => fetchXml(ctx, session, resolved), ctx.user);
  let tree = decodeData(ctx, xml);
  addSubscriptionState(ctx, tree);
  addSchemaLocations(ctx.settings, tree);
  const content = ctx.query.content ?? 'all';
  if (content !== 'all') filterContent(tree, content);
  if (resolved !== undefined) {
    const nodes = findInstances(tree, toPathSteps(resolved));
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
  const annotated = annotateValidators(ctx, tree, true);
  // The target itself is always written, even as an empty non-presence container.
  const opts = {
    ...encodeOptions(s, ctx.encoding),
    ...(annotated ? { metadata: true } : {}),
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

function emptyTarget(tree: InstanceTree): boolean {
  for (const nodes of tree.children.values()) {
    for (const n of nodes) if (n.children === undefined || n.children.size > 0) return false;
  }
  return true;
}
