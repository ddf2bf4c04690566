export {
  isSubscriptionOperation,
  RSN_MODULE,
  SN_MODULE,
  SUBSCRIPTION_FEATURES,
  SUBSCRIPTION_OPERATIONS,
  subscriptionModules,
  YANG_PUSH_MODULE,
} from './names.js';
export type { SubscriptionStats } from './registry.js';
export { clientOf, recordBasicUser, requesterOf } from './requester.js';
export {
  serveSubscription,
  subscriptionOperation,
  subscriptionStats,
  subscriptionUri,
} from './service.js';
export { addSubscriptionState } from './state.js';
export { type EndReason, Subscription } from './subscription.js';
export {
  SUBSCRIPTION_DEFAULTS,
  type SubscriptionOptions,
  type SubscriptionSettings,
  subscriptionSettings,
} from './subscription-options.js';
