import type { FeatureSelection } from '@yangkit/yang-schema';

/** The RFC 8639 module and namespace. */
export const SN_MODULE = 'ietf-subscribed-notifications';
export const SN_NS = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
/** The RFC 8650 module whose `uri` leaf augments the establish-subscription output. */
export const RSN_MODULE = 'ietf-restconf-subscribed-notifications';

/** The RFC 8641 (YANG Push) module: datastore subscriptions. */
export const YANG_PUSH_MODULE = 'ietf-yang-push';
export const YP_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';

/**
 * The module of draft-ietf-netconf-distributed-notif: the `message-publisher-id` of a
 * subscription's state, of subscription-started/-modified and of YANG Push updates.
 */
export const DISTRIBUTED_NOTIF_MODULE = 'ietf-distributed-notif';

/**
 * The modules the handler's schema needs to serve RFC 8650 subscriptions from a backend that
 * implements `backendModules`: none when the backend has no `ietf-subscribed-notifications`;
 * else that module and `ietf-restconf-subscribed-notifications` (whose `uri` leaf the
 * establish-subscription output and the subscriptions state carry, RFC 8650 section 3.3), and
 * `ietf-yang-push` and `ietf-distributed-notif` when the backend has them (the publisher ids are
 * the backend's to give: the handler passes them on).
 */
export function subscriptionModules(backendModules: Iterable<string>): string[] {
  const names = new Set([...backendModules].map((m) => m.split('@')[0]!));
  if (!names.has(SN_MODULE)) return [];
  const modules = [SN_MODULE, RSN_MODULE];
  if (names.has(YANG_PUSH_MODULE)) {
    modules.push(YANG_PUSH_MODULE);
    if (names.has(DISTRIBUTED_NOTIF_MODULE)) modules.push(DISTRIBUTED_NOTIF_MODULE);
  }
  return modules;
}

/**
 * Features of the subscription modules the handler provides itself, whatever the backend's: it
 * encodes the notifications of a subscription as JSON itself (RFC 8639 `encode-json`, RFC 8650).
 * Add them to the schema's features beside the backend's.
 */
export const SUBSCRIPTION_FEATURES: FeatureSelection = { [SN_MODULE]: ['encode-json'] };

/** The RFC 8639 operations the handler serves itself (and passes on to the backend). */
export const SUBSCRIPTION_OPERATIONS: ReadonlySet<string> = new Set([
  'establish-subscription',
  'modify-subscription',
  'delete-subscription',
  'kill-subscription',
]);

/** True when the operation `module:name` is one of {@link SUBSCRIPTION_OPERATIONS}. */
export function isSubscriptionOperation(op: { module: string; name: string }): boolean {
  return op.module === SN_MODULE && SUBSCRIPTION_OPERATIONS.has(op.name);
}
