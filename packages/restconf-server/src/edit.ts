import {
  type ApiPathSegment,
  formatApiPath,
  type ResolvedApiPath,
  resolveApiPath,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
} from '@yangkit/restconf-uri';
import {
  type DataNode,
  type PathStep,
  pathOfSteps,
  sameStep,
  stepOf,
  type TreeEdit,
  xmlPathNamespaces,
} from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { EditRequest } from './backend.js';
import { decodeBody } from './body.js';
import type { RequestContext } from './context.js';
import { reportsErrorTag } from './error-body.js';
import { RestconfError } from './errors.js';
import { prefixesOf, schemaOf, toPathSteps } from './instances.js';
import type { Encoding } from './media.js';
import type { NmdaDatastore } from './nmda/datastores.js';
import { valueLimits } from './value-limits.js';

/** A request body with its encoding, already read. */
export interface Body {
  readonly text: string;
  readonly encoding: Encoding;
}

function mismatch(message: string): RestconfError {
  return new RestconfError('BODY_MISMATCH', message, { errorTag: 'invalid-value' });
}

/** The parent instance of a data resource: the request target without its last step. */
export function parentOf(resolved: ResolvedApiPath): ResolvedApiPath | undefined {
  return resolved.steps.length <= 1 ? undefined : { steps: resolved.steps.slice(0, -1) };
}

/**
 * The instance path of `resolved` as error-paths carry it (RFC 7951 module names; XML with module
 * prefixes); undefined when two modules of the path share a prefix, which XML cannot write.
 */
function errorPathOf(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
): { json: string; xml: string } | undefined {
  try {
    const xml = toInstanceIdentifier(resolved, { prefixes: prefixesOf(ctx.settings.schema) }).path;
    return { json: toJsonInstanceIdentifier(resolved), xml };
  } catch {
    return undefined;
  }
}

/**
 * Decodes a data resource body (RFC 8040 section 4.4.1: one node below the instance `parent`, the
 * datastore root when undefined); errors in it name their whole data-resource path.
 */
export async function decodeResource(
  ctx: RequestContext,
  body: Body,
  parent: ResolvedApiPath | undefined,
): Promise<DataNode> {
  if (body.text.trim() === '') throw mismatch('the request needs a body');
  const last = parent?.steps[parent.steps.length - 1];
  const parentPath = parent === undefined ? undefined : errorPathOf(ctx, parent);
  const options = {
    kind: 'resource' as const,
    ...(last === undefined ? {} : { parent: schemaOf(last) }),
    ...(parentPath === undefined ? {} : { parentPath }),
    simpleNames: ctx.settings.simpleJsonNames,
    ...valueLimits(ctx.settings),
  };
  const tree = await decodeBody(ctx, body, options);
  const nodes = [...tree.children.values()].flat();
  if (nodes.length !== 1) throw mismatch(`the body must hold exactly one data node, not ${nodes.length}`);
  return nodes[0]!;
}

/**
 * Where an edit goes: `{+restconf}/data`, with the preconditions of a conditional request
 * (RFC 8040 section 3.5.4) and the commit parameters of the query, or one NMDA datastore
 * (RFC 8527), where neither applies.
 */
export type EditScope = { readonly check: () => void } | { readonly ds: NmdaDatastore };

/**
 * The position of `schema`'s new instance from the insert and point query parameters (RFC 8040
 * sections 4.8.5, 4.8.6), which only a list or leaf-list `ordered-by user` takes.
 */
function insertOf(ctx: RequestContext, schema: SchemaNode): TreeEdit['insert'] {
  const where = ctx.query.insert;
  if (where === undefined && ctx.query.point === undefined) return undefined;
  if ((schema.kind !== 'list' && schema.kind !== 'leaf-list') || schema.orderedBy !== 'user') {
    throw new RestconfError(
      'REQUEST_INVALID',
      `insert and point need a list or leaf-list ordered-by user, not ${schema.name}`,
      {
        errorTag: 'invalid-value',
      },
    );
  }
  if (where === undefined) return undefined;
  if (ctx.query.point === undefined) return { where };
  const resolved = resolveApiPath(ctx.query.point, pathSchemaOf(ctx.settings.schema));
  return { where, point: toPathSteps(resolved) };
}

