import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Every process the benchmark started and that has not exited yet. */
const running = new Set<ChildProcess>();

function endRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}

// However the benchmark ends (an error, a signal, vitest closing its worker), the servers and wrk
// it started end with it rather than outlive it.
process.once('exit', endRunning);
process.once('disconnect', endRunning);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    endRunning();
    process.exit(128 + constants.signals[signal]);
  });

/** Registers a process the benchmark started, to be ended when the benchmark ends. */
export function track<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** A server the benchmark started in a process of its own, and the base URL it printed. */
export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
}

/** The `restconf-gateway` command as it is deployed: its bin, run through its `#!` line (Node's flags). */
const GATEWAY_COMMAND = fileURLToPath(new URL('../bin/restconf-gateway.js', import.meta.url));

/** Starts the `restconf-gateway` command with `args` (see {@link startProcess}). */
export function startGatewayCommand(args: readonly string[]): Promise<Started> {
  return startProcess(GATEWAY_COMMAND, args);
}

/**
 * The Node flags of the command's `#!` line (`#!/usr/bin/env -S node --max-semi-space-size=4`), which
 * the floor runs with too, so that it sizes V8's heap as the gateway does.
 */
function commandNodeFlags(): string[] {
  const shebang = readFileSync(GATEWAY_COMMAND, 'utf8').split('\n', 1)[0]!;
  const words = shebang.split(/\s+/);
  return words.slice(words.indexOf('node') + 1);
}

/** Starts `node <args>` (see {@link startProcess}). */
function startNode(args: readonly string[], input?: string): Promise<Started> {
  return startProcess(process.execPath, args, input);
}

/**
 * Starts `command` with `args` and resolves once it prints its first `http://127.0.0.1:<port>` URL
 * (the gateway logs it to stderr, the floor to stdout). `input`, when given, is written to its stdin.
 */
async function startProcess(command: string, args: readonly string[], input?: string): Promise<Started> {
  const child = track(spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
  child.stdin?.end(input);
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m === null) return;
      // From here on the output (the gateway's audit lines) is read and dropped.
      child.stdout?.off('data', read).resume();
      child.stderr?.off('data', read).resume();
      resolve(m[0]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening: ${out}`)));
  });
  return { child, url };
}

/** Ends a process the benchmark started, and waits for it. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The resident set size of a process now, in KiB (`VmRSS` of /proc/PID/status on Linux). */
export function residentKb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]);
}

/** A captured answer, which the floor server replays byte for byte. */
export interface Captured {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends one request and keeps its answer as the floor will replay it. */
export async function capture(url: string, init: RequestInit): Promise<Captured> {
  const r = await fetch(url, init);
  const body = await r.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of r.headers)
    if (!['transfer-encoding', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
  headers['content-length'] = String(Buffer.byteLength(body));
  return { status: r.status, headers, body };
}

/** The key of a request's captured answer: its method and target, `GET /restconf/data/...`. */
export function floorKey(method: string, target: string): string {
  return `${method} ${target}`;
}

/** The floor: a node:http server, in a process of its own, answering each request as captured. */
const FLOOR = `
const answers = new Map(JSON.parse(require('node:fs').readFileSync(0, 'utf8')));
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const c = answers.get(req.method + ' ' + req.url);
    if (c === undefined) res.writeHead(404).end();
    else res.writeHead(c.status, c.headers).end(c.body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

/**
 * Starts the floor: a bare node:http server, with the command's Node flags, that answers each
 * request with the answer captured for it (keyed by {@link floorKey}), the fastest any Node server
 * can answer the same bytes, with about the least memory one holds while doing so.
 */
export function startFloor(answers: ReadonlyMap<string, Captured>): Promise<Started> {
  return startNode([...commandNodeFlags(), '-e', FLOOR], JSON.stringify([...answers]));
}
