import type { AddressInfo } from 'node:net';
import { type Connection, Server, utils } from 'ssh2';
import { attachFakeServer, type FakeServerOptions } from './helpers.js';

/** An in-process SSH server offering a scripted `netconf` subsystem, for transport and pool tests. */
export interface TestSshServer {
  port: number;
  /** The server's host key in OpenSSH public key form (`ssh-ed25519 AAAA...`). */
  publicKey: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** NETCONF sessions (subsystem channels) opened so far. */
  sessions: number;
  /** Drops every client connection at once, as a crashed server would. */
  dropAll(): void;
  close(): Promise<void>;
}

/**
 * An ed25519 host key pair that ssh2 can read back: about 1 in 256 pairs from
 * `utils.generateKeyPairSync('ed25519')` lose a leading zero byte and fail to parse
 * (mscdex/ssh2 issues 1390 and 1513), so draw again until both halves parse.
 */
function hostKeyPair(): { private: string; public: string } {
  for (;;) {
    const keys = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(keys.private) instanceof Error) && !(utils.parseKey(keys.public) instanceof Error))
      return keys;
  }
}

export async function startSshServer(
  options: { password?: string; netconf?: FakeServerOptions } = {},
): Promise<TestSshServer> {
  const keys = hostKeyPair();
  const clients = new Set<Connection>();
  let nextSessionId = 1;
  const state = { connections: 0, sessions: 0 };
  const server = new Server({ hostKeys: [keys.private] }, (client) => {
    state.connections++;
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.password === (options.password ?? 'secret')) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('session', (accept) => {
      const session = accept();
      session.on('subsystem', (acceptSubsystem, reject, info) => {
        if (info.name !== 'netconf') return reject();
        const channel = acceptSubsystem();
        state.sessions++;
        attachFakeServer(channel, { sessionId: nextSessionId++, ...options.netconf });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    publicKey: keys.public,
    get connections() {
      return state.connections;
    },
    get sessions() {
      return state.sessions;
    },
    dropAll() {
      for (const client of clients) client.end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.end();
        server.close(() => resolve());
      }),
  };
}
