import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import { readSse } from '../src/read-sse.js';
import { createSseWriter, type SseWriter } from '../src/sse-writer.js';
import type { SseCloseInfo } from '../src/writer-options.js';

let server: http.Server | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  if (server) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
    server = undefined;
  }
});

/**
 * Starts a server whose one stream sends a numbered event every few milliseconds, as a NETCONF
 * notification subscription would; `upstreamStopped` resolves when the writer released it.
 */
async function startStreamServer() {
  let writer: SseWriter | undefined;
  let resolveStopped!: (info: SseCloseInfo) => void;
  const upstreamStopped = new Promise<SseCloseInfo>((resolve) => {
    resolveStopped = resolve;
  });
  server = http.createServer((_req, res) => {
    let n = 0;
    const upstream = setInterval(
      () => writer?.send({ event: 'tick', id: String(n), data: `{"n":${n++}}` }),
      2,
    );
    writer = createSseWriter(res, {
      keepaliveSeconds: 30,
      onClose: (info) => {
        clearInterval(upstream);
        resolveStopped(info);
      },
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/stream`, upstreamStopped, writer: () => writer };
}

test('a real response carries the event stream head and events a reader can read', async () => {
  const { url } = await startStreamServer();
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(response.headers.get('x-accel-buffering')).toBe('no');
  const events = [];
  for await (const event of readSse(response.body!)) {
    events.push(event);
    if (events.length === 3) break;
  }
  expect(events).toEqual([
    { event: 'tick', id: '0', data: '{"n":0}' },
    { event: 'tick', id: '1', data: '{"n":1}' },
    { event: 'tick', id: '2', data: '{"n":2}' },
  ]);
});

test('a client that disconnects mid-stream releases the upstream and the keepalive timer at once', async () => {
  const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
  const clearTimeoutSpy = vi.spyOn(globalThis, 'clearTimeout');
  const { url, upstreamStopped, writer } = await startStreamServer();

  const request = http.get(url);
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  let received = 0;
  for await (const _ of readSse(response)) {
    if (++received === 5) break; // leaving the loop destroys the response and its socket
  }

  await expect(upstreamStopped).resolves.toEqual({ reason: 'disconnect' });
  expect(writer()?.isClosed).toBe(true);
  expect(writer()?.send({ data: 'late' })).toBe(false);
  // The keepalive timer the writer armed was cleared by the disconnect.
  const keepaliveTimer = setTimeoutSpy.mock.results.find(
    (_, i) => setTimeoutSpy.mock.calls[i]?.[1] === 30_000,
  )?.value;
  expect(keepaliveTimer).toBeDefined();
  expect(clearTimeoutSpy).toHaveBeenCalledWith(keepaliveTimer);
});

test('a client that stops reading is disconnected by the close policy instead of being buffered for', async () => {
  const payload = 'x'.repeat(64 * 1024);
  let resolveClosed!: (result: { info: SseCloseInfo; sent: number; maxQueued: number }) => void;
  const closed = new Promise<{ info: SseCloseInfo; sent: number; maxQueued: number }>((resolve) => {
    resolveClosed = resolve;
  });
  server = http.createServer((_req, res) => {
    let sent = 0;
    let maxQueued = 0;
    const writer = createSseWriter(res, {
      maxQueuedEvents: 4,
      overflow: 'close',
      onClose: (info) => resolveClosed({ info, sent, maxQueued }),
    });
    // A producer faster than the client: one 64 KiB event per turn of the event loop.
    const produce = (): void => {
      if (!writer.send({ data: payload })) return;
      sent++;
      maxQueued = Math.max(maxQueued, writer.stats.queuedBytes);
      setImmediate(produce);
    };
    produce();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const request = http.get(`http://127.0.0.1:${port}/`);
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  response.pause(); // the client never reads

  const { info, sent, maxQueued } = await closed;
  expect(info).toEqual({ reason: 'overflow' });
  expect(maxQueued).toBeLessThanOrEqual(4 * (payload.length + 8));
  // The kernel's socket buffers take some megabytes; the writer's queue never took more than four events.
  expect(sent).toBeGreaterThan(4);
  request.destroy();
});
