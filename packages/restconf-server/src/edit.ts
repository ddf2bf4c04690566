import { NetconfRpcError } from '@yangkit/netconf-client';
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
  decodeJson,
  decodeXml,
  encodeXml,
  type InstanceTree,
  sameStep,
  stepOf,
} from '@yangkit/yang-json-codec';
import { type DatastoreEdit, type PathStep, pathSchemaOf, toEditConfig } from '@yangkit/yang-patch';
import type { RequestContext } from './context.js';
import { editConfig, runEdits } from './edit-session.js';
import { RestconfError } from './errors.js';
import { prefixesOf, schemaOf, toPathSteps } from './instances.js';
import type { Encoding } from './media.js';

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
export function decodeResource(
  ctx: RequestContext,
  body: Body,
  parent: ResolvedApiPath | undefined,
): DataNode {
  if (body.text.trim() === '') throw mismatch('the request needs a body');
  const last = parent?.steps[parent.steps.length - 1];
  const parentPath = parent === undefined ? undefined : errorPathOf(ctx, parent);
  const options = {
    kind: 'resource' as const,
    ...(last === undefined ? {} : { parent: schemaOf(last) }),
    ...(parentPath === undefined ? {} : { parentPath }),
    simpleNames: ctx.settings.simpleJsonNames,
  };
  const tree =
    body.encoding === 'json'
      ? decodeJson(ctx.settings.schema, body.text, options)
      : decodeXml(ctx.settings.schema, body.text, options);
  const nodes = [...tree.children.values()].flat();
  if (nodes.length !== 1) throw mismatch(`the body must hold exactly one data node, not ${nodes.length}`);
  return nodes[0]!;
}

/** The position from the insert and point query parameters (RFC 8040 sections 4.8.5, 4.8.6). */
function insertOf(ctx: RequestContext): DatastoreEdit['insert'] {
  const where = ctx.query.insert;
  if (where === undefined) return undefined;
  if (ctx.query.point === undefined) return { where };
  const resolved = resolveApiPath(ctx.query.point, pathSchemaOf(ctx.settings.schema));
  return { where, point: toPathSteps(resolved) };
}

async function apply(ctx: RequestContext, edits: DatastoreEdit[], check: () => void): Promise<void> {
  const plan = toEditConfig(ctx.settings.schema, { patchId: 'restconf', edits }, { mode: 'per-edit' });
  await runEdits(
    ctx.settings,
    ctx.query,
    async (session, target) => {
      for (const doc of plan.documents) await editConfig(session, target, doc.config);
    },
    check,
    ctx.user,
  );
}

function hasTag(error: unknown, tag: string): boolean {
  return error instanceof NetconfRpcError && error.errors.some((e) => e.errorTag === tag);
}

/** The Location of a new resource: `--restconf-server-url` + root + `/data` + its api-path. */
export function locationOf(ctx: RequestContext, steps: readonly PathStep[]): string {
  const segments: ApiPathSegment[] = [];
  let module: string | undefined;
  for (const step of steps) {
    const keys = step.keys?.map((k) => k.value) ?? (step.value === undefined ? undefined : [step.value]);
    segments.push({
      ...(step.schema.module === module ? {} : { module: step.schema.module }),
      name: step.schema.name,
      ...(keys === undefined ? {} : { keys }),
    });
    module = step.schema.module;
  }
  return `${ctx.settings.serverUrl.replace(/\/$/, '')}${ctx.settings.root}/data${formatApiPath({ segments })}`;
}

/**
 * POST on the datastore or a data resource (RFC 8040 section 4.4.1): creates the one child in the
 * body; 201 with Location, 409 data-exists when it is already there.
 */
