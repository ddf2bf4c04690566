import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The command users run, as a child process: `node apps/restconf-gateway/dist/cli.js`.
const APP = path.resolve(__dirname, '../../../apps/restconf-gateway');
const CLI = path.join(APP, 'dist', 'cli.js');

beforeAll(() => {
  // turbo builds the app before this suite; a direct `vitest run` builds it here.
  if (!existsSync(CLI)) execFileSync('pnpm', ['run', 'build'], { cwd: APP, stdio: 'ignore' });
}, 120_000);

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
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
});

describe('restconf-gateway serving', () => {
  let child: ChildProcess;
  let url = '';
  let stderr = '';
  beforeAll(async () => {
    child = spawn(process.execPath, [CLI, '--port=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        stderr += chunk;
        const m = /serving RESTCONF at (http:\/\/[\d.]+:\d+)\/restconf/.exec(stderr);
        if (m !== null && stderr.includes('no authentication')) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
  }, 60_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  test('says at start that it runs without authentication', () => {
    expect(stderr).toContain('no authentication');
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

describe('restconf-gateway stopping', () => {
  test('exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, '--port=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
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
