import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  readmeCurlExamples,
  runCurlExamples,
  testReadmeExamples,
} from '../../../test-support/readme-examples.js';
import { type Gateway, startGateway } from '../src/gateway.js';

const README = path.resolve(__dirname, '../README.md');

// The README's TypeScript example, from its text.
testReadmeExamples(README);

// Runs the README's curl examples in order against the default gateway (on a free port instead
// of 8080): each `# ` line under a command must appear in that command's output.
let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ port: 0 }, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw.close());

describe('README curl examples', () => {
  const examples = readmeCurlExamples(README, '## Try it with curl');

  test('are found in the README', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(examples.flatMap((e) => e.expected).length).toBeGreaterThanOrEqual(8);
  });

  test('all run as written and print what the README shows', async () => {
    await runCurlExamples(examples, [['http://127.0.0.1:8080', gw.url]]);
  });
});
