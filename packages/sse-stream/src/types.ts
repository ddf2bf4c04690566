/**
 * One Server-Sent Event: what the writer sends and what the reader yields.
 *
 * On the wire `data` may span several lines; the reader joins them with LF, so CR and CRLF line
 * breaks in sent data come back as LF (the event stream format has no way to tell them apart).
 */
export interface SseEvent {
  /** The payload; each of its lines becomes one `data:` field. */
  data: string;
  /** The event type (`event:` field); absent means the default type `message`. */
  event?: string;
  /** The event ID (`id:` field) a client echoes in `Last-Event-ID` when it reconnects. */
  id?: string;
  /** The reconnection time in milliseconds (`retry:` field). */
  retry?: number;
}
