import { readSse, type SseEvent } from '@yangkit/sse-stream';

/** The example-mod namespace (RFC 8040 Appendix A.1 example notification). */
export const EVENT_NS = 'http://example.com/event/1.0';

/** An example-mod `event` notification element. */
export function eventXml(eventClass: string, severity = 'major'): string {
  return `<event xmlns="${EVENT_NS}"><event-class>${eventClass}</event-class><reporting-entity><card>Ethernet0</card></reporting-entity><severity>${severity}</severity></event>`;
}

/** An open event stream: its events as they arrive, its raw text, and a way to leave. */
export interface OpenStream {
  readonly response: Response;
  /** Resolves with the next `count` events (fewer when the stream ends). */
  take(count: number): Promise<SseEvent[]>;
  /** Like `take`, skipping events whose data does not contain `marker` (other sessions' events). */
  takeWith(marker: RegExp, count: number): Promise<SseEvent[]>;
  /** Comments seen so far (keepalives). */
  readonly comments: string[];
  close(): void;
}

/** GETs a stream URL with Accept text/event-stream and reads it as SSE. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const comments: string[] = [];
  const iterator = readSse(response.body!, { onComment: (c) => comments.push(c) })[Symbol.asyncIterator]();
  return {
    response,
    comments,
    async take(count) {
      const out: SseEvent[] = [];
      while (out.length < count) {
        const next = await iterator.next();
        if (next.done) break;
        out.push(next.value);
      }
      return out;
    },
    async takeWith(marker, count) {
      const out: SseEvent[] = [];
      while (out.length < count) {
        const next = await iterator.next();
        if (next.done) break;
        if (marker.test(next.value.data)) out.push(next.value);
      }
      return out;
    },
    close: () => abort.abort(),
  };
}

/** Resolves once `check` holds, polling every 10 ms (for state that follows an event). */
export async function until(check: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
