import { execFile, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { track } from './processes.js';

/**
 * Whether wrk (https://github.com/wg/wrk, `apt-get install wrk`) is on the PATH. The load comes
 * from wrk, a C program, because a Node load generator on a 2-vCPU machine takes a core from the
 * server it measures.
 */
export const wrkAvailable = spawnSync('wrk', ['--version']).error === undefined;

/** One request wrk repeats; with several bodies it cycles through them, one per request. */
export interface WrkRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies?: readonly string[];
}

/** What one wrk run measured. */
export interface WrkResult {
  readonly rps: number;
  readonly p99Ms: number;
  /** Socket errors, timeouts and answers other than 2xx/3xx. */
  readonly failures: number;
}

let scripts = 0;

/** A Lua long string: its level is chosen so that the text cannot close it. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

/** The wrk script of `request`: its method, headers and bodies, and a `done` that prints JSON. */
function script(request: WrkRequest): string {
  const lines = [`wrk.method = ${luaString(request.method)}`];
  for (const [name, value] of Object.entries(request.headers))
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  const bodies = request.bodies ?? [];
  if (bodies.length === 1) lines.push(`wrk.body = ${luaString(bodies[0]!)}`);
  if (bodies.length > 1) {
    lines.push(
      `local bodies = { ${bodies.map(luaString).join(', ')} }`,
      'local n = 0',
      'request = function()',
      '  n = n + 1',
      '  return wrk.format(nil, nil, nil, bodies[n % #bodies + 1])',
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("\\nWRK-RESULT %.0f %.0f %.0f %.0f\\n", summary.requests, summary.duration,',
    '    latency:percentile(99), e.connect + e.read + e.write + e.timeout + e.status))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `wrk -t1 -c<connections> -d<seconds>s` with `request` against `baseUrl`; the timeout is a
 * minute, so a slow server's long answers count as latency rather than as errors.
 */
export async function runWrk(
  baseUrl: string,
  request: WrkRequest,
  seconds: number,
  connections: number,
): Promise<WrkResult> {
  const file = path.join(tmpdir(), `restconf-gateway-wrk-${process.pid}-${scripts++}.lua`);
  writeFileSync(file, script(request));
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '60s', '-s', file];
  const run = promisify(execFile)('wrk', [...args, baseUrl + request.path], { maxBuffer: 1 << 20 });
  track(run.child);
  const { stdout } = await run.finally(() => rmSync(file));
  const m = /^WRK-RESULT (\d+) (\d+) (\d+) (\d+)$/m.exec(stdout);
  if (m === null) throw new Error(`wrk printed no result: ${stdout}`);
  const [requests, durationUs, p99Us, failures] = m.slice(1).map(Number) as [number, number, number, number];
  return { rps: requests / (durationUs / 1e6), p99Ms: p99Us / 1000, failures };
}
