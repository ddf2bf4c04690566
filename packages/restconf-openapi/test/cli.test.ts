import { describe, expect, test } from 'vitest';
import { main } from '../src/cli';
import { EXAMPLES_YANG, FIXTURE_YANG } from './helpers';

async function run(
  ...argv: string[]
): Promise<{ code: number; stdout: string; stderr: string; files: Map<string, string> }> {
  let stdout = '';
  let stderr = '';
  const files = new Map<string, string>();
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    writeFile: (f, t) => files.set(f, t),
  });
  return { code, stdout, stderr, files };
}

describe('yang-openapi', () => {
  test('prints the document of the modules given', async () => {
    const r = await run('--path', EXAMPLES_YANG, '--module', 'example-jukebox', '--module', 'example-ops');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/data/example-jukebox:jukebox/library/artist={name}');
    expect(Object.keys(doc.paths)).toContain('/operations/example-ops:reboot');
  });

  test('documents only the modules of --document', async () => {
    const r = await run('-p', FIXTURE_YANG, '-m', 'ietf-ip', '-m', 'ietf-routing', '--document', 'ietf-ip');
    const paths = Object.keys(JSON.parse(r.stdout).paths);
    expect(paths.some((p) => p.includes('ietf-routing:'))).toBe(false);
    expect(paths.some((p) => p.includes('ietf-ip:ipv4'))).toBe(true);
  });

  test('takes the server URL and security schemes', async () => {
    const r = await run(
      '-p',
      EXAMPLES_YANG,
      '-m',
      'example-jukebox',
      '--server-url',
      'https://r1/restconf',
      '--security',
      'basic',
      '--indent',
      '0',
    );
    const doc = JSON.parse(r.stdout);
    expect(doc.servers).toEqual([{ url: 'https://r1/restconf' }]);
    expect(doc.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
    expect(r.stdout.split('\n')).toHaveLength(2);
  });

  test('writes the document to --output', async () => {
    const r = await run('-p', EXAMPLES_YANG, '-m', 'example-ops', '-o', 'api.json');
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.files.get('api.json')!).openapi).toBe('3.1.0');
  });

  test('exits 1 naming a module it cannot find', async () => {
    const r = await run('-m', 'no-such-module');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no-such-module');
  });

  test('exits 2 on a usage error', async () => {
    expect((await run()).code).toBe(2);
    expect((await run('-m', 'example-ops', '--security', 'kerberos')).code).toBe(2);
    expect((await run('-p', EXAMPLES_YANG, '-m', 'example-ops', '--document', 'example-jukebox')).code).toBe(
      2,
    );
  });
});
