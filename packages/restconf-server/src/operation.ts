import { type ResolvedApiPath, resolveOperation } from '@yangkit/restconf-uri';
import { decodeJson, decodeXml, encodeJson, encodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaNode } from '@yangkit/yang-schema';
import { encodeOptions, type RequestContext } from './context.js';
import type { Body } from './edit.js';
import { RestconfError } from './errors.js';
import { getBulk } from './get-bulk.js';
import { GET_BULK_MODULE } from './get-bulk-module.js';
import { schemaOf, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { pathXml } from './netconf-backend/path-xml.js';
import { isSubscriptionOperation, subscriptionOperation } from './subscriptions/index.js';

const YANG_1_NS = 'urn:ietf:params:xml:ns:yang:1';

function hasChildren(tree: InstanceTree): boolean {
  for (const nodes of tree.children.values()) {
    for (const n of nodes) if (n.children !== undefined && n.children.size > 0) return true;
  }
  return false;
}

function decodeInput(ctx: RequestContext, body: Body | undefined, op: SchemaNode): InstanceTree | undefined {
  if (body === undefined || body.text.trim() === '') return undefined;
  const kind = op.kind === 'action' ? ('action-input' as const) : ('rpc-input' as const);
  const options = { kind, operation: op, simpleNames: ctx.settings.simpleJsonNames };
  return body.encoding === 'json'
    ? decodeJson(ctx.settings.schema, body.text, options)
    : decodeXml(ctx.settings.schema, body.text, options);
}

/** The NETCONF element of an operation with its input: `<play xmlns="ns">...</play>`. */
function operationXml(op: SchemaNode, input: InstanceTree | undefined): string {
  if (input !== undefined && hasChildren(input)) return encodeXml(input, { operationElement: true });
  return `<${op.name} xmlns="${op.namespace}"/>`;
}

async function invoke(ctx: RequestContext, op: SchemaNode, rpcXml: string): Promise<void> {
  // An operation may take session state (a lock, a subscription); it must end with the request
  // (the spec: locks are released when the request ends), so the session is not reused.
  const reply = await ctx.settings.backend.legacy.withSession((session, use) => {
    use.reusable = false;
    return session.rpc(rpcXml);
  }, ctx.user);

  const kind = op.kind === 'action' ? ('action-output' as const) : ('rpc-output' as const);
  const output = decodeXml(ctx.settings.schema, reply.xml, { kind, operation: op, strict: false });
  if (!hasChildren(output)) {
    ctx.out.empty(204);
    return;
  }
  const opts = encodeOptions(ctx.settings, ctx.encoding);
  const text = ctx.encoding === 'json' ? encodeJson(output, opts) : encodeXml(output, opts);
  ctx.out.text(200, dataMediaType(ctx.encoding), text);
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
  const input = decodeInput(ctx, body, op);
  await invoke(ctx, op, operationXml(op, input));
}

/**
 * POST on an action of a data resource (RFC 8040 section 3.6, RFC 7950 section 7.15.2): the
 * action element is sent inside its ancestors in `<action xmlns="urn:ietf:params:xml:ns:yang:1">`.
 */
export async function invokeAction(
  ctx: RequestContext,
  resolved: ResolvedApiPath,
  body: Body | undefined,
): Promise<void> {
  const steps = resolved.steps;
  const op = schemaOf(steps[steps.length - 1]!);
  const input = decodeInput(ctx, body, op);
  const inner = operationXml(op, input);
  await invoke(
    ctx,
    op,
    `<action xmlns="${YANG_1_NS}">${pathXml(toPathSteps(resolved).slice(0, -1), inner)}</action>`,
  );
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
    throw new RestconfError('NOT_FOUND', 'no such operation', { errorTag: 'invalid-value', status: 404 });
  return op;
}
