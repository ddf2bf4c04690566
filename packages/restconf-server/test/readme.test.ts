import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test, vi } from 'vitest';
import {
  readmeCurlExamples,
  readmeExamples,
  runCurlExamples,
  runExample,
} from '../../../test-support/readme-examples.js';

const README = path.resolve(__dirname, '../README.md');
const [serve, external] = readmeExamples(README);

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the README server answers the README curl examples', async () => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const replacements = [
    ['http://127.0.0.1:8080', url] as const,
    ['listen(8080', `listen(${url.split(':')[2]}`] as const,
  ];
  await runExample(serve!, replacements);
  // The example does not wait for listen(); the commands do, for at most 30 s.
  await vi.waitFor(() => fetch(`${url}/.well-known/host-meta`), { timeout: 30_000, interval: 100 });
  const examples = readmeCurlExamples(README, 'Then, with curl:');
  expect(examples.length).toBe(2);
  await runCurlExamples(examples, replacements);
});

test(`${external!.name} runs as written`, async () => {
  await runExample(external!);
});
