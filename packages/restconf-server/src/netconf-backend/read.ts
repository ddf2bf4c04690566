import { type Capabilities, type NetconfSession, type RpcReply, replyData } from '@yangkit/netconf-client';
import { toInstanceIdentifier } from '@yangkit/restconf-uri';
import { escapeXmlAttribute } from '@yangkit/xml';
import {
  applyContent,
  decodeXmlSteps,
  finishInSlices,
  holdsNoState,
  type InstanceTree,
  type PathStep,
} from '@yangkit/yang-json-codec';
import { toResolved } from '@yangkit/yang-patch';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { ExistsRequest, ReadRequest } from '../backend.js';
import { findInstances, prefixesOf } from '../instances.js';
import { pathXml } from './path-xml.js';

const WD_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-with-defaults';
const NMDA_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-nmda';
const DATASTORES_NS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

const filters = new WeakMap<readonly PathStep[], string>();

/** The subtree filter of a target; targets are kept per URL, so each filter is written once. */
function subtreeOf(target: readonly PathStep[]): string {
  let filter = filters.get(target);
  if (filter === undefined) {
    filter = pathXml(target, '');
    filters.set(target, filter);
  }
  return filter;
}

/** `<datastore>` of `<get-data>` and `<edit-data>` (RFC 8526): an ietf-datastores identity. */
export function datastoreXml(name: string): string {
  return `<datastore xmlns:ds="${DATASTORES_NS}">ds:${name}</datastore>`;
}

/**
 * The RPC of a read: `<get-data>` of an NMDA datastore (RFC 8526 section 3.1.1, with
 * `<with-origin/>` when asked); for the `{+restconf}/data` view `<get-config>` of running when
 * only configuration is wanted or the target holds no state, else `<get>`. Each carries the
 * subtree filter of the target, and asks for `explicit` defaults where the server has
 * with-defaults (RFC 6243), so the caller applies its mode to what is stored.
 */
function readRpc(caps: Capabilities, request: ReadRequest): string {
  const target = request.target ?? [];
  const last = target[target.length - 1];
  const subtree = last === undefined ? '' : subtreeOf(target);
  const wd =
    caps.withDefaults === undefined ? '' : `<with-defaults xmlns="${WD_NS}">explicit</with-defaults>`;
  if (request.datastore !== undefined) {
    const filter = subtree === '' ? '' : `<subtree-filter>${subtree}</subtree-filter>`;
    const origin = request.withOrigin === true ? '<with-origin/>' : '';
    return `<get-data xmlns="${NMDA_NS}">${datastoreXml(request.datastore)}${filter}${origin}</get-data>`;
  }
  const filter = subtree === '' ? '' : `<filter type="subtree">${subtree}</filter>`;
  const config = request.content === 'config' || (last !== undefined && holdsNoState(last.schema));
  return config
    ? `<get-config><source><running/></source>${filter}${wd}</get-config>`
    : `<get>${filter}${wd}</get>`;
}

/**
 * Decodes the content of a reply's `<data>` (RFC 6241's, or RFC 8526's in the NMDA namespace) as
 * the session read it: a large reply from its text in one pass (a tree of elements first would
 * cost a second pass and its garbage), a small one from its elements; elements of modules outside
 * the schema are skipped. In slices of a few milliseconds, so that a big reply does not hold every
 * other request while it decodes.
 */
function decodeData(schema: SchemaTree, reply: RpcReply): Promise<InstanceTree> {
  return finishInSlices(decodeXmlSteps(schema, replyData(reply) ?? [], { kind: 'data', strict: false }));
}

/** A read (see `Backend.read`) on one session. */
export async function read(
  session: NetconfSession,
  schema: SchemaTree,
  request: ReadRequest,
): Promise<InstanceTree> {
  const reply = await session.rpc(readRpc(session.capabilities, request));
  const tree = await decodeData(schema, reply);
  return applyContent(tree, request.content ?? 'all');
}

/**
 * Whether a configuration node exists, reading as little as the server allows: on running with
 * `:xpath` a select of the entry's first key, a container's first child (or the container when it
 * is empty) or the leaf itself; otherwise the target's subtree.
 */
export async function exists(
  session: NetconfSession,
  schema: SchemaTree,
  request: ExistsRequest,
): Promise<boolean> {
  const { target } = request;
  const tree =
    request.datastore === undefined && session.capabilities.protocol.has('xpath')
      ? await decodeData(schema, await session.rpc(existsRpc(schema, target)))
      : await read(session, schema, {
          target,
          content: 'config',
          ...(request.datastore === undefined ? {} : { datastore: request.datastore }),
        });
  return findInstances(tree, target).length > 0;
}

/** `<get-config>` of running with an XPath filter (RFC 6241 section 8.9) selecting little of the target. */
function existsRpc(schema: SchemaTree, target: readonly PathStep[]): string {
  const prefixes = prefixesOf(schema);
  const id = toInstanceIdentifier(toResolved(target), { prefixes });
  const last = target[target.length - 1]!.schema;
  let select = id.path;
  if (last.kind === 'list' && last.keyNodes.length > 0) {
    const key = last.keyNodes[0]!;
    select = `${id.path}/${prefixes[key.module] ?? key.module}:${key.name}`;
  } else if (last.kind === 'container') {
    select = `${id.path}/*[1] | ${id.path}[not(*)]`;
  }
  return `<get-config><source><running/></source><filter type="xpath" select="${escapeXmlAttribute(select)}"${id.xmlns}/></get-config>`;
}
