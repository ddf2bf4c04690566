import { mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NetconfError } from '../src/errors.js';
import { fingerprintSha256 } from '../src/host-key.js';
import { connectSsh, SshConnection } from '../src/transport-ssh.js';
import { startSshServer, type TestSshServer } from './ssh-server.js';

let server: TestSshServer;
let fingerprint: string;
const base = () => ({ host: '127.0.0.1', port: server.port, username: 'u', password: 'secret' });

beforeAll(async () => {
  server = await startSshServer({ netconf: { handler: () => '<data><x xmlns="urn:x">1</x></data>' } });
  fingerprint = fingerprintSha256(Buffer.from(server.publicKey.split(' ')[1]!, 'base64'));
});
afterAll(() => server.close());

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as NetconfError).code;
  }
  return undefined;
}

describe('host key verification', () => {
  test('accepts the pinned SHA256 fingerprint', async () => {
    const session = await connectSsh({ ...base(), hostKey: { fingerprint } });
    expect(await session.get()).toBe('<x xmlns="urn:x">1</x>');
    await session.close();
  });

  test('refuses a wrong pinned fingerprint with HOST_KEY_MISMATCH', async () => {
    const wrong = `SHA256:${Buffer.alloc(32).toString('base64').replace(/=+$/, '')}`;
    expect(await code(connectSsh({ ...base(), hostKey: { fingerprint: wrong } }))).toBe('HOST_KEY_MISMATCH');
  });

  test('accepts a key listed in a known_hosts file under [host]:port', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ncc-known-'));
    const file = path.join(dir, 'known_hosts');
    writeFileSync(file, `[127.0.0.1]:${server.port} ${server.publicKey}\n`);
    const session = await connectSsh({ ...base(), hostKey: { knownHostsFile: file } });
    expect(session.sessionId).toBeGreaterThan(0);
    await session.close();
  });

  test('refuses a host missing from known_hosts with HOST_KEY_UNKNOWN', async () => {
    const known = `otherhost ${server.publicKey}\n`;
    expect(await code(connectSsh({ ...base(), hostKey: { knownHosts: known } }))).toBe('HOST_KEY_UNKNOWN');
  });

  test('refuses an unknown host by default when no known_hosts file exists', async () => {
    const previous = process.env.HOME;
    process.env.HOME = mkdtempSync(path.join(tmpdir(), 'ncc-home-'));
    try {
      expect(await code(connectSsh(base()))).toBe('HOST_KEY_UNKNOWN');
    } finally {
      process.env.HOME = previous;
    }
  });

  test('reports the presented fingerprint to onHostKey', async () => {
    const seen: string[] = [];
    const session = await connectSsh({ ...base(), hostKey: 'accept-any', onHostKey: (f) => seen.push(f) });
    await session.close();
    expect(seen).toEqual([fingerprint]);
  });
});

describe('ssh transport', () => {
  test('refuses a wrong password with AUTH_FAILED', async () => {
    expect(await code(connectSsh({ ...base(), password: 'wrong', hostKey: 'accept-any' }))).toBe(
      'AUTH_FAILED',
    );
  });

  test('reports a closed port as CONNECT_FAILED', async () => {
    const closed = await startSshServer();
    const port = closed.port;
    await closed.close();
    expect(await code(connectSsh({ ...base(), port, hostKey: 'accept-any' }))).toBe('CONNECT_FAILED');
  });

  test('reports a server that resets the connection during the handshake as CONNECT_FAILED, once', async () => {
    // A server killed while a client dials it: the socket is reset before the SSH handshake ends.
    const resets: Promise<void>[] = [];
    const tcp = createServer((socket) => {
      resets.push(new Promise((resolve) => socket.once('close', () => resolve())));
      socket.once('data', () => socket.resetAndDestroy());
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const port = (tcp.address() as AddressInfo).port;
      expect(await code(connectSsh({ ...base(), port, hostKey: 'accept-any' }))).toBe('CONNECT_FAILED');
      await Promise.all(resets);
      // ssh2 reports the lost socket a second time on its close event; nothing may escape.
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await new Promise((r) => tcp.close(r));
    }
  });

  test('opens several NETCONF sessions as channels of one SSH connection', async () => {
    const before = server.connections;
    const connection = await SshConnection.connect({ ...base(), hostKey: { fingerprint } });
    const sessions = await Promise.all([1, 2, 3].map(() => connection.openSession()));
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(3);
    expect(server.connections - before).toBe(1);
    expect(connection.sessionCount).toBe(3);
    await connection.close();
    expect(connection.closed).toBe(true);
  });

  test('fails in-flight RPCs with SESSION_CLOSED when the connection drops', async () => {
    const silent = await startSshServer({ netconf: { handler: () => undefined } });
    try {
      const connection = await SshConnection.connect({ ...base(), port: silent.port, hostKey: 'accept-any' });
      const session = await connection.openSession();
      const pending = session.get();
      const lost = new Promise((resolve) => connection.once('close', resolve));
      silent.dropAll();
      expect(await code(pending)).toBe('SESSION_CLOSED');
      expect(((await lost) as NetconfError).code).toBe('SESSION_CLOSED');
    } finally {
      await silent.close();
    }
  });
});

test('reports a netconf channel closed before the hello as CONNECT_FAILED', async () => {
  const mute = await startSshServer({ netconf: { hello: '' } });
  try {
    const connection = await SshConnection.connect({ ...base(), port: mute.port, hostKey: 'accept-any' });
    const opening = connection.openSession({ helloTimeout: 5_000 });
    await new Promise((r) => setTimeout(r, 100));
    mute.dropAll();
    expect(await code(opening)).toBe('CONNECT_FAILED');
  } finally {
    await mute.close();
  }
});

test('refuses an unparsable private key with INVALID_ARGUMENT', async () => {
  expect(await code(connectSsh({ ...base(), privateKey: 'not a key', hostKey: 'accept-any' }))).toBe(
    'INVALID_ARGUMENT',
  );
});
