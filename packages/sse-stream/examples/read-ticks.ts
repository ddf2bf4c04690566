import { readSse, type SseEvent } from '@yangkit/sse-stream';

/** Reads `count` events from an event stream URL, then disconnects. */
export async function readTicks(url: string, count: number): Promise<SseEvent[]> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  const events: SseEvent[] = [];
  for await (const event of readSse(response.body!)) {
    events.push(event);
    if (events.length === count) break; // leaving the loop closes the connection
  }
  return events;
}
