import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { type GatewayOptions, optionsFromArgs } from '../src/options.js';

// Runs the README's TLS section as written: its openssl commands in an empty folder, the
// gateway with the flags of its command line (on a free port), then its curl examples, each of
// whose `# ` lines must appear in that command's output.
const README = readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');
const SECTION = README.slice(
  README.indexOf('## TLS, client certificates and HTTP/2'),
  README.indexOf('## Audit log'),
);
const BLOCKS = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const README_URL = 'https://127.0.0.1:8443';
const run = promisify(execFile);

interface Example {
  readonly command: string;
  readonly expected: string[];
}

function curlExamples(block: string): Example[] {
  const examples: Example[] = [];
  let pending = '';
  let open = false;
  for (const line of block.split('\n')) {
    if (pending !== '' || line.startsWith('curl ')) {
      pending = pending === '' ? line : `${pending}\n${line}`;
      if (!line.endsWith('\\')) {
        examples.push({ command: pending, expected: [] });
        pending = '';
        open = true;
      }
    } else if (line.trim() === '') open = false;
    else if (open && line.startsWith('# ')) examples[examples.length - 1]!.expected.push(line.slice(2));
  }
  return examples;
}

let dir: string;
let gw: Gateway;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-readme-tls-'));
  await run('sh', ['-e', '-c', BLOCKS[0]!], { cwd: dir });
  const argv = BLOCKS[1]!.trim().split(/\s+/).slice(2);
  const command = optionsFromArgs(argv, {});
  if (command.help) throw new Error('the README command asks for help');
  const o = command.options;
  const inDir = (file: string | undefined) => (file === undefined ? undefined : path.join(dir, file));
  const options: GatewayOptions = {
    ...o,
    port: 0,
    tlsCert: inDir(o.tlsCert)!,
    tlsKey: inDir(o.tlsKey)!,
    tlsCa: inDir(o.tlsCa)!,
  };
  gw = await startGateway(options, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw?.close());

describe('README TLS examples', () => {
  test('name the port, certificate, key and CA of the command line', () => {
    expect(BLOCKS).toHaveLength(3);
    expect(BLOCKS[1]).toContain('--port=8443');
    expect(BLOCKS[1]).toContain('--tls-ca=ca.pem');
  });

  test('all run as written with openssl and curl and print what the README shows', async () => {
    const examples = curlExamples(BLOCKS[2]!);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const { command, expected } of examples) {
      const { stdout } = await run('sh', ['-c', command.replaceAll(README_URL, gw.url)], { cwd: dir });
      for (const line of expected) expect(stdout.replace(/\r/g, ''), command).toContain(line);
    }
  });
});
