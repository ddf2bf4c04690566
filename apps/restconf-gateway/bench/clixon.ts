import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stopProcess, track } from './processes.js';

/**
 * Clixon (https://github.com/clicon/clixon), the C RESTCONF server the gateway is measured
 * beside: release 7.8 built with native RESTCONF (`./configure --with-restconf=native`) and
 * installed under a prefix, the directory holding `sbin/clixon_backend`, `sbin/clixon_restconf`,
 * `lib/` and `share/clixon/`. `CLIXON_HOME` names that prefix, or a directory with the prefix in
 * `inst/`; unset, the prefix is the one whose `sbin/` on the PATH holds the daemons. Without
 * them the benchmark measures against the floor.
 */
export function clixonPrefix(): string | undefined {
  const home = process.env.CLIXON_HOME;
  const candidates =
    home === undefined || home === ''
      ? (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.dirname(path.resolve(dir)))
      : [home, path.join(home, 'inst')];
  return candidates.find((p) =>
    ['clixon_backend', 'clixon_restconf'].every((d) => existsSync(path.join(p, 'sbin', d))),
  );
}

/** A running Clixon: its RESTCONF base URL and both daemons. */
export interface Clixon {
  readonly url: string;
  /** The backend and the RESTCONF daemon, whose resident sizes add up to Clixon's. */
  readonly pids: readonly number[];
  stop(): Promise<void>;
}

/** A TCP port free on the loopback now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Clixon's configuration: the YANG modules of `yangDir`, the datastores and the backend's socket
 * under `dir`, native RESTCONF over plain HTTP on the loopback without authentication and without
 * dropping privileges (the gateway's set-up in the benchmark: no TLS, no users).
 */
function config(prefix: string, dir: string, yangDir: string, port: number): string {
  const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
  return `<clixon-config xmlns="http://clicon.org/config">
  <CLICON_CONFIGFILE>${dir}/clixon.xml</CLICON_CONFIGFILE>
  <CLICON_FEATURE>clixon-restconf:allow-auth-none</CLICON_FEATURE>
  <CLICON_YANG_DIR>${prefix}/share/clixon</CLICON_YANG_DIR>
  <CLICON_YANG_DIR>${yangDir}</CLICON_YANG_DIR>
  <CLICON_YANG_MAIN_DIR>${yangDir}</CLICON_YANG_MAIN_DIR>
  <CLICON_SOCK_FAMILY>UNIX</CLICON_SOCK_FAMILY>
  <CLICON_SOCK>${dir}/clixon.sock</CLICON_SOCK>
  <CLICON_SOCK_GROUP>${group}</CLICON_SOCK_GROUP>
  <CLICON_BACKEND_PIDFILE>${dir}/backend.pid</CLICON_BACKEND_PIDFILE>
  <CLICON_XMLDB_DIR>${dir}/db</CLICON_XMLDB_DIR>
  <CLICON_RESTCONF_USER>${userInfo().username}</CLICON_RESTCONF_USER>
  <CLICON_RESTCONF_PRIVILEGES>none</CLICON_RESTCONF_PRIVILEGES>
  <CLICON_YANG_LIBRARY>true</CLICON_YANG_LIBRARY>
  <restconf>
    <enable>true</enable>
    <auth-type>none</auth-type>
    <pretty>false</pretty>
    <debug>0</debug>
    <socket><namespace>default</namespace><address>127.0.0.1</address><port>${port}</port><ssl>false</ssl></socket>
  </restconf>
</clixon-config>
`;
}

/** Polls `ready` every 100 ms for at most `seconds`. */
async function waitFor(
  what: string,
  seconds: number,
  ready: () => boolean | Promise<boolean>,
): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} did not come up within ${seconds} s`);
}

/**
 * Starts Clixon's backend (empty datastores) and its native RESTCONF daemon from `prefix`, serving
 * the modules `yangFiles`; their logs go to a temporary directory, named in any start error.
 */
export async function startClixon(prefix: string, yangFiles: readonly string[]): Promise<Clixon> {
  const dir = mkdtempSync(path.join(tmpdir(), 'clixon-bench-'));
  const yangDir = path.join(dir, 'yang');
  mkdirSync(yangDir);
  mkdirSync(path.join(dir, 'db'));
  for (const f of yangFiles) copyFileSync(f, path.join(yangDir, path.basename(f)));
  const port = await freePort();
  const cfg = path.join(dir, 'clixon.xml');
  await writeFile(cfg, config(prefix, dir, yangDir, port));
  const env = { ...process.env, LD_LIBRARY_PATH: path.join(prefix, 'lib') };
  const daemon = (name: string, args: string[]): ChildProcess => {
    const log = openSync(path.join(dir, `${name}.out`), 'a');
    return track(
      spawn(path.join(prefix, 'sbin', name), ['-f', cfg, '-l', `f${dir}/${name}.log`, ...args], {
        env,
        stdio: ['ignore', log, log],
      }),
    );
  };
  const children: ChildProcess[] = [];
  const stopDaemons = async () => {
    // The RESTCONF daemon first: it is the backend's client.
    for (const child of [...children].reverse()) await stopProcess(child);
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    children.push(daemon('clixon_backend', ['-F', '-s', 'init']));
    await waitFor(`clixon_backend (see ${dir})`, 10, () => existsSync(path.join(dir, 'clixon.sock')));
    children.push(daemon('clixon_restconf', []));
    await waitFor(`clixon_restconf (see ${dir})`, 10, () =>
      fetch(`${url}/restconf`).then(
        () => true,
        () => false,
      ),
    );
  } catch (error) {
    // The directory stays, with the daemons' logs.
    await stopDaemons();
    throw error;
  }
  const stop = async () => {
    await stopDaemons();
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, pids: children.map((c) => c.pid!), stop };
}
