/** The RFC 8639 module and namespace. */
export const SN_MODULE = 'ietf-subscribed-notifications';
export const SN_NS = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
/** The RFC 8650 module whose `uri` leaf augments the establish-subscription output. */
export const RSN_MODULE = 'ietf-restconf-subscribed-notifications';
export const RSN_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf-subscribed-notifications';

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

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
