/** Re-exported from `@yangkit/netconf-client` so one import connects a client in-process. */
export { duplexPair } from '@yangkit/netconf-client';
export type { DataNode, Slot, Step } from './data-tree.js';
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
export { loadServerSchema, SERVER_MODULES } from './schema.js';
export {
  type ActionHandler,
  type CommitHook,
  type HookContext,
  NetconfServer,
  type NetconfServerOptions,
  type RpcHandler,
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
export type { WithDefaultsMode } from './write-xml.js';
