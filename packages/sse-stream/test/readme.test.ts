import { once } from 'node:events';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test, vi } from 'vitest';
import { readmeExamples, runExample } from '../../../test-support/readme-examples.js';

// The examples of README.md, from its text: the tick server and client together, then the rest.
const [serverExample, clientExample, ...others] = readmeExamples(path.resolve(__dirname, '../README.md'));
const streamExample = others.find((e) => e.code.includes('SseEventStream'))!;

/** The README's tick server, ticking every 5 ms on a free port. */
async function tickServer(): Promise<{ server: http.Server; url: string }> {
  const { createTickServer } = (await runExample(serverExample!)) as {
    createTickServer: (intervalMs: number) => http.Server;
  };
  const server = createTickServer(5).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test('the README client reads the README server, which stops ticking when the client leaves', async () => {
  const clearIntervalSpy = vi.spyOn(globalThis, 'clearInterval');
  const { server, url } = await tickServer();
  const { readTicks } = (await runExample(clientExample!)) as {
    readTicks: (url: string, count: number) => Promise<unknown[]>;
  };
  try {
    expect(await readTicks(url, 3)).toEqual([
      { event: 'tick', id: '0', data: '{"n":0}' },
      { event: 'tick', id: '1', data: '{"n":1}' },
      { event: 'tick', id: '2', data: '{"n":2}' },
    ]);
  } finally {
    server.close();
    await once(server, 'close');
  }
  // The response's 'close' follows the server's by a tick or two.
  await vi.waitFor(() => expect(clearIntervalSpy).toHaveBeenCalledTimes(1));
  clearIntervalSpy.mockRestore();
});

test.each(others.map((e) => [e.name, e] as const))('%s runs as written', async (_, example) => {
  if (example !== streamExample) {
    await runExample(example);
    return;
  }
  // It reads the tick server at localhost:8080; here the server listens on a free port.
  const { server, url } = await tickServer();
  try {
    await runExample(example, [['http://localhost:8080/', url]]);
  } finally {
    server.close();
  }
});
