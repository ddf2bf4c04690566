import { type RpcReply, replyContent } from '@yangkit/netconf-client';
import { escapeXmlAttribute } from '@yangkit/xml';
import {
  decodeXmlSteps,
  encodeXmlChunks,
  finishInSlices,
  type InstanceTree,
  joinSteps,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { InvokeRequest } from '../backend.js';
import { hasChildren } from '../instances.js';
import { pathXml } from './path-xml.js';

const YANG_1_NS = 'urn:ietf:params:xml:ns:yang:1';

/**
 * The RPC of an invocation: the operation element with its input (`<play xmlns="ns">...</play>`),
 * an action inside its data node's ancestors in `<action xmlns="urn:ietf:params:xml:ns:yang:1">`
 * (RFC 7950 section 7.15.2). The input is encoded in slices of a few milliseconds: it can be as big
 * as a request body (an `<edit-config>`'s config).
 */
export async function invokeRpc(request: InvokeRequest): Promise<string> {
  const op = request.operation;
  const element = hasChildren(request.input)
    ? await finishInSlices(joinSteps(encodeXmlChunks(request.input, { operationElement: true })))
    : `<${op.name} xmlns="${escapeXmlAttribute(op.namespace)}"/>`;
  return request.path === undefined
    ? element
    : `<action xmlns="${YANG_1_NS}">${pathXml(request.path, element)}</action>`;
}

/**
 * Decodes the `<rpc-reply>` of an invocation, as read by the session, as the operation's output, in
 * slices of a few milliseconds (an output can be as big as the server makes it).
 */
export function decodeOutput(schema: SchemaTree, op: SchemaNode, reply: RpcReply): Promise<InstanceTree> {
  const kind = op.kind === 'action' ? 'action-output' : 'rpc-output';
  return finishInSlices(decodeXmlSteps(schema, replyContent(reply), { kind, operation: op, strict: false }));
}
