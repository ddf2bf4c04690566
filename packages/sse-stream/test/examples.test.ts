import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test, vi } from 'vitest';
import { readTicks } from '../examples/read-ticks.js';
import { createTickServer } from '../examples/tick-server.js';

const root = path.resolve(__dirname, '..');

test('the README shows the example files as they are', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const file of ['examples/tick-server.ts', 'examples/read-ticks.ts']) {
    expect(readme).toContain(readFileSync(path.join(root, file), 'utf8'));
  }
});

test('the example client reads the example server and the server stops its ticks when it leaves', async () => {
  const clearIntervalSpy = vi.spyOn(globalThis, 'clearInterval');
  const server = createTickServer(5);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const events = await readTicks(`http://127.0.0.1:${port}/`, 3);
    expect(events).toEqual([
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
