import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Server, sendJson, startServer } from './harness.js';

// RFC 8040 Appendix B.3.6 to B.3.8: the filter, start-time and stop-time parameters of an event
// stream, on the NETCONF stream of the embedded server, whose events here are the
// netconf-config-change notifications that edits over HTTP cause.
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const CHANGE = 'ietf-netconf-notifications:netconf-config-change';
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** An open event stream: the data of each event received, in order. */
interface Stream {
  /** Resolves with the events so far once `check` holds for them; rejects after 10 s. */
  until(check: (events: readonly string[]) => boolean): Promise<readonly string[]>;
  /** Resolves with the data of every event once the server ends the stream. */
  ended(): Promise<readonly string[]>;
  close(): void;
}

async function openStream(query: string): Promise<Stream> {
  const abort = new AbortController();
  const r = await s.fetch(`/restconf/streams/json-NETCONF?${query}`, {
    headers: { Accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(r.status).toBe(200);
  const reader = r.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const events: string[] = [];
  let done = false;
  const pump = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      buffer += chunk.value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const lines = buffer.slice(0, end).split('\n');
        const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
        if (data.length > 0) events.push(data.join('\n'));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
    done = true;
  })();
  return {
    async until(check) {
      const deadline = Date.now() + 10_000;
      while (!check(events)) {
        if (done || Date.now() > deadline) throw new Error(`not seen in ${events.length} events`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return events;
    },
    ended: () => pump.then(() => events),
    close: () => abort.abort(),
  };
}

const isChange = (e: string) => e.includes(CHANGE);
const isReplayComplete = (e: string) => e.includes('replayComplete');

const setGap = (value: string) => s.fetch(GAP, sendJson('PUT', { 'example-jukebox:gap': value }));

describe('B.3.6 "filter" parameter', () => {
  test('delivers only the events the XPath expression selects', async () => {
    // Only changes that delete something pass; the replace before the delete does not.
    // Names are qualified by their module's name (the spec's XPath context), the children too.
    const nn = 'ietf-netconf-notifications';
    const filter = encodeURIComponent(`/${CHANGE}[${nn}:edit/${nn}:operation='delete']`);
    const stream = await openStream(`filter=${filter}`);
    expect((await setGap('0.3')).status).toBeLessThan(300);
    expect((await s.fetch(GAP, { method: 'DELETE' })).status).toBe(204);
    const events = await stream.until((e) => e.some(isChange));
    stream.close();
    expect(events.filter(isChange)).toHaveLength(1);
    expect(events[0]).toContain('"operation":"delete"');
  });
});

describe('B.3.7 "start-time" parameter', () => {
  test('replays the events logged since then, then replayComplete, then live events', async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    expect((await setGap('0.4')).status).toBeLessThan(300);
    const stream = await openStream(`start-time=${encodeURIComponent(start)}`);
    const replayed = (await stream.until((e) => e.some(isReplayComplete))).length;
    expect((await setGap('0.6')).status).toBe(204);
    const all = await stream.until((e) => e.slice(replayed).some(isChange));
    stream.close();
    // The edit made before the GET is replayed before replayComplete; the one after comes live.
    const complete = all.findIndex(isReplayComplete);
    expect(all.slice(0, complete).some(isChange)).toBe(true);
    expect(all.slice(complete + 1).some(isChange)).toBe(true);
  });
});

describe('B.3.8 "stop-time" parameter', () => {
  test('ends the stream after replayComplete and notificationComplete', async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    expect((await setGap('0.8')).status).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const stop = new Date().toISOString();
    const stream = await openStream(
      `start-time=${encodeURIComponent(start)}&stop-time=${encodeURIComponent(stop)}`,
    );
    const events = await stream.ended();
    expect(events.some((e) => e.includes(CHANGE))).toBe(true);
    expect(events.slice(-2).map((e) => /replayComplete|notificationComplete/.exec(e)?.[0])).toEqual([
      'replayComplete',
      'notificationComplete',
    ]);
  });
});
