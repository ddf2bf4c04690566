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
}

/** Spawns `node dist/cli.js ...args --port=0` and resolves once the log names the URL it serves. */
export function spawnGateway(args: readonly string[], deadlineMs = 30_000): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [CLI, '--port=0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1));
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not start within ${deadlineMs} ms: ${log}`));
    }, deadlineMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const m = /serving RESTCONF at (http\S+?)\/restconf/.exec(log);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: m[1], exited, stderr: () => log });
      }
    });
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited (${how}) before serving: ${log}`));
    });
  });
}
