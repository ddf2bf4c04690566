import { NetconfRpcError } from '@yangkit/netconf-client';
import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import { decodeJson, decodeXml, encodeXml, type InstanceTree, stepOf } from '@yangkit/yang-json-codec';
import { type DatastoreEdit, type PathStep, toEditConfig } from '@yangkit/yang-patch';
import type { RequestContext } from '../context.js';
import { type Body, decodeResource, locationOf, parentOf } from '../edit.js';
import { RestconfError } from '../errors.js';
import { toPathSteps } from '../instances.js';
import { DATASTORES_NS, NMDA_NS, type NmdaDatastore } from './datastores.js';

const NC_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';

function mismatch(message: string): RestconfError {
  return new RestconfError('BODY_MISMATCH', message, { errorTag: 'invalid-value' });
}

function notFound(cause?: unknown): RestconfError {
  return new RestconfError('NOT_FOUND', 'no data resource at the request target', {
    errorTag: 'invalid-value',
    status: 404,
    ...(cause === undefined ? {} : { cause }),
  });
}

function hasTag(error: unknown, tag: string): boolean {
  return error instanceof NetconfRpcError && error.errors.some((e) => e.errorTag === tag);
}

/**
 * `<edit-data>` (RFC 8526 section 3.2.1) of one `<config>` document on the datastore:
 * `<edit-data xmlns="...nmda"><datastore>ds:running</datastore><config>...</config></edit-data>`.
 * The `<config>` of yang-patch's plan is in the NETCONF namespace; edit-data's is in the NMDA one.
 */
async function editData(
  ctx: RequestContext,
  ds: NmdaDatastore,
  config: string,
  defaultOperation?: 'merge' | 'replace',
): Promise<void> {
  const nmdaConfig = config.replace(`<config xmlns="${NC_NS}"`, `<config xmlns="${NMDA_NS}"`);
  const op =
    defaultOperation === undefined ? '' : `<default-operation>${defaultOperation}</default-operation>`;
  const rpc = `<edit-data xmlns="${NMDA_NS}"><datastore xmlns:ds="${DATASTORES_NS}">ds:${ds.name}</datastore>${op}${nmdaConfig}</edit-data>`;
  await ctx.settings.backend.legacy.withSession((session) => session.rpc(rpc), ctx.user);
  // Entity tags and Last-Modified follow running (RFC 8040 section 3.4.1).
  if (ds.name === 'running') ctx.settings.clock.changed();
}

/** Runs edits on the datastore, one `<edit-data>` per planned document. */
async function apply(ctx: RequestContext, ds: NmdaDatastore, edits: DatastoreEdit[]): Promise<void> {
  const plan = toEditConfig(ctx.settings.schema, { patchId: 'restconf', edits }, { mode: 'per-edit' });
  for (const doc of plan.documents) await editData(ctx, ds, doc.config);
}

/** `{serverUrl}{root}/ds/ietf-datastores:<name>` plus the api-path of the new resource. */
function nmdaLocation(ctx: RequestContext, ds: NmdaDatastore, steps: readonly PathStep[]): string {
  const s = ctx.settings;
  const data = `${s.serverUrl.replace(/\/$/, '')}${s.root}/data`;
  const path = locationOf(ctx, steps).slice(data.length);
  return `${data.slice(0, -'/data'.length)}/ds/ietf-datastores:${ds.name}${path}`;
}

/** POST (RFC 8040 section 4.4.1 on an RFC 8527 datastore): creates the child in the body; 201 with Location. */
export async function createNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath | undefined,
  body: Body,
): Promise<void> {
  const base = resolved === undefined ? [] : toPathSteps(resolved);
  const node = decodeResource(ctx, body, resolved);
  const target = [...base, stepOf(node)];
  try {
    await apply(ctx, ds, [{ editId: '1', operation: 'create', target, node }]);
  } catch (error) {
    if (hasTag(error, 'data-exists')) {
      throw new RestconfError('DATA_EXISTS', 'the resource to create already exists', {
        errorType: 'application',
        errorTag: 'data-exists',
        cause: error,
      });
    }
    throw error;
  }
  ctx.out.header('Location', nmdaLocation(ctx, ds, target));
  ctx.out.empty(201);
}

function targetNode(ctx: RequestContext, resolved: ResolvedApiPath, body: Body) {
  const target = toPathSteps(resolved);
  const last = target[target.length - 1]!;
  const node = decodeResource(ctx, body, parentOf(resolved));
  if (node.schema !== last.schema)
    throw mismatch(`the body holds ${node.schema.name}, not ${last.schema.name}`);
  if (JSON.stringify(stepOf(node).keys ?? null) !== JSON.stringify(last.keys ?? null)) {
    throw mismatch('the key values in the body differ from those in the request URI');
  }
  return { target, node };
}

/** PUT on a data resource (RFC 8040 section 4.5): create (201) or replace (204). */
export async function replaceNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath,
  body: Body,
): Promise<void> {
  const { target, node } = targetNode(ctx, resolved, body);
  try {
    await apply(ctx, ds, [{ editId: '1', operation: 'create', target, node }]);
    ctx.out.empty(201);
    return;
  } catch (error) {
    if (!hasTag(error, 'data-exists')) throw error;
  }
  await apply(ctx, ds, [{ editId: '1', operation: 'replace', target, node }]);
  ctx.out.empty(204);
}

/** Plain PATCH on a data resource (RFC 8040 section 4.6.1): merge into an existing resource; 204. */
export async function mergeNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath,
  body: Body,
): Promise<void> {
  const { target, node } = targetNode(ctx, resolved, body);
  if (!(await ctx.settings.backend.exists({ datastore: ds.name, target, user: ctx.user }))) throw notFound();
  await apply(ctx, ds, [{ editId: '1', operation: 'merge', target, node }]);
  ctx.out.empty(204);
}

/** DELETE on a data resource (RFC 8040 section 4.7): 204, or 404 when it does not exist. */
export async function deleteNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath,
): Promise<void> {
  try {
    await apply(ctx, ds, [{ editId: '1', operation: 'delete', target: toPathSteps(resolved) }]);
  } catch (error) {
    if (hasTag(error, 'data-missing')) throw notFound(error);
    throw error;
  }
  ctx.out.empty(204);
}

/**
 * PUT (replace) or PATCH (merge) on the datastore resource itself: the body is
 * `ietf-restconf:data` or `<data>` with top-level configuration nodes; 204.
 */
export async function writeNmdaDatastore(
  ctx: RequestContext,
  ds: NmdaDatastore,
  body: Body,
  mode: 'replace' | 'merge',
): Promise<void> {
  const text = body.text.trim() === '' ? (body.encoding === 'json' ? '{}' : '') : body.text;
  const tree: InstanceTree =
    body.encoding === 'json'
      ? decodeJson(ctx.settings.schema, text, { kind: 'config', simpleNames: ctx.settings.simpleJsonNames })
      : decodeXml(ctx.settings.schema, text, { kind: 'config' });
  await editData(ctx, ds, `<config xmlns="${NC_NS}">${encodeXml(tree)}</config>`, mode);
  ctx.out.empty(204);
}
