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

/**
 * GETs a stream URL with Accept text/event-stream and reads it as SSE in the background, so that
 * comments (keepalives) are seen while no event is awaited.
 */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const comments: string[] = [];
  const queue: SseEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  void (async () => {
    try {
      for await (const event of readSse(response.body!, { onComment: (c) => comments.push(c) })) {
        queue.push(event);
        wake?.();
      }
    } catch {
      // Aborted or dropped: the stream is over either way.
    }
    ended = true;
    wake?.();
  })();
  const next = async (): Promise<SseEvent | undefined> => {
    while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift();
  };
  const takeWith = async (marker: RegExp, count: number): Promise<SseEvent[]> => {
    const out: SseEvent[] = [];
    while (out.length < count) {
      const event = await next();
      if (event === undefined) break;
      if (marker.test(event.data)) out.push(event);
    }
    return out;
  };
  return {
    response,
    comments,
    take: (count) => takeWith(/(?:)/, count),
    takeWith,
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
