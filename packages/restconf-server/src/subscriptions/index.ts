export {
  isSubscriptionOperation,
  RSN_MODULE,
  SN_MODULE,
  SUBSCRIPTION_OPERATIONS,
  subscriptionModules,
  YANG_PUSH_MODULE,
} from './names.js';
export { requesterOf } from './requester.js';
export {
  RECEIVE_WITHIN_MS,
  serveSubscription,
  subscriptionCount,
  subscriptionOperation,
  subscriptionUri,
} from './service.js';
export { addSubscriptionState } from './state.js';
export { type EndReason, Subscription } from './subscription.js';
