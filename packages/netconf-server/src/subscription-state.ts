import { NOTIFICATION_NS } from '@yangkit/netconf-client';
import { eventTimeOf } from './notifications.js';
import type { ServerSession } from './session.js';
import {
  DN_NS,
  DS_NS,
  dateTime,
  filterXml,
  type Selection,
  SN_NS,
  type SubscribedDatastore,
  type Trigger,
  triggerXml,
  YP_NS,
} from './subscription-policy.js';

/** What the state and `subscription-modified` tell of a dynamic subscription. */
export interface DynamicState {
  id: number;
  readonly session: ServerSession;
  readonly target: 'stream' | 'datastore';
  readonly datastore: SubscribedDatastore;
  readonly filter: Selection | undefined;
  readonly stopTime: number | undefined;
  readonly trigger: Trigger | undefined;
  /** RFC 8639 `sent-event-records`: event records (and YANG Push updates) sent. */
  sent: number;
  /** RFC 8639 `excluded-event-records`: event records the filter kept back. */
  excluded: number;
}

/**
 * The RFC 8639 `subscription-policy` of a subscription, as the children of `subscription` or
 * `subscription-modified` (default namespace ietf-subscribed-notifications): the target (stream
 * or RFC 8641 datastore) with its filter, stop-time, the encoding of NETCONF (XML) and the RFC 8641
 * update trigger.
 */
export function policyXml(sub: DynamicState): string {
  let s =
    sub.target === 'stream'
      ? `<stream>NETCONF</stream>${filterXml(sub.filter, 'stream', SN_NS)}`
      : `<datastore xmlns="${YP_NS}" xmlns:ds="${DS_NS}">ds:${sub.datastore}</datastore>${filterXml(sub.filter, 'datastore', YP_NS)}`;
  if (sub.stopTime !== undefined) s += `<stop-time>${dateTime(sub.stopTime)}</stop-time>`;
  // A dynamic subscription is encoded like the RPC that established it (RFC 8639 2.4.2).
  s += '<encoding>encode-xml</encoding>';
  if (sub.trigger !== undefined) s += triggerXml(sub.trigger);
  return s;
}

/**
 * The Message Publisher ID of this server (draft-ietf-netconf-distributed-notif section 2): the
 * one process that publishes every message of every subscription, so a receiver that relates
 * messages to their publisher (and their sequence) sees one stable publisher.
 */
export const MESSAGE_PUBLISHER_ID = 1;

/**
 * The `message-publisher-id` of ietf-distributed-notif: the leaf-list of the publishers of a
 * subscription (its state, subscription-modified) or the leaf naming the publisher of a YANG Push
 * update; with one publisher both are the one value.
 */
const PUBLISHER_XML = `<message-publisher-id xmlns="${DN_NS}">${MESSAGE_PUBLISHER_ID}</message-publisher-id>`;

/**
 * The `subscription-modified` notification of a subscription: its whole policy and its
 * publishers (draft-ietf-netconf-distributed-notif section 6).
 */
export function subscriptionModified(sub: DynamicState): string {
  return stateChange('subscription-modified', sub.id, policyXml(sub) + PUBLISHER_XML);
}

/**
 * The ietf-subscribed-notifications `subscriptions` container: each live dynamic subscription
 * with its policy and its one receiver, the session (RFC 8639 section 2.5 receivers).
 */
export function subscriptionsXml(subs: Iterable<DynamicState>): string {
  let s = '';
  for (const sub of subs) {
    const receiver = `<name>session-${sub.session.id}</name><sent-event-records>${sub.sent}</sent-event-records><excluded-event-records>${sub.excluded}</excluded-event-records><state>active</state>`;
    s += `<subscription><id>${sub.id}</id>${policyXml(sub)}<receivers><receiver>${receiver}</receiver></receivers>${PUBLISHER_XML}</subscription>`;
  }
  return s === '' ? '' : `<subscriptions xmlns="${SN_NS}">${s}</subscriptions>`;
}

function notification(inner: string): string {
  return `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${eventTimeOf(Date.now())}</eventTime>${inner}</notification>`;
}

/** An RFC 8639 section 2.7 subscription state change notification (or replay-completed). */
export function stateChange(
  kind:
    | 'subscription-modified'
    | 'subscription-completed'
    | 'subscription-terminated'
    | 'subscription-suspended'
    | 'subscription-resumed'
    | 'replay-completed',
  id: number,
  rest = '',
): string {
  return notification(`<${kind} xmlns="${SN_NS}"><id>${id}</id>${rest}</${kind}>`);
}

/** RFC 8641 3.7 push-update: the whole selected content, and the publisher. */
export function pushUpdateXml(id: number, content: string): string {
  return notification(
    `<push-update xmlns="${YP_NS}"><id>${id}</id><datastore-contents>${content}</datastore-contents>${PUBLISHER_XML}</push-update>`,
  );
}

/**
 * RFC 8641 3.7 push-change-update: one yang-patch edit that replaces the subscribed content, or
 * deletes it when the selection became empty; and the publisher.
 */
export function pushChangeUpdateXml(id: number, content: string): string {
  const edit =
    content === ''
      ? '<operation>delete</operation><target>/</target>'
      : `<operation>replace</operation><target>/</target><value>${content}</value>`;
  return notification(
    `<push-change-update xmlns="${YP_NS}"><id>${id}</id><datastore-changes><yang-patch><patch-id>s${id}-${Date.now()}</patch-id><edit><edit-id>1</edit-id>${edit}</edit></yang-patch></datastore-changes>${PUBLISHER_XML}</push-change-update>`,
  );
}
