/** Re-exported from `@yangkit/netconf-client` so one import connects a client in-process. */
export { duplexPair } from '@yangkit/netconf-client';
/** The codec's tree types, which the datastores and hooks use. */
export type {
  DataNode,
  InstanceTree,
  PathStep as Step,
  Steps,
  WithDefaultsMode,
} from '@yangkit/yang-json-codec';
export { type Change, Datastore, type DatastoreName } from './datastore.js';
export {
  type ErrorTag,
  type ErrorType,
  NetconfServerError,
  type NetconfServerErrorCode,
  RpcError,
  type RpcErrorFields,
  rpcError,
} from './errors.js';
export { type ExampleHandlerOptions, exampleHandlers } from './example-handlers.js';
export {
  type LocalCommitOptions,
  type LocalReadOptions,
  LocalSession,
  type NmdaDatastoreName,
  type SharedRead,
} from './local-session.js';
export { AccessControl, type NacmCounters } from './nacm/access-control.js';
export { NACM_NS, type NacmConfig } from './nacm/config.js';
export type { UserAccess } from './nacm/rules.js';
export { schemaVisibility } from './nacm/schema-visibility.js';
export { loadServerSchema, SERVER_MODULES } from './schema.js';
export {
  type ActionHandler,
  type CommitHook,
  type ConnectOptions,
  DEFAULT_MAX_UPDATE_BYTES,
  DEFAULT_MAX_XPATH_WORK,
  type HookContext,
  NetconfServer,
  type NetconfServerOptions,
  type RpcHandler,
  type ServerLogger,
  type StateProvider,
  type ValidateHook,
} from './server.js';
export { ServerSession, type SessionInfo, type TerminationReason } from './session.js';
export {
  type SshAuthenticate,
  type SshListener,
  type SshServerOptions,
  type SshUser,
  startSshServer,
} from './ssh.js';
