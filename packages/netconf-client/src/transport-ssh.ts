import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Client, ClientChannel, ConnectConfig } from 'ssh2';
import { connectStream, type NetconfSession } from './client.js';
import { NetconfError } from './errors.js';
import { checkHostKey, fingerprintSha256, type HostKeyCheck } from './host-key.js';
import type { SessionOptions } from './session.js';

/** Where and how to reach a NETCONF server over SSH (RFC 6242). */
export interface SshOptions {
  host: string;
  /** Default 830, the IANA port for NETCONF over SSH (RFC 6242 section 3). */
  port?: number;
  username: string;
  password?: string;
  /** A private key (OpenSSH or PEM); `passphrase` decrypts it. */
  privateKey?: string | Buffer;
  passphrase?: string;
  /** An ssh-agent socket path (e.g. `process.env.SSH_AUTH_SOCK`). */
  agent?: string;
  /**
   * Host key check; defaults to `~/.ssh/known_hosts`. Unknown keys are refused unless
   * `'accept-any'` is given explicitly.
   */
  hostKey?: HostKeyCheck;
  /** Called with the fingerprint (`SHA256:...`) and blob of the host key the server presented. */
  onHostKey?: (fingerprint: string, keyBlob: Buffer) => void;
  /** Milliseconds for TCP connect plus SSH handshake and authentication (default 20 000). */
  connectTimeout?: number;
  /** SSH keepalive interval in milliseconds (default 0: off). */
  keepaliveInterval?: number;
}

/** Events of an {@link SshConnection}. */
export interface SshConnectionEvents {
  /** The SSH connection ended; `error` says why when it was not closed on purpose. */
  close: [error: NetconfError | undefined];
}

async function resolveHostKeyCheck(check: HostKeyCheck | undefined) {
  const policy = check ?? { knownHostsFile: join(homedir(), '.ssh', 'known_hosts') };
  if (policy === 'accept-any' || !('knownHostsFile' in policy)) return policy;
  let text = '';
  try {
    text = await readFile(policy.knownHostsFile, 'utf8');
  } catch (error) {
    // A missing file means no host is known: every key is then refused as unknown.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new NetconfError('INVALID_ARGUMENT', `cannot read ${policy.knownHostsFile}`, { cause: error });
    }
  }
  return { knownHosts: text };
}

/**
 * One SSH connection on which NETCONF sessions open as `netconf` subsystem channels
 * (RFC 6242 section 3): several sessions share one TCP connection and one SSH handshake.
 */
export class SshConnection extends EventEmitter<SshConnectionEvents> {
  #client: Client;
  #sessions = new Set<NetconfSession>();
  #closed = false;
  #ended = false;

  private constructor(client: Client) {
    super();
    this.#client = client;
  }

