import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The command users run, as a child process: the package's bin, through its `#!` line (which sets
// Node's flags), running the built `dist/cli.js`.
const APP = path.resolve(__dirname, '../../../apps/restconf-gateway');
const CLI = path.join(APP, 'dist', 'cli.js');
const COMMAND = path.join(APP, 'bin', 'restconf-gateway.js');

beforeAll(() => {
  // turbo builds the app before this suite; a direct `vitest run` builds it here.
  if (!existsSync(CLI)) execFileSync('pnpm', ['run', 'build'], { cwd: APP, stdio: 'ignore' });
}, 120_000);

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(COMMAND, args, { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('restconf-gateway command', () => {
  test('--help documents the flags and exits 0', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--restconf-server-url=URL');
    expect(r.stdout).toContain('--netconf=ssh://USER@HOST:PORT');
  });

  test('an unknown flag exits 2 with a message on stderr', () => {
    const r = run(['--colour=blue']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown flag --colour');
  });

  test('a bad value exits 2', () => {
    expect(run(['--restconf-default-encoding=yaml']).status).toBe(2);
  });

  test('a log format other than json or pretty exits 2', () => {
    const r = run(['--log-format=xml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--log-format takes one of json, pretty');
  });
});

/**
 * Starts the command with `args`; resolves once it serves and has logged `ready`, with its base URL
 * and log so far.
 */
function serve(
  args: string[],
  ready = 'no authentication',
): { child: ChildProcess; started: Promise<{ url: string; stderr: string }> } {
  const child = spawn(COMMAND, ['--port=0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const started = new Promise<{ url: string; stderr: string }>((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const m = /serving RESTCONF at (http:\/\/[\d.]+:\d+)\/restconf/.exec(stderr);
      if (m !== null && stderr.includes(ready)) resolve({ url: m[1]!, stderr });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { child, started };
}

describe('restconf-gateway serving', () => {
  let child: ChildProcess;
  let url = '';
  let stderr = '';
  beforeAll(async () => {
    const server = serve([], 'try: curl');
    child = server.child;
    ({ url, stderr } = await server.started);
  }, 60_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  test('says at start that it runs without authentication', () => {
    expect(stderr).toContain('no authentication');
  });

  test('logs JSON lines when stderr is not a terminal', () => {
    const lines = stderr.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain(
      'no authentication: every client that can reach 127.0.0.1 may read and edit',
    );
  });

  test('names a URL to try first, which answers with the sample jukebox', async () => {
    const tryLine = /try: curl -s (http:\S+)"/.exec(stderr);
    expect(tryLine).not.toBeNull();
    const r = await fetch(tryLine![1]!);
    expect(r.status).toBe(200);
    expect(JSON.stringify(await r.json())).toContain('Wasting Light');
  });

  test('serves the sample jukebox with no flags but the port', async () => {
    const r = await fetch(
      `${url}/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light/year`,
    );
    expect(await r.json()).toEqual({ 'example-jukebox:year': 2011 });
  });

  test('SIGHUP ends an open event stream cleanly and exits 0', async () => {
    const stream = await fetch(`${url}/restconf/streams/json-NETCONF`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const body = stream.text();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGHUP');
    expect(await exited).toBe(0);
    await expect(body).resolves.toBeTypeOf('string');
  });
});

describe('--initial-data', () => {
  const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
  const JB = 'http://example.com/ns/example-jukebox';
  test.each([
    [
      'in the NETCONF base namespace',
      `<config xmlns="${NC}"><jukebox xmlns="${JB}"><playlist><name>Wrapped</name></playlist></jukebox></config>`,
    ],
    [
      'without a namespace',
      `<config><jukebox xmlns="${JB}"><playlist><name>Wrapped</name></playlist></jukebox></config>`,
    ],
  ])(
    'loads a file that is one NETCONF <config> element %s',
    async (_, xml) => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-')), 'initial.xml');
      writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`);
      const { child, started } = serve(['--module=example-jukebox', `--initial-data=${file}`]);
      try {
        const { url } = await started;
        const r = await fetch(`${url}/restconf/data/example-jukebox:jukebox/playlist=Wrapped`);
        expect(r.status).toBe(200);
        expect(await r.json()).toEqual({ 'example-jukebox:playlist': [{ name: 'Wrapped' }] });
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );
});

describe('restconf-gateway --log-format=pretty', () => {
  test('logs text lines: time, level and message', async () => {
    const { child, started } = serve(['--log-format=pretty'], 'try: curl');
    const { stderr } = await started;
    child.kill('SIGKILL');
    expect(stderr).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: serving RESTCONF at http:\/\/127\.0\.0\.1:\d+\/restconf /m,
    );
    expect(stderr).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: no authentication/m);
    expect(stderr).not.toContain('{"level"');
  }, 60_000);
});

describe('restconf-gateway stopping', () => {
  test('exits 0 on SIGTERM', async () => {
    const child = spawn(COMMAND, ['--port=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk: string) => {
        stderr += chunk;
        if (stderr.includes('serving RESTCONF at')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