/** The backend's edit request of `edits` in `scope`. */
export function editRequest(
  ctx: RequestContext,
  scope: EditScope,
  edits: readonly TreeEdit[],
  defaultOperation?: 'merge' | 'replace',
): EditRequest {
  const { query } = ctx;
  if (
    (query.confirmed !== undefined || query.persistId !== undefined) &&
    ('ds' in scope || !ctx.settings.backend.capabilities.confirmedCommit)
  ) {
    throw new RestconfError(
      'OPERATION_NOT_SUPPORTED',
      'a confirmed commit needs an edit of {+restconf}/data and a backend with :candidate and :confirmed-commit',
      { errorTag: 'operation-not-supported' },
    );
  }
  const confirmed =
    query.confirmed === undefined
      ? undefined
      : {
          ...(query.confirmTimeout === undefined ? {} : { confirmTimeout: query.confirmTimeout }),
          ...(query.persist === undefined ? {} : { persist: query.persist }),
        };
  return {
    edits,
    ...('ds' in scope ? { datastore: scope.ds.name } : { check: scope.check }),
    ...(confirmed === undefined ? {} : { confirmed }),
    ...(query.persistId === undefined ? {} : { persistId: query.persistId }),
    ...(defaultOperation === undefined ? {} : { defaultOperation }),
    user: ctx.user,
  };
}

/** One edit of a resource, by itself. */
function apply(ctx: RequestContext, scope: EditScope, edit: TreeEdit): Promise<void> {
  return ctx.settings.backend.edit(editRequest(ctx, scope, [edit]));
}

/** The Location of a new resource: `--restconf-server-url` + root + `/data` (or the datastore) + its api-path. */
function locationOf(ctx: RequestContext, scope: EditScope, steps: readonly PathStep[]): string {
  const segments: ApiPathSegment[] = [];
  let module: string | undefined;
  for (const step of steps) {
    const keys = step.keys?.map((k) => k.value) ?? (step.value === undefined ? undefined : [step.value]);
    // Fields set one by one: a literal that starts with a spread got V8 a new map for each segment.
    const segment: { module?: string; name: string; keys?: readonly string[] } = { name: step.schema.name };
    if (step.schema.module !== module) segment.module = step.schema.module;
    if (keys !== undefined) segment.keys = keys;
    segments.push(segment);
    module = step.schema.module;
  }
  const resource = 'ds' in scope ? `ds/ietf-datastores:${scope.ds.name}` : 'data';
  return `${ctx.settings.serverUrl.replace(/\/$/, '')}${ctx.settings.root}/${resource}${formatApiPath({ segments })}`;
}

/**
 * POST on the datastore or a data resource (RFC 8040 section 4.4.1): creates the one child in the
 * body; 201 with Location, 409 data-exists when it is already there.
 */
async function createResource(
  ctx: RequestContext,
  scope: EditScope,
  resolved: ResolvedApiPath | undefined,
  body: Body,
): Promise<void> {
  const base = resolved === undefined ? [] : toPathSteps(resolved);
  const node = await decodeResource(ctx, body, resolved);
  const target = [...base, stepOf(node)];
  const insert = insertOf(ctx, node.schema);
  try {
    await apply(ctx, scope, { operation: 'create', target, node, ...(insert ? { insert } : {}) });
  } catch (error) {
    if (reportsErrorTag(error, ctx.settings.schema, 'data-exists')) {
      // RFC 8040 section 7.1: error-path names the resource that already exists.
      const path = pathOfSteps(ctx.settings.schema, target);
      throw new RestconfError('DATA_EXISTS', 'the resource to create already exists', {
        errorType: 'application',
        errorTag: 'data-exists',
        errorPath: {
          ...path,
          namespaces: Object.fromEntries(xmlPathNamespaces(ctx.settings.schema, path.xml)),
        },
        cause: error,
      });
    }
    throw error;
  }
  ctx.out.header('Location', locationOf(ctx, scope, target));
  ctx.out.empty(201);
}

/** The target of a PUT or PATCH and the body's node, which must be that node (keys included). */
async function targetNode(ctx: RequestContext, resolved: ResolvedApiPath, body: Body) {
  const target = toPathSteps(resolved);
  const last = target[target.length - 1]!;
  const node = await decodeResource(ctx, body, parentOf(resolved));
  if (node.schema !== last.schema)
    throw mismatch(`the body holds ${node.schema.name}, not ${last.schema.name}`);
  if (!sameStep(last, stepOf(node))) {
    throw mismatch('the key values in the body differ from those in the request URI');
  }
  return { target, node };
}