export async function createResource(
  ctx: RequestContext,
  resolved: ResolvedApiPath | undefined,
  body: Body,
  check: () => void,
): Promise<void> {
  const base = resolved === undefined ? [] : toPathSteps(resolved);
  const node = decodeResource(ctx, body, resolved);
  const target = [...base, stepOf(node)];
  const insert = insertOf(ctx);
  try {
    await apply(
      ctx,
      [{ editId: '1', operation: 'create', target, node, ...(insert ? { insert } : {}) }],
      check,
    );
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
  ctx.out.header('Location', locationOf(ctx, target));
  ctx.out.empty(201);
}

function checkKeys(target: PathStep, node: DataNode): void {
  if (!sameStep(target, stepOf(node))) {
    throw mismatch('the key values in the body differ from those in the request URI');
  }
}

/**
 * PUT on a data resource (RFC 8040 section 4.5): create (201) or replace (204). The create is tried
 * first and turned into a replace when the node exists, so no extra read is needed.
 */
export async function replaceResource(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
  body: Body,
  check: () => void,
): Promise<void> {
  const target = toPathSteps(resolved);
  const last = target[target.length - 1]!;
  const node = decodeResource(ctx, body, parentOf(resolved));
  if (node.schema !== last.schema)
    throw mismatch(`the body holds ${node.schema.name}, not ${last.schema.name}`);
  checkKeys(last, node);
  const insert = insertOf(ctx);
  try {
    await apply(
      ctx,
      [{ editId: '1', operation: 'create', target, node, ...(insert ? { insert } : {}) }],
      check,
    );
    ctx.out.empty(201);
    return;
  } catch (error) {
    if (!hasTag(error, 'data-exists')) throw error;
  }
  await apply(
    ctx,
    [{ editId: '1', operation: 'replace', target, node, ...(insert ? { insert } : {}) }],
    check,
  );
  ctx.out.empty(204);
}

/** PATCH with a plain body (RFC 8040 section 4.6.1): merge into an existing resource; 204. */
export async function mergeResource(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
  body: Body,
  check: () => void,
): Promise<void> {
  const target = toPathSteps(resolved);
  const last = target[target.length - 1]!;
  const node = decodeResource(ctx, body, parentOf(resolved));
  if (node.schema !== last.schema)
    throw mismatch(`the body holds ${node.schema.name}, not ${last.schema.name}`);
  checkKeys(last, node);
  // The target must exist: PATCH never creates it (RFC 8040 section 4.6.1).
  if (!(await ctx.settings.backend.exists({ target, user: ctx.user }))) throw notFound();
  await apply(ctx, [{ editId: '1', operation: 'merge', target, node }], check);
  ctx.out.empty(204);
}

/** DELETE on a data resource (RFC 8040 section 4.7): 204, or 404 when it does not exist. */
export async function deleteResource(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
  check: () => void,
): Promise<void> {
  try {
    await apply(ctx, [{ editId: '1', operation: 'delete', target: toPathSteps(resolved) }], check);
  } catch (error) {
    // A delete refused by validation (RFC 7950 section 15.5, a require-instance reference to the
    // target) is also data-missing, but the target exists: that one is 409, not 404.
    const refused =
      error instanceof NetconfRpcError && error.errors.some((e) => e.errorAppTag === 'instance-required');
    if (hasTag(error, 'data-missing') && !refused) throw notFound(error);
    throw error;
  }
  ctx.out.empty(204);
}

function notFound(cause?: unknown): RestconfError {
  return new RestconfError('NOT_FOUND', 'no data resource at the request target', {
    errorTag: 'invalid-value',
    status: 404,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Decodes a datastore body (`ietf-restconf:data` or `<data>` with top-level nodes) to NETCONF XML. */
function datastoreXml(ctx: RequestContext, body: Body): string {
  const text = body.text.trim() === '' ? (body.encoding === 'json' ? '{}' : '') : body.text;
  let tree: InstanceTree;
  if (body.encoding === 'json') {
    tree = decodeJson(ctx.settings.schema, text, {
      kind: 'config',
      simpleNames: ctx.settings.simpleJsonNames,
    });
  } else {
    tree = decodeXml(ctx.settings.schema, text, { kind: 'config' });
  }
  return encodeXml(tree);
}

/**
 * PUT on the datastore (RFC 8040 section 4.5): the body replaces the whole configuration (nodes
 * absent from it are deleted); PATCH on the datastore merges it. Both answer 204.
 */
export async function writeDatastore(
  ctx: RequestContext,
  body: Body,
  mode: 'replace' | 'merge',
  check: () => void,
): Promise<void> {
  const xml = datastoreXml(ctx, body);
  const config = `<config xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">${xml}</config>`;
  await runEdits(
    ctx.settings,
    ctx.query,
    (session, target) => editConfig(session, target, config, mode),
    check,
    ctx.user,
  );
  ctx.out.empty(204);
}
