import type { DataNode, InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { Settings } from '../context.js';
import { RSN_MODULE, SN_MODULE } from './names.js';
import { establishedSubscription, subscriptionUri } from './service.js';

function leaf(schema: SchemaNode, parent: DataNode, value: string): DataNode {
  return {
    schema,
    parent,
    value,
    member: undefined,
    any: undefined,
    children: undefined,
    annotations: undefined,
  };
}

/**
 * Completes the `ietf-subscribed-notifications:subscriptions` state read from the backend, which
 * does not know the RESTCONF side of a subscription: each subscription this handler established
 * gets its RFC 8650 section 3.3 `ietf-restconf-subscribed-notifications:uri`, and, for a JSON
 * receiver, the encoding it really gets (encode-json, or none when the schema cannot express it).
 */
export function addSubscriptionState(s: Settings, tree: InstanceTree): void {
  for (const [schema, nodes] of tree.children) {
    if (schema.module !== SN_MODULE || schema.name !== 'subscriptions') continue;
    const listSchema = schema.dataChild(SN_MODULE, 'subscription');
    const uriSchema = listSchema?.dataChild(RSN_MODULE, 'uri');
    const encodingSchema = listSchema?.dataChild(SN_MODULE, 'encoding');
    if (listSchema === undefined) continue;
    const jsonEncoding = s.schema.moduleByName(SN_MODULE)?.enabledFeatures.includes('encode-json');
    for (const container of nodes) {
      for (const entry of container.children?.get(listSchema) ?? []) {
        const idSchema = listSchema.dataChild(SN_MODULE, 'id');
        const id = Number(idSchema === undefined ? Number.NaN : entry.children?.get(idSchema)?.[0]?.value);
        const sub = establishedSubscription(s, id);
        if (sub === undefined || entry.children === undefined) continue;
        if (uriSchema !== undefined)
          entry.children.set(uriSchema, [leaf(uriSchema, entry, subscriptionUri(s, id))]);
        if (encodingSchema !== undefined && sub.encoding === 'json') {
          if (jsonEncoding)
            entry.children.set(encodingSchema, [leaf(encodingSchema, entry, `${SN_MODULE}:encode-json`)]);
          else entry.children.delete(encodingSchema);
        }
      }
    }
  }
}