  /** Opens and authenticates an SSH connection. */
  static async connect(options: SshOptions): Promise<SshConnection> {
    const port = options.port ?? 830;
    const check = await resolveHostKeyCheck(options.hostKey);
    // Loaded on the first connection: ssh2's modules cost memory and start-up time that a process
    // that never connects over SSH should not pay.
    const { Client } = (await import('ssh2')).default;
    const client = new Client();
    let hostKeyError: NetconfError | undefined;
    const config: ConnectConfig = {
      host: options.host,
      port,
      username: options.username,
      readyTimeout: options.connectTimeout ?? 20_000,
      keepaliveInterval: options.keepaliveInterval ?? 0,
      hostVerifier: (key: Buffer) => {
        options.onHostKey?.(fingerprintSha256(key), key);
        hostKeyError = checkHostKey(check, options.host, port, key);
        return hostKeyError === undefined;
      },
    };
    if (options.password !== undefined) {
      config.password = options.password;
      config.tryKeyboard = true;
    }
    if (options.privateKey !== undefined) config.privateKey = options.privateKey;
    if (options.passphrase !== undefined) config.passphrase = options.passphrase;
    if (options.agent !== undefined) config.agent = options.agent;
    // Servers that only offer keyboard-interactive get the password for every prompt.
    client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) =>
      finish(prompts.map(() => options.password ?? '')),
    );
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      // Stays attached after a failure: ssh2 may emit more than one error for one lost socket
      // (`read ECONNRESET`, then "Connection lost before handshake"), and an 'error' event without
      // a listener would end the process.
      const onError = (error: Error & { level?: string }) => {
        if (failed) return;
        failed = true;
        client.removeListener('ready', onReady);
        client.destroy();
        if (hostKeyError) return reject(hostKeyError);
        const code = error.level === 'client-authentication' ? 'AUTH_FAILED' : 'CONNECT_FAILED';
        reject(new NetconfError(code, `ssh ${options.host}:${port}: ${error.message}`, { cause: error }));
      };
      const onReady = () => {
        client.removeListener('error', onError);
        resolve();
      };
      client.on('error', onError);
      client.once('ready', onReady);
      try {
        client.connect(config);
        // Small NETCONF messages must not wait for Nagle's algorithm and the peer's delayed ACK.
        client.setNoDelay(true);
      } catch (error) {
        // ssh2 throws synchronously for options it cannot use, such as an unparsable private key.
        client.removeListener('error', onError);
        client.removeListener('ready', onReady);
        client.destroy();
        const message = error instanceof Error ? error.message : String(error);
        reject(new NetconfError('INVALID_ARGUMENT', `ssh options: ${message}`, { cause: error }));
      }
    });
    const connection = new SshConnection(client);
    client.on('error', (error) => connection.#lost(error));
    client.on('close', () => connection.#lost());
    client.on('end', () => connection.#lost());
    return connection;
  }

  /** True once the SSH connection has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** NETCONF sessions currently open on this connection. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Opens a `netconf` subsystem channel and runs the hello exchange on it. */
  async openSession(options: SessionOptions = {}): Promise<NetconfSession> {
    if (this.#closed) throw new NetconfError('SESSION_CLOSED', 'the SSH connection is closed');
    const channel = await new Promise<ClientChannel>((resolve, reject) => {
      const refused = (error: Error) =>
        reject(
          new NetconfError('CONNECT_FAILED', `netconf subsystem refused: ${error.message}`, { cause: error }),
        );
      // ssh2 throws at once ("Not connected") when the socket has just gone away.
      try {
        this.#client.subsys('netconf', (error, stream) => {
          if (error) refused(error);
          else resolve(stream);
        });
      } catch (error) {
        refused(error as Error);
      }
    });
    // ssh2 gives stderr as a separate stream; the subsystem's diagnostics are not protocol data.
    channel.stderr.resume();
    let session: NetconfSession;
    try {
      session = await connectStream(channel, options);
    } catch (error) {
      // A channel closed before any hello means the server refused the session (e.g. netconfd
      // only serves the ports it lists in --port): a connect failure, not a lost session.
      if (NetconfError.isInstance(error) && error.code === 'SESSION_CLOSED') {
        throw new NetconfError('CONNECT_FAILED', 'the server closed the netconf channel before its <hello>', {
          cause: error,
        });
      }
      throw error;
    }
    this.#sessions.add(session);
    session.once('close', () => this.#sessions.delete(session));
    return session;
  }

  /** Closes every session politely (`<close-session>`), then the SSH connection. */
  async close(): Promise<void> {
    await Promise.all([...this.#sessions].map((s) => s.close()));
    this.#closed = true;
    this.#client.end();
  }

  /** Drops the SSH connection at once; sessions end with `transport-closed`. */
  destroy(): void {
    this.#closed = true;
    this.#client.destroy();
  }

  #lost(error?: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    const onPurpose = this.#closed;
    this.#closed = true;
    const failure = onPurpose
      ? undefined
      : new NetconfError('SESSION_CLOSED', 'the SSH connection was lost', { cause: error });
    // In-flight RPCs fail at once rather than waiting for their timeouts.
    for (const session of this.#sessions)
      session.destroy(failure, onPurpose ? 'destroyed' : 'transport-closed');
    this.emit('close', failure);
  }
}

/**
 * Connects over SSH and opens one NETCONF session; closing that session also closes the SSH
 * connection.
 */
export async function connectSsh(options: SshOptions & SessionOptions): Promise<NetconfSession> {
  const connection = await SshConnection.connect(options);
  try {
    const session = await connection.openSession(options);
    session.once('close', () => connection.destroy());
    return session;
  } catch (error) {
    connection.destroy();
    throw error;
  }
}
