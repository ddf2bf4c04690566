import { RestconfClient } from '@yangkit/restconf-client';

/** Prints the first `count` notifications of an event stream, reconnecting if it drops. */
export async function watch(baseUrl: string, stream: string, count: number): Promise<string[]> {
  const client = new RestconfClient({ baseUrl });
  const seen: string[] = [];
  for await (const notification of client.subscribe(stream, { filter: '/tick' })) {
    seen.push(`${notification.eventTime} ${notification.event}`);
    if (seen.length === count) break; // leaving the loop closes the connection
  }
  return seen;
}
