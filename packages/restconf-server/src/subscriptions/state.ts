import { createNode, type DataNode, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { RequestContext } from '../context.js';
import { RSN_MODULE, SN_MODULE } from './names.js';
import { requesterOf } from './requester.js';
import { establishedSubscription, subscriptionUri } from './service.js';

/** A leaf instance of `schema` below `parent`. */
export function leafNode(schema: SchemaNode, parent: DataNode, value: string): DataNode {
  const node = createNode(schema, parent);
  node.value = value;
  return node;
}

/**
 * Completes the `ietf-subscribed-notifications:subscriptions` state read from the backend, which
 * does not know the RESTCONF side of a subscription: each subscription this handler established
 * gets its RFC 8650 section 3.3 `ietf-restconf-subscribed-notifications:uri`, and, for a JSON
 * receiver, the encoding it really gets (encode-json, or none when the schema cannot express it).
 * With authentication, a user sees only the subscriptions it established (their filters and uris
 * are its own business); the `admins` of the subscription options see every one.
 */
export function addSubscriptionState(ctx: RequestContext, tree: InstanceTree): void {
  const s = ctx.settings;
  const requester = requesterOf(ctx.out.req);
  const seesAll = requester === undefined || s.subscriptions.admins.has(requester);
  for (const [schema, nodes] of tree.children) {
    if (schema.module !== SN_MODULE || schema.name !== 'subscriptions') continue;
    const listSchema = schema.dataChild(SN_MODULE, 'subscription');
    const uriSchema = listSchema?.dataChild(RSN_MODULE, 'uri');
    const encodingSchema = listSchema?.dataChild(SN_MODULE, 'encoding');
    const idSchema = listSchema?.dataChild(SN_MODULE, 'id');
    if (listSchema === undefined) continue;
    const jsonEncoding = s.schema.moduleByName(SN_MODULE)?.enabledFeatures.includes('encode-json');
    for (const container of nodes) {
      const entries = container.children?.get(listSchema) ?? [];
      const shown = entries.filter((entry) => {
        const id = Number(idSchema === undefined ? Number.NaN : entry.children?.get(idSchema)?.[0]?.value);
        const sub = establishedSubscription(s, id);
        if (!seesAll && sub?.owner !== requester) return false;
        if (sub === undefined || entry.children === undefined) return true;
        if (uriSchema !== undefined)
          entry.children.set(uriSchema, [leafNode(uriSchema, entry, subscriptionUri(s, id))]);
        if (encodingSchema !== undefined && sub.encoding === 'json') {
          if (jsonEncoding)
            entry.children.set(encodingSchema, [leafNode(encodingSchema, entry, `${SN_MODULE}:encode-json`)]);
          else entry.children.delete(encodingSchema);
        }
        return true;
      });
      if (shown.length === entries.length) continue;
      if (shown.length === 0) container.children?.delete(listSchema);
      else container.children?.set(listSchema, shown);
    }
  }
}
