import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import type { AuthContext, Connection } from 'ssh2';
import { NetconfServerError } from './errors.js';
import type { NetconfServer } from './server.js';

/**
 * ssh2, loaded when a listener starts: its modules (and the 16 MB heap its poly1305 module
 * reserves) cost memory and start-up time that a process serving no SSH should not pay. It is
 * CommonJS and Node's ESM loader sees only some of its names (not Server or utils), so they are
 * taken from its default export.
 */
async function loadSsh2(): Promise<typeof import('ssh2')> {
  return (await import('ssh2')).default;
}

/** A user name and password accepted by the SSH server. */
export interface SshUser {
  readonly username: string;
  readonly password: string;
}

/** Decides a password login; resolve true to accept. */
export type SshAuthenticate = (username: string, password: string) => boolean | Promise<boolean>;

/** Options of {@link startSshServer}. */
export interface SshServerOptions {
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 830, RFC 6242 section 3; 0 picks a free port). */
  readonly port?: number;
  /** A private host key (PEM or OpenSSH format). */
  readonly hostKey?: string | Buffer;
  /** A file holding the host key; an ed25519 key is generated into it on first start (mode 0600). */
  readonly hostKeyFile?: string;
  /** Accepted users (password authentication and keyboard-interactive). */
  readonly users?: readonly SshUser[];
  /** Or a callback deciding each login. */
  readonly authenticate?: SshAuthenticate;
}

/** A running SSH listener. */
export interface SshListener {
  /** The bound address and port. */
  readonly address: AddressInfo;
  /** Stops listening and ends every SSH connection. */
  close(): Promise<void>;
}

function loadHostKey(options: SshServerOptions, utils: typeof import('ssh2').utils): string | Buffer {
  if (options.hostKey !== undefined) return options.hostKey;
  try {
    if (options.hostKeyFile !== undefined) {
      if (existsSync(options.hostKeyFile)) return readFileSync(options.hostKeyFile);
      const key = newHostKey(utils);
      writeFileSync(options.hostKeyFile, key, { mode: 0o600 });
      return key;
    }
  } catch (error) {
    throw new NetconfServerError('HOST_KEY', `cannot read or create host key ${options.hostKeyFile}`, {
      cause: error,
    });
  }
  // No key given: an ephemeral key for this process only.
  return newHostKey(utils);
}

/**
 * A new ed25519 host key that ssh2 can read back: about 1 in 256 pairs from
 * `utils.generateKeyPairSync('ed25519')` lose a leading zero byte of the public key and fail to
 * parse (mscdex/ssh2 issues 1390 and 1513), which would leave a host key file the server cannot
 * start with; such a pair is drawn again.
 */
function newHostKey(utils: typeof import('ssh2').utils): string {
  for (;;) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error))
      return pair.private;
  }
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Serves the engine over SSH (RFC 6242): each SSH channel that asks for the `netconf` subsystem
 * becomes one NETCONF session of the authenticated user. Several channels may share one SSH
 * connection.
 */
export async function startSshServer(engine: NetconfServer, options: SshServerOptions): Promise<SshListener> {
  if (!options.users && !options.authenticate)
    throw new NetconfServerError('INVALID_OPTION', 'startSshServer needs users or authenticate');
  const { Server, utils } = await loadSsh2();
  const hostKey = loadHostKey(options, utils);
  const check: SshAuthenticate =
    options.authenticate ??
    ((u, p) => (options.users ?? []).some((x) => equal(x.username, u) && equal(x.password, p)));
  const connections = new Set<Connection>();
  const ssh = new Server({ hostKeys: [hostKey] }, (conn, info) => {
    connections.add(conn);
    let username = '';
    const peer = `${info.ip}:${info.port}`;
    conn.on('authentication', (ctx: AuthContext) => {
      const decide = (password: string): void => {
        Promise.resolve(check(ctx.username, password)).then(
          (ok) => {
            if (ok) {
              username = ctx.username;
              ctx.accept();
            } else ctx.reject(['password', 'keyboard-interactive']);
          },
          () => ctx.reject(['password', 'keyboard-interactive']),
        );
      };
      if (ctx.method === 'password') decide(ctx.password);
      else if (ctx.method === 'keyboard-interactive') {
        ctx.prompt([{ prompt: 'Password: ', echo: false }], (answers) => decide(answers[0] ?? ''));
      } else ctx.reject(['password', 'keyboard-interactive']);
    });
    conn.on('ready', () => {
      conn.on('session', (accept) => {
        const session = accept();
        session.on('subsystem', (acceptSubsystem, reject, sub) => {
          if (sub.name !== 'netconf') {
            reject();
            return;
          }
          clearTimeout(waiting.get(peer));
          const channel = acceptSubsystem();
          engine.connect(channel, { username, sourceHost: info.ip, transport: 'netconf-ssh' });
        });
      });
    });
    conn.on('error', () => conn.end());
    conn.on('close', () => connections.delete(conn));
  });
  // The hello timeout covers the SSH steps too: a TCP connection that has not opened a netconf
  // subsystem in time (silent, no login, no channel) is dropped; the session's own hello wait
  // follows. The listener is ours so that even a peer that never speaks SSH is timed.
  const waiting = new Map<string, NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const tcp = createServer((socket) => {
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    sockets.add(socket);
    if (engine.helloTimeoutMs > 0) {
      const timer = setTimeout(() => socket.destroy(), engine.helloTimeoutMs);
      timer.unref();
      waiting.set(peer, timer);
    }
    socket.once('close', () => {
      clearTimeout(waiting.get(peer));
      waiting.delete(peer);
      sockets.delete(socket);
    });
    ssh.injectSocket(socket);
  });
  return new Promise((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port ?? 830, options.host ?? '127.0.0.1', () => {
      tcp.off('error', reject);
      resolve({
        address: tcp.address() as AddressInfo,
        close: () =>
          new Promise<void>((done) => {
            for (const c of connections) c.end();
            // Connections still before their netconf channel (or before SSH at all) are dropped.
            for (const socket of sockets)
              if (waiting.has(`${socket.remoteAddress}:${socket.remotePort}`)) socket.destroy();
            tcp.close(() => done());
          }),
      });
    });
  });
}