/**
 * PUT on a data resource (RFC 8040 section 4.5): create (201) or replace (204). The create is tried
 * first and turned into a replace when the node exists, so no extra read is needed.
 */
async function replaceResource(
  ctx: RequestContext,
  scope: EditScope,
  resolved: ResolvedApiPath,
  body: Body,
): Promise<void> {
  const { target, node } = await targetNode(ctx, resolved, body);
  const insert = insertOf(ctx, node.schema);
  const edit = { target, node, ...(insert ? { insert } : {}) };
  try {
    await apply(ctx, scope, { operation: 'create', ...edit });
    ctx.out.empty(201);
    return;
  } catch (error) {
    if (!reportsErrorTag(error, ctx.settings.schema, 'data-exists')) throw error;
  }
  await apply(ctx, scope, { operation: 'replace', ...edit });
  ctx.out.empty(204);
}

/** PATCH with a plain body (RFC 8040 section 4.6.1): merge into an existing resource; 204. */
async function mergeResource(
  ctx: RequestContext,
  scope: EditScope,
  resolved: ResolvedApiPath,
  body: Body,
): Promise<void> {
  const { target, node } = await targetNode(ctx, resolved, body);
  // The target must exist: PATCH never creates it (RFC 8040 section 4.6.1).
  const datastore = 'ds' in scope ? { datastore: scope.ds.name } : {};
  if (!(await ctx.settings.backend.exists({ ...datastore, target, user: ctx.user }))) throw notFound();
  await apply(ctx, scope, { operation: 'merge', target, node });
  ctx.out.empty(204);
}

/** DELETE on a data resource (RFC 8040 section 4.7): 204, or 404 when it does not exist. */
async function deleteResource(
  ctx: RequestContext,
  scope: EditScope,
  resolved: ResolvedApiPath,
): Promise<void> {
  try {
    await apply(ctx, scope, { operation: 'delete', target: toPathSteps(resolved) });
  } catch (error) {
    // A delete refused by validation (RFC 7950 section 15.5, a require-instance reference to the
    // target) is also data-missing, but the target exists: that one is 409, not 404.
    const { schema } = ctx.settings;
    const missing = reportsErrorTag(error, schema, 'data-missing');
    if (missing && !reportsErrorTag(error, schema, 'data-missing', 'instance-required'))
      throw notFound(error);
    throw error;
  }
  ctx.out.empty(204);
}

function notFound(cause?: unknown): RestconfError {
  return new RestconfError('NOT_FOUND', 'no data resource at the request target', {
    errorTag: 'invalid-value',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * PUT on the datastore (RFC 8040 section 4.5): the body (`ietf-restconf:data` or `<data>` with
 * top-level nodes) replaces the whole configuration, nodes absent from it are deleted; PATCH on
 * the datastore merges it. Both answer 204.
 */
async function writeDatastore(
  ctx: RequestContext,
  scope: EditScope,
  body: Body,
  mode: 'replace' | 'merge',
): Promise<void> {
  const text = body.text.trim() === '' ? (body.encoding === 'json' ? '{}' : '') : body.text;
  const options = {
    kind: 'config' as const,
    simpleNames: ctx.settings.simpleJsonNames,
    ...valueLimits(ctx.settings),
  };
  const tree = await decodeBody(ctx, body, options, text);
  const edits = [...tree.children.values()]
    .flat()
    .map((node): TreeEdit => ({ operation: mode, target: [stepOf(node)], node }));
  await ctx.settings.backend.edit(editRequest(ctx, scope, edits, mode));
  ctx.out.empty(204);
}

/**
 * An edit of the datastore or a data resource with a plain body (RFC 8040 sections 4.4 to 4.7):
 * POST creates, PUT creates or replaces, PATCH merges, DELETE deletes.
 */
export function editData(
  ctx: RequestContext,
  scope: EditScope,
  resolved: ResolvedApiPath | undefined,
  body: Body | undefined,
): Promise<void> {
  const { method } = ctx;
  if (method === 'POST') return createResource(ctx, scope, resolved, body!);
  if (resolved === undefined)
    return writeDatastore(ctx, scope, body!, method === 'PUT' ? 'replace' : 'merge');
  if (method === 'DELETE') return deleteResource(ctx, scope, resolved);
  if (method === 'PUT') return replaceResource(ctx, scope, resolved, body!);
  return mergeResource(ctx, scope, resolved, body!);
}
