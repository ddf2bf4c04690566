import http from 'node:http';
import { createSseWriter } from '@yangkit/sse-stream';

/** An HTTP server whose every request is an event stream of numbered ticks. */
export function createTickServer(intervalMs = 1000): http.Server {
  return http.createServer((_req, res) => {
    let n = 0;
    const ticks = setInterval(() => {
      writer.send({ event: 'tick', id: String(n), data: JSON.stringify({ n: n++ }) });
    }, intervalMs);
    const writer = createSseWriter(res, {
      keepaliveSeconds: 30, // `:SSE keepalive` after 30 s without a tick
      overflow: 'close', // a client that cannot keep up is disconnected
      onClose: () => clearInterval(ticks), // runs as soon as the client goes away
    });
  });
}
