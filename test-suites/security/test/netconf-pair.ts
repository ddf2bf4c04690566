import { createServer } from 'node:net';
import path from 'node:path';
import { SshConnection } from '@yangkit/netconf-client';
import { DATA_JSON } from './harness.js';
import { type GatewayProcess, spawnGateway } from './process.js';

/** The SSH user and password of the killable NETCONF server. */
export const NETCONF_USER = 'faults';
const NETCONF_PASSWORD = 'faults-password';

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A NETCONF server in a process of its own that can be SIGKILLed and started again on the same
 * port, with the same SSH host key and datastore: the gateway's embedded @yangkit/netconf-server
 * with the example modules, served over SSH by `--netconf-ssh-listen`, its startup datastore (and
 * host key) in `dir`.
 */
export class KillableNetconfServer {
  process: GatewayProcess | undefined;
  readonly port: number;
  readonly #startup: string;

  private constructor(dir: string, port: number) {
    this.#startup = path.join(dir, 'netconf-startup.json');
    this.port = port;
  }

  /** Starts the server on a free port. */
  static async start(dir: string): Promise<KillableNetconfServer> {
    const server = new KillableNetconfServer(dir, await freePort());
    await server.restart();
    return server;
  }

  /** Starts the process (again); resolves once it serves NETCONF over SSH. */
  async restart(): Promise<void> {
    this.process = await spawnGateway(
      [
        `--startup-file=${this.#startup}`,
        `--netconf-ssh-listen=127.0.0.1:${this.port}`,
        `--netconf-ssh-user=${NETCONF_USER}`,
        '--log-level=info',
      ],
      { env: { NETCONF_SSH_PASSWORD: NETCONF_PASSWORD } },
    );
    await this.process.waitForLog(/serving NETCONF over SSH/);
  }

  /** SIGKILLs the process: no reply, no close-session, the TCP connections reset by the kernel. */
  async kill(): Promise<void> {
    this.process?.child.kill('SIGKILL');
    await this.process?.exited;
  }

  /** The SHA256 fingerprint of the SSH host key, read from a handshake. */
  async hostKey(): Promise<string> {
    let fingerprint: string | undefined;
    const c = await SshConnection.connect({
      host: '127.0.0.1',
      port: this.port,
      username: NETCONF_USER,
      password: NETCONF_PASSWORD,
      hostKey: 'accept-any',
      onHostKey: (fp) => {
        fingerprint = fp;
      },
    });
    c.destroy();
    if (fingerprint === undefined) throw new Error('no host key was presented');
    return fingerprint;
  }

  /**
   * The NETCONF sessions of {@link NETCONF_USER} and the `dropped-sessions` counter (RFC 6022
   * section 2.1.4: sessions that ended without close-session), read from the server's own
   * ietf-netconf-monitoring over its RESTCONF port.
   */
  async monitoring(): Promise<{ sessions: number; dropped: number }> {
    const r = await fetch(`${this.process!.url}/restconf/data/ietf-netconf-monitoring:netconf-state`, {
      headers: { Accept: DATA_JSON },
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await r.json()) as {
      'ietf-netconf-monitoring:netconf-state': {
        sessions?: { session?: { username: string }[] };
        statistics: { 'dropped-sessions': number };
      };
    };
    const state = body['ietf-netconf-monitoring:netconf-state'];
    return {
      sessions: (state.sessions?.session ?? []).filter((s) => s.username === NETCONF_USER).length,
      dropped: Number(state.statistics['dropped-sessions']),
    };
  }

  /** Spawns a gateway whose backend is this server (`--netconf ssh://...`, host key pinned). */
  async gateway(extra: readonly string[] = []): Promise<GatewayProcess> {
    return spawnGateway(
      [
        `--netconf=ssh://${NETCONF_USER}@127.0.0.1:${this.port}`,
        `--netconf-host-key=${await this.hostKey()}`,
        '--log-level=info',
        ...extra,
      ],
      { env: { NETCONF_PASSWORD } },
    );
  }
}
