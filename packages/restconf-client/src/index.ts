export { basicAuthorization } from './basic-auth.js';
export { RestconfClient, type SubscribeOptions } from './client.js';
export { parseErrorBody } from './error-body.js';
export {
  RestconfClientError,
  type RestconfClientErrorCode,
  type RestconfErrorEntry,
  RestconfResponseError,
} from './errors.js';
export type { StreamOptions } from './event-stream.js';
export { parseHostMeta } from './host-meta.js';
export { decodeNotification, type RestconfNotification } from './notification.js';
export { parseStreams, type StreamInfo } from './streams.js';
export type { PathInput } from './target.js';
export { MEDIA } from './transport.js';
export type {
  Conditions,
  ConfirmedCommit,
  EditOptions,
  Encoding,
  FetchLike,
  GetConfigOptions,
  GetOptions,
  InsertOptions,
  RequestOptions,
  RestconfClientOptions,
  RestconfResponse,
} from './types.js';
