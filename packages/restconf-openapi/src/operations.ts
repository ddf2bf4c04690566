import type { JsonSchema } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import { bodyResponse, dataContent, outerName, wrapMember } from './bodies.js';
import { componentName } from './components.js';
import { type BuildContext, errorResponses, type OpenApiObject, tagsOf, yangExtension } from './context.js';

/** The data children of an operation's input or output, choice and case transparent. */
function hasData(node: SchemaNode | undefined): boolean {
  return node !== undefined && node.dataChildren().length > 0;
}

/**
 * The JSON and XML bodies of an `input` or `output`: `{"module:input": {...}}` and
 * `<input xmlns="...">` (RFC 8040 sections 3.6.1 and 3.6.2).
 */
function ioBody(
  ctx: BuildContext,
  io: SchemaNode,
  operation: SchemaNode,
): { json: JsonSchema; xml: JsonSchema } {
  const object = { ...ctx.bodies.members(io), xml: { name: io.name, namespace: operation.namespace } };
  const ref = ctx.components.ref(componentName(io.dataPath), object);
  const name = outerName(ctx.simpleNames, operation.module, io.name);
  return { json: wrapMember(name, ref), xml: ref };
}

/**
 * The POST of an rpc or action: the input as the body when it has any data, the output as a 200
 * reply, or 204 when there is no output (RFC 8040 section 4.4.2).
 */
function invoke(ctx: BuildContext, operation: SchemaNode): OpenApiObject {
  const input = operation.children.find((c) => c.kind === 'input');
  const output = operation.children.find((c) => c.kind === 'output');
  const out: OpenApiObject = {
    tags: tagsOf(operation),
    summary: `Invoke ${operation.kind} ${operation.module}:${operation.name}`,
    ...(operation.description === undefined ? {} : { description: operation.description }),
  };
  if (hasData(input)) {
    const body = ioBody(ctx, input!, operation);
    const mandatory = input!.dataChildren().some((c) => c.mandatory || c.minElements > 0);
    out.requestBody = { required: mandatory, content: dataContent(body.json, body.xml) };
  }
  const responses: OpenApiObject = {};
  if (hasData(output)) {
    const body = ioBody(ctx, output!, operation);
    responses['200'] = bodyResponse('The output', body.json, body.xml);
  } else responses['204'] = { description: 'Done; the operation has no output' };
  out.responses = { ...responses, ...errorResponses(ctx, ['400', '403', '404']) };
  return out;
}

/** The path item of an rpc at `{root}/operations/module:name` (RFC 8040 section 3.3.2). */
export function rpcPathItem(ctx: BuildContext, rpc: SchemaNode): OpenApiObject {
  return {
    ...(rpc.description === undefined ? {} : { description: rpc.description }),
    'x-yang': yangExtension(ctx, rpc, rpc.module),
    post: invoke(ctx, rpc),
  };
}

/** The path item of an action below a data resource, with its path parameters (RFC 8040 section 3.6). */
export function actionPathItem(
  ctx: BuildContext,
  action: SchemaNode,
  parameters: readonly OpenApiObject[],
): OpenApiObject {
  let parent = action.parent;
  while (parent !== undefined && (parent.kind === 'choice' || parent.kind === 'case')) parent = parent.parent;
  return {
    ...(action.description === undefined ? {} : { description: action.description }),
    ...(parameters.length === 0 ? {} : { parameters }),
    'x-yang': yangExtension(ctx, action, parent?.module ?? action.module),
    post: invoke(ctx, action),
  };
}

/**
 * The schema of one notification as an event stream sends it in JSON (RFC 8040 section 6.4):
 * `{"ietf-restconf:notification": {"eventTime": ..., "module:event": {...}}}`.
 */
export function notificationSchema(ctx: BuildContext, notification: SchemaNode): JsonSchema {
  const event = ctx.components.ref(componentName(notification.dataPath), {
    ...ctx.bodies.members(notification),
    xml: { name: notification.name, namespace: notification.namespace },
  });
  const name = outerName(ctx.simpleNames, notification.module, notification.name);
  return wrapMember('ietf-restconf:notification', {
    type: 'object',
    properties: { eventTime: { type: 'string', format: 'date-time' }, [name]: event },
    required: ['eventTime', name],
    additionalProperties: false,
  });
}
