import { DATA_JSON } from './harness.js';

/** An open event stream of a gateway (RFC 8040 section 6.3). */
export interface EventStream {
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

/** How an event stream ended: `done` (the server ended the response), `cut` (an error), `hung` (no end in time). */
export interface StreamEnd {
  readonly how: 'done' | 'cut' | 'hung';
  readonly ms: number;
}

/** Opens the first stream that `restconf-state/streams` lists, as `text/event-stream`. */
export async function openEventStream(url: string): Promise<EventStream> {
  const streams = await fetch(`${url}/restconf/data/ietf-restconf-monitoring:restconf-state/streams`, {
    headers: { Accept: DATA_JSON },
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await streams.json()) as Record<string, { stream: { access: { location: string }[] }[] }>;
  const location = Object.values(body)[0]?.stream[0]?.access[0]?.location;
  if (location === undefined) throw new Error(`no stream location in ${JSON.stringify(body)}`);
  const sse = await fetch(location, { headers: { Accept: 'text/event-stream' } });
  if (sse.status !== 200 || sse.body === null) throw new Error(`opening ${location}: ${sse.status}`);
  return { reader: sse.body.getReader() };
}

/** Reads (and drops) everything until the stream ends, or cancels it after `boundMs`. */
export async function readUntilEnd(stream: EventStream, boundMs: number): Promise<StreamEnd> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), boundMs);
  });
  const ended = (async (): Promise<'done' | 'cut'> => {
    for (;;) {
      try {
        if ((await stream.reader.read()).done) return 'done';
      } catch {
        return 'cut';
      }
    }
  })();
  const how = await Promise.race([ended, hung]);
  clearTimeout(timer);
  if (how === 'hung') await stream.reader.cancel().catch(() => undefined);
  return { how, ms: performance.now() - started };
}
