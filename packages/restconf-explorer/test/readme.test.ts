import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from 'vitest';
import { readmeExamples, runExample } from '../../../test-support/readme-examples.js';

const [example] = readmeExamples(path.resolve(__dirname, '../README.md'));

test('the README server answers the explorer below /explorer/ and the rest with the RESTCONF handler', async () => {
  const { serveWithExplorer } = (await runExample(example!)) as {
    serveWithExplorer: (restconf: (req: IncomingMessage, res: ServerResponse) => void) => Server;
  };
  const server = serveWithExplorer((_req, res) => res.writeHead(204).end()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // 200 with the built app, 503 without it: either way the explorer, not the RESTCONF handler.
    expect([200, 503]).toContain((await fetch(`${url}/explorer/`)).status);
    expect((await fetch(`${url}/restconf/data`)).status).toBe(204);
  } finally {
    server.close();
  }
});
