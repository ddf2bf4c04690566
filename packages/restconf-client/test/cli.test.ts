import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { runCli } from '../src/cli-run.js';
import { RestconfClientError } from '../src/index.js';
import { startTestServer } from './test-server.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
const dir = mkdtempSync(path.join(tmpdir(), 'yangkit-cli-'));

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

async function yangkit(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['--server', server.url, ...args], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

const LIBRARY = '/example-jukebox:jukebox/library';

test('sget prints the data pretty and asks for content=all', async () => {
  const { code, stdout } = await yangkit('sget', LIBRARY);
  expect(code).toBe(0);
  expect(stdout).toBe(
    `${JSON.stringify({ 'example-jukebox:library': { artist: [{ name: 'Foo Fighters' }] } }, null, 2)}\n`,
  );
  expect(server.seen.at(-1)?.url).toBe(`${server.root}/data${LIBRARY}?content=all`);
});

test('sget --content config asks for content=config with depth and fields', async () => {
  await yangkit('sget', LIBRARY, '--content', 'config', '--depth', '3', '--fields', 'artist/name');
  expect(server.seen.at(-1)?.url).toBe(
    `${server.root}/data${LIBRARY}?content=config&depth=3&fields=artist/name`,
  );
});

test('get-config POSTs ietf-netconf:get-config with the path as a subtree filter', async () => {
  const { code, stdout } = await yangkit('get-config', LIBRARY, '--source', 'candidate');
  expect(code).toBe(0);
  expect(server.seen.at(-1)).toMatchObject({
    method: 'POST',
    url: `${server.root}/operations/ietf-netconf:get-config`,
    headers: { 'content-type': 'application/yang-data+json' },
  });
  expect(JSON.parse(server.seen.at(-1)?.body ?? '')).toEqual({
    'ietf-netconf:input': {
      source: { candidate: [null] },
      filter: { 'example-jukebox:jukebox': { library: {} } },
    },
  });
  expect(JSON.parse(stdout)).toHaveProperty(['ietf-netconf:output', 'data']);
});

test('get-config without a path asks for the whole running configuration', async () => {
  await yangkit('get-config', '--with-defaults', 'report-all');
  expect(JSON.parse(server.seen.at(-1)?.body ?? '')).toEqual({
    'ietf-netconf:input': {
      source: { running: [null] },
      'ietf-netconf-with-defaults:with-defaults': 'report-all',
    },
  });
});

test('get-config of a path with list keys exits 2 without a request', async () => {
  const { code, stderr } = await yangkit('get-config', `${LIBRARY}/artist=Foo%20Fighters`);
  expect(code).toBe(2);
  expect(stderr).toContain('key names');
  expect(server.seen.some((r) => r.url.includes('get-config'))).toBe(false);
});

test('sget --encoding xml prints the XML body', async () => {
  const { stdout } = await yangkit('--encoding', 'xml', 'sget', LIBRARY);
  expect(stdout).toContain('<artist><name>Foo Fighters</name></artist>');
});

test('create takes the path of the new entry and POSTs it to the parent', async () => {
  const { code } = await yangkit(
    'create',
    `${LIBRARY}/artist=Nirvana`,
    '{"example-jukebox:artist":[{"name":"Nirvana"}]}',
  );
  expect(code).toBe(0);
  expect(server.seen.at(-1)).toMatchObject({ method: 'POST', url: `${server.root}/data${LIBRARY}` });
  expect(server.artists.has('Nirvana')).toBe(true);
});

test('create of the datastore itself is a usage error', async () => {
  const { code, stderr } = await yangkit('create', '/', '{"example-jukebox:jukebox":{}}');
  expect(code).toBe(2);
  expect(stderr).toContain('create takes the path of the new resource');
});

test('create of an existing entry exits 1 and prints the error entries', async () => {
  const { code, stderr } = await yangkit(
    'create',
    `${LIBRARY}/artist=Foo%20Fighters`,
    '{"example-jukebox:artist":[{"name":"Foo Fighters"}]}',
  );
  expect(code).toBe(1);
  expect(stderr).toBe(
    [
      'error: HTTP 409',
      '  protocol data-exists',
      "    path: /example-jukebox:jukebox/library/artist[name='Foo Fighters']",
      '    message: the entry exists',
      '',
    ].join('\n'),
  );
});

test('replace reads @file.json and sends the confirmed-commit parameters', async () => {
  const file = path.join(dir, 'artist.json');
  writeFileSync(file, '{"example-jukebox:artist":[{"name":"Foo Fighters","genre":"rock"}]}');
  const { code } = await yangkit(
    'replace',
    `${LIBRARY}/artist=Foo%20Fighters`,
    `@${file}`,
    '--confirmed',
    '--confirm-timeout',
    '30',
    '--persist',
    'abc',
  );
  expect(code).toBe(0);
  expect(server.seen.at(-1)?.url).toBe(
    `${server.root}/data${LIBRARY}/artist=Foo%20Fighters?confirmed=1&confirm-timeout=30&persist=abc`,
  );
});

test('an edit with --persist-id joins a pending confirmed commit', async () => {
  const value = '{"example-jukebox:artist":[{"name":"Foo Fighters","genre":"rock"}]}';
  const { code } = await yangkit('merge', `${LIBRARY}/artist=Foo%20Fighters`, value, '--persist-id', 'abc');
  expect(code).toBe(0);
  expect(server.seen.at(-1)?.url).toBe(`${server.root}/data${LIBRARY}/artist=Foo%20Fighters?persist-id=abc`);
});

test('merge with @file.xml sends XML', async () => {
  const file = path.join(dir, 'artist.xml');
  writeFileSync(file, '<artist xmlns="http://example.com/ns/example-jukebox"><name>X</name></artist>');
  await yangkit('merge', `${LIBRARY}/artist=X`, `@${file}`);
  expect(server.seen.at(-1)?.headers['content-type']).toBe('application/yang-data+xml');
});

test('insert with --operation replace PUTs with insert and point', async () => {
  await yangkit(
    'insert',
    `${LIBRARY}/artist=Nirvana`,
    '{"example-jukebox:artist":[{"name":"Nirvana"}]}',
    '--operation',
    'replace',
    '--insert',
    'after',
    '--point',
    `${LIBRARY}/artist=Foo%20Fighters`,
  );
  expect(server.seen.at(-1)?.method).toBe('PUT');
  expect(server.seen.at(-1)?.url).toContain('?insert=after&point=');
});

test('insert without --operation is a usage error', async () => {
  const { code, stderr } = await yangkit('insert', LIBRARY, '{}', '--insert', 'first');
  expect(code).toBe(2);
  expect(stderr).toContain('insert needs --operation and --insert');
});

test('delete of a missing entry exits 1 while remove exits 0', async () => {
  expect((await yangkit('delete', `${LIBRARY}/artist=None`)).code).toBe(1);
  expect((await yangkit('remove', `${LIBRARY}/artist=None`)).code).toBe(0);
});

test('remove of an absent entry prints nothing', async () => {
  expect(await yangkit('remove', `${LIBRARY}/artist=None`)).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(server.seen.at(-1)?.method).toBe('DELETE');
});

test('--encoding xml with an inline JSON value exits 2 and sends nothing', async () => {
  const { code, stderr } = await yangkit(
    '--encoding',
    'xml',
    'merge',
    `${LIBRARY}/artist=X`,
    '{"example-jukebox:artist":[{"name":"X"}]}',
  );
  expect(code).toBe(2);
  expect(stderr).toContain('not JSON');
  expect(server.seen.some((r) => r.method === 'PATCH')).toBe(false);
});

test('rpc prints the output', async () => {
  const { code, stdout } = await yangkit('rpc', 'example-jukebox:play', '{"playlist":"Foo-One"}');
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ 'example-jukebox:output': { playing: 'Foo-One' } });
});

