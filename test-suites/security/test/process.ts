import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command-line entry of the gateway (turbo builds it before this suite's tests). */
export const CLI = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../apps/restconf-gateway/dist/cli.js',
);

/** A gateway running as its own process. */
export interface GatewayProcess {
  readonly child: ChildProcess;
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Resolves with the exit code, or the signal's name, once the process is gone. */
  readonly exited: Promise<number | string>;
  /** Everything written to stderr so far (the pino log). */
  stderr(): string;
  /** Resolves once stderr matches `pattern`; rejects after `deadlineMs` or when the process exits first. */
  waitForLog(pattern: RegExp, deadlineMs?: number): Promise<void>;
}

/** How to start a gateway process. */
export interface SpawnOptions {
  /** Variables added to this process's environment (passwords: NETCONF_PASSWORD, ...). */
  readonly env?: Readonly<Record<string, string>>;
  /** How long the start may take before it counts as failed (default 30 s). */
  readonly deadlineMs?: number;
  /** Node's own flags, before the script (`--log-maps`, say). */
  readonly nodeFlags?: readonly string[];
}

/** Spawns `node dist/cli.js ...args --port=0` and resolves once the log names the URL it serves. */
export function spawnGateway(args: readonly string[], options: SpawnOptions = {}): Promise<GatewayProcess> {
  const deadlineMs = options.deadlineMs ?? 30_000;
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), CLI, '--port=0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let log = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1));
  });
  const waitForLog = (pattern: RegExp, within = 15_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(log)) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no log line matching ${pattern} within ${within} ms: ${log}`));
      }, within);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        // Whatever the process wrote before it ended has been read by now.
        setImmediate(() => {
          if (!waiters.has(check)) return;
          done();
          if (pattern.test(log)) resolve();
          else reject(new Error(`the gateway exited before logging ${pattern}: ${log}`));
        });
      });
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not start within ${deadlineMs} ms: ${log}`));
    }, deadlineMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      for (const check of [...waiters]) check();
      const m = /serving RESTCONF at (http\S+?)\/restconf/.exec(log);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: m[1], exited, stderr: () => log, waitForLog });
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited (${how}) before serving: ${log}`));
    });
  });
}

/** Runs `node cli.js add-user ...args` with `password` on stdin; resolves with the exit code and output. */
export function addUser(
  args: readonly string[],
  password: string,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'add-user', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
    child.stdin.end(`${password}\n`);
  });
}
