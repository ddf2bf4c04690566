import { type ResolvedApiPath, resolveOperation } from '@yangkit/restconf-uri';
import { encodeJsonChunks, encodeXmlChunks, type PathStep } from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaNode } from '@yangkit/yang-schema';
import { decodeInput } from './body.js';
import { encodeOptions, type RequestContext } from './context.js';
import type { Body } from './edit.js';
import { RestconfError } from './errors.js';
import { getBulk } from './get-bulk.js';
import { GET_BULK_MODULE } from './get-bulk-module.js';
import { hasChildren, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { isSubscriptionOperation, subscriptionOperation } from './subscriptions/index.js';

/** Invokes the operation through the backend and answers its output, 204 when there is none. */
async function invoke(
  ctx: RequestContext,
  op: SchemaNode,
  body: Body | undefined,
  path?: readonly PathStep[],
): Promise<void> {
  const input = await decodeInput(ctx, body, op);
  const output = await ctx.settings.backend.invoke({
    operation: op,
    ...(path === undefined ? {} : { path }),
    ...(input === undefined ? {} : { input }),
    user: ctx.user,
  });
  if (!hasChildren(output)) {
    ctx.out.empty(204);
    return;
  }
  // In chunks with turns of the event loop between them, as a read is: an output can be as big
  // as a datastore (ietf-netconf:get-config).
  const opts = encodeOptions(ctx.settings, ctx.encoding);
  const chunks = ctx.encoding === 'json' ? encodeJsonChunks(output, opts) : encodeXmlChunks(output, opts);
  await ctx.out.stream(200, dataMediaType(ctx.encoding), chunks);
}

/**
 * POST on an operation resource (RFC 8040 section 4.4.2): the `input` body becomes the NETCONF
 * `<rpc>` content, the reply's output comes back wrapped in `output` (204 when there is none).
 * The module may be left out of the name when one module defines the rpc.
 */
export async function invokeOperation(
  ctx: RequestContext,
  name: { module?: string; name: string },
  body: Body | undefined,
): Promise<void> {
  const op = resolveOperation(name, pathSchemaOf(ctx.settings.schema)) as unknown as SchemaNode;
  // get-bulk is this project's operation, answered here rather than by the NETCONF server.
  if (op.module === GET_BULK_MODULE && op.name === 'get-bulk') return getBulk(ctx, op, body);
  // RFC 8650: subscriptions live beyond the request, in the handler's subscription service.
  if (isSubscriptionOperation(op)) return subscriptionOperation(ctx, op, body);
  await invoke(ctx, op, body);
}

/** POST on an action of a data resource (RFC 8040 section 3.6, RFC 7950 section 7.15). */
export async function invokeAction(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
  body: Body | undefined,
): Promise<void> {
  const path = toPathSteps(resolved);
  await invoke(ctx, path[path.length - 1]!.schema, body, path.slice(0, -1));
}

/** True when a resolved path ends at an action. */
export function isAction(resolved: ResolvedApiPath): boolean {
  const last = resolved.steps[resolved.steps.length - 1];
  return last !== undefined && last.node.kind === 'action';
}

/** Checks `op` exists (for OPTIONS and GET on an operation resource, which only POST serves). */
export function operationNode(ctx: RequestContext, name: { module?: string; name: string }): SchemaNode {
  const op = resolveOperation(name, pathSchemaOf(ctx.settings.schema)) as unknown as SchemaNode;
  if (op === undefined)
    throw new RestconfError('NOT_FOUND', 'no such operation', { errorTag: 'invalid-value' });
  return op;
}