test('patch sends a YANG Patch file', async () => {
  const file = path.join(dir, 'patch.json');
  writeFileSync(file, '{"ietf-yang-patch:yang-patch":{"patch-id":"p","edit":[]}}');
  await yangkit('patch', file, '--path', LIBRARY);
  expect(server.seen.at(-1)).toMatchObject({
    method: 'PATCH',
    headers: { 'content-type': 'application/yang-patch+json' },
  });
});

test('commit and cancel-commit send the persist-id', async () => {
  await yangkit('commit', '--persist-id', 'abc');
  expect(server.seen.at(-1)?.body).toBe('{"ietf-netconf:input":{"persist-id":"abc"}}');
  await yangkit('cancel-commit', '--persist-id', 'abc');
  expect(server.seen.at(-1)?.url).toBe(`${server.root}/operations/ietf-netconf:cancel-commit`);
});

test('schema prints the YANG source', async () => {
  const { stdout } = await yangkit('schema', 'example-jukebox');
  expect(stdout).toMatch(/^module example-jukebox \{/);
});

test('subscribe prints events as they arrive and stops after --count', async () => {
  const { code, stdout } = await yangkit('subscribe', 'NETCONF', '--count', '2', '--filter', '/tick');
  expect(code).toBe(0);
  const events = stdout.split(/\n(?=\{)/).map((text) => JSON.parse(text));
  expect(events).toHaveLength(2);
  expect(events[1]).toEqual({
    'ietf-restconf:notification': {
      eventTime: '2026-01-01T00:00:02Z',
      'example-jukebox:tick': { n: 2, filter: '/tick' },
    },
  });
});

test('--user with --password-file sends Basic credentials', async () => {
  const file = path.join(dir, 'password');
  writeFileSync(file, 'sécret\n');
  const { code } = await yangkit('--user', 'admin', '--password-file', file, 'sget', LIBRARY);
  expect(code).toBe(0);
  expect(server.seen.at(-1)?.headers.authorization).toBe(
    `Basic ${Buffer.from('admin:sécret').toString('base64')}`,
  );
});

test('an unknown command exits 2 with the usage', async () => {
  const { code, stderr } = await yangkit('frobnicate');
  expect(code).toBe(2);
  expect(stderr).toContain("error: unknown command 'frobnicate'");
  expect(stderr).toContain('usage: yangkit --server URL');
});

test('a missing --server exits 2', async () => {
  let stderr = '';
  const code = await runCli(['sget', '/'], { stdout: () => {}, stderr: (t) => (stderr += t) });
  expect(code).toBe(2);
  expect(stderr).toContain('--server URL is required');
});

test('a --server without http:// or https:// exits 2', async () => {
  let stderr = '';
  const code = await runCli(['--server', server.url.replace('http://', ''), 'sget', LIBRARY], {
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(code).toBe(2);
  expect(stderr).toContain('is not an http:// or https:// URL');
});

test('an unreachable server exits 3', async () => {
  let stderr = '';
  const code = await runCli(['--server', 'http://127.0.0.1:1', 'sget', '/'], {
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(code).toBe(3);
  expect(stderr).toMatch(/^error: GET http:\/\/127\.0\.0\.1:1\/\.well-known\/host-meta failed/);
});

test('a value file that cannot be read exits 2', async () => {
  const { code, stderr } = await yangkit('merge', LIBRARY, '@/nonexistent/value.json');
  expect(code).toBe(2);
  expect(stderr).toContain('cannot read value file');
});

test('--help prints the usage and exits 0', async () => {
  let stdout = '';
  expect(await runCli(['--help'], { stdout: (t) => (stdout += t), stderr: () => {} })).toBe(0);
  expect(stdout).toContain('exit codes: 0 success');
});

test('argument parsing throws only RestconfClientError on any argv', () => {
  const word = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('--server', 'sget', '--depth', '--', '-h', '--insert', 'insert'),
  );
  fc.assert(
    fc.property(fc.array(word, { maxLength: 8 }), (argv) => {
      try {
        parseCliArgs(argv);
      } catch (error) {
        expect(RestconfClientError.isInstance(error)).toBe(true);
      }
    }),
    { numRuns: 2000 },
  );
});
