export { type AuditListener, type AuditRecord, datastoreOf } from './audit.js';
export {
  type Backend,
  type BackendCapabilities,
  type BackendNotification,
  type BackendRequest,
  BackendRpcError,
  type BackendStats,
  type BackendSubscription,
  type ConfirmedCommit,
  type DatastoreName,
  DEFAULT_CONFIRM_TIMEOUT,
  EditError,
  type EditRequest,
  type EstablishRequest,
  type EventStreamInfo,
  type ExistsRequest,
  type InvokeRequest,
  type ReadRequest,
  type RpcErrorFields,
  type SharedRead,
  type StreamSubscribeRequest,
  type WriteAccessRequest,
  type XPathFilter,
} from './backend.js';
export { BODY_ADMISSION_DEFAULTS, SMALL_BODY_BYTES } from './body-admission.js';
export { type ChangeClock, memoryChangeClock } from './change-clock.js';
export { ConcurrencyLimit, type ReleaseSlot } from './concurrency-limit.js';
export {
  answerErrors,
  type ErrorAnswerOptions,
  errorEncoding,
  errorsBody,
  errorsJson,
  errorsXml,
  MAX_ERROR_TEXT,
  toRestconfErrors,
} from './error-body.js';
export {
  ERROR_TAG_STATUS,
  type ErrorPathForms,
  type ErrorType,
  RestconfError,
  type RestconfErrorCode,
  type RestconfErrorInit,
  STATUS_EXCEPTIONS,
  type StatusReason,
  statusOf,
  statusOfErrorTag,
} from './errors.js';
export { ATTRS_NS, GET_BULK_MODULE, GET_BULK_NS, GET_BULK_YANG } from './get-bulk-module.js';
export { createRestconfHandler, type RestconfHandler } from './handler.js';
export { IDLE_COLLECTION_DEFAULTS } from './idle-collection.js';
export {
  type BodyType,
  bodyType,
  dataMediaType,
  type Encoding,
  MEDIA,
  negotiateEncoding,
  parseAccept,
} from './media.js';
export { METADATA_MODULE, METADATA_NS, METADATA_YANG } from './metadata-module.js';
export { RESTCONF_MODULES, YANGKIT_MODULE_TEXTS, YANGKIT_MODULES } from './modules.js';
export {
  createNetconfBackend,
  type NetconfBackendOptions,
  type SessionFactory,
} from './netconf-backend/index.js';
export type { DefaultStyle, Logger, RestconfHandlerOptions } from './options.js';
export { EVENT_QUEUE_DEFAULTS, type EventStreamOptions } from './streams/index.js';
export {
  clientOf,
  SUBSCRIPTION_DEFAULTS,
  SUBSCRIPTION_FEATURES,
  type SubscriptionOptions,
  type SubscriptionStats,
  subscriptionModules,
} from './subscriptions/index.js';
export { MAX_BODY_NODES, MAX_KEY_LENGTH, MAX_STRING_LENGTH } from './value-limits.js';
