export { compileEventFilter, type EventFilter, MAX_FILTER_LENGTH } from './event-filter.js';
export {
  createEventStreams,
  type EventStreamStats,
  type EventStreams,
  type StreamTarget,
} from './event-streams.js';
export { notificationMessage } from './notification-message.js';
export {
  STREAM_ENCODINGS,
  streamLocation,
  streamsXml,
} from './stream-list.js';
export {
  EVENT_QUEUE_DEFAULTS,
  type EventStreamOptions,
  type StreamSettings,
  streamSettings,
} from './stream-options.js';
