import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';

// Runs the README's curl examples in order against the default gateway (on a free port instead
// of 8080): each `# ` line under a command must appear in that command's output.
const README = readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');
const run = promisify(execFile);
const DEFAULT_URL = 'http://127.0.0.1:8080';

interface Example {
  readonly command: string;
  readonly expected: string[];
}

function curlExamples(): Example[] {
  const section = README.slice(README.indexOf('## Try it with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const examples: Example[] = [];
  let pending = '';
  // Output comments follow their command directly; a blank line ends them.
  let open = false;
  for (const line of block.split('\n')) {
    if (pending !== '' || line.startsWith('curl ')) {
      pending = pending === '' ? line : `${pending}\n${line}`;
      const quoted = (pending.match(/'/g) ?? []).length % 2 === 1;
      if (!line.endsWith('\\') && !quoted) {
        examples.push({ command: pending, expected: [] });
        pending = '';
        open = true;
      }
    } else if (line.trim() === '') open = false;
    else if (open && line.startsWith('# ')) examples[examples.length - 1]!.expected.push(line.slice(2));
  }
  return examples;
}

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ port: 0 }, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw.close());

describe('README curl examples', () => {
  const examples = curlExamples();

  test('are found in the README', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    expect(examples.flatMap((e) => e.expected).length).toBeGreaterThanOrEqual(8);
  });

  test('all run as written and print what the README shows', async () => {
    for (const { command, expected } of examples) {
      const { stdout } = await run('sh', ['-c', command.replaceAll(DEFAULT_URL, gw.url)]);
      for (const line of expected)
        expect(stdout.replace(/\r/g, ''), command).toContain(line.replaceAll(DEFAULT_URL, gw.url));
    }
  });
});
