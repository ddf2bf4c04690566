import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli';
import { FIXTURES, SHARED_YANG, TEST_YANG } from './helpers';

async function run(argv: string[], files: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readFile: (f) => files[f] ?? readFileSync(f, 'utf8'),
  });
  return { code, stdout, stderr };
}

const base = ['--path', TEST_YANG, '--path', SHARED_YANG];
const cases = path.join(FIXTURES, 'cases');

describe('yang-convert', () => {
  test('converts XML to pretty-printed JSON', async () => {
    const dir = path.join(cases, 'rfc7951-module-names');
    const r = await run([
      ...base,
      '--module',
      'example-foomod',
      '--module',
      'example-barmod',
      '--from',
      'xml',
      '--to',
      'json',
      path.join(dir, 'input.xml'),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  });

  test('converts JSON to XML with one element per line', async () => {
    const dir = path.join(cases, 'rfc8040-rpc-input');
    const r = await run([
      ...base,
      '-m',
      'example-ops',
      '--from',
      'json',
      '--to',
      'xml',
      '--kind',
      'rpc',
      '--operation',
      'example-ops:reboot',
      path.join(dir, 'input.json'),
    ]);
    expect([r.code, r.stdout]).toEqual([0, readFileSync(path.join(dir, 'expected.xml'), 'utf8')]);
  });

  test('converts an rpc reply', async () => {
    const dir = path.join(cases, 'rfc8040-rpc-output');
    const r = await run([
      ...base,
      '-m',
      'example-ops',
      '--from',
      'xml',
      '--to',
      'json',
      '--kind',
      'reply',
      '--operation',
      'example-ops:get-reboot-info',
      path.join(dir, 'input.xml'),
    ]);
    expect([r.code, r.stdout]).toEqual([0, readFileSync(path.join(dir, 'expected.json'), 'utf8')]);
  });

  test('exits 1 and names the node on a validation error', async () => {
    const r = await run([...base, '-m', 'example-foomod', '--from', 'json', '--to', 'xml', 'doc.json'], {
      'doc.json': '{"example-foomod:top": {"foo": 300}}',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"foo"');
    expect(r.stderr).toContain('error-tag invalid-value at /example-foomod:top/foo');
  });

  test('exits 1 when a mandatory rpc input is missing', async () => {
    const r = await run(
      [
        ...base,
        '-m',
        'codec-types',
        '--from',
        'json',
        '--to',
        'xml',
        '--kind',
        'rpc',
        '--operation',
        'codec-types:ping',
        'in.json',
      ],
      {
        'in.json': '{"codec-types:input": {}}',
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"host"');
  });

  test('exits 2 on a usage error', async () => {
    const r = await run(['--from', 'yaml', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: yang-convert');
  });

  test('exits 2 when a module cannot be found', async () => {
    const r = await run([...base, '-m', 'no-such-module', '--from', 'json', '--to', 'xml', 'x.json'], {
      'x.json': '{}',
    });
    expect(r.code).toBe(2);
  });
});
