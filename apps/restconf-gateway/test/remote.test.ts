import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SshConnection } from '@yangkit/netconf-client';
import { type SshListener, startSshServer } from '@yangkit/netconf-server';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';

const silent = { logger: pino({ level: 'silent' }) };
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const USER = 'ops';
const PASSWORD = 'pw';

/** The fingerprint of the host key an SSH server presents. */
async function hostKeyOf(port: number): Promise<string> {
  let fingerprint = '';
  const c = await SshConnection.connect({
    host: '127.0.0.1',
    port,
    username: USER,
    password: PASSWORD,
    hostKey: 'accept-any',
    onHostKey: (fp) => {
      fingerprint = fp;
    },
  });
  c.destroy();
  return fingerprint;
}

// A NETCONF server (an embedded gateway's NETCONF/SSH listener) whose SSH listener goes away
// and comes back on the same port with the same host key, and a gateway in front of it.
let server: Gateway;
let front: Gateway;
let hostKeyFile: string;
let port: number;
beforeEach(async () => {
  const startupFile = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-remote-')), 'startup.json');
  hostKeyFile = `${startupFile}.ssh-host-key`;
  server = await startGateway(
    {
      port: 0,
      startupFile,
      netconfSshListen: '127.0.0.1:0',
      netconfSshUser: USER,
      netconfSshPassword: PASSWORD,
    },
    silent,
  );
  port = server.backend.sshListener!.address.port;
  front = await startGateway(
    {
      port: 0,
      netconf: `ssh://${USER}@127.0.0.1:${port}`,
      netconfPassword: PASSWORD,
      netconfHostKey: [await hostKeyOf(port)],
    },
    silent,
  );
});
afterEach(async () => {
  await front.close();
  await server.close();
});

/** Ends every SSH connection of the NETCONF server, stops listening, and waits until the gateway saw it. */
async function stopListening(): Promise<void> {
  await server.backend.sshListener!.close();
  await expect.poll(() => front.backend.backend.stats().sessions, { timeout: 5_000, interval: 10 }).toBe(0);
}

/** Listens again on the same port with the same host key. */
function listenAgain(): Promise<SshListener> {
  return startSshServer(server.backend.netconf!, {
    port,
    hostKeyFile,
    users: [{ username: USER, password: PASSWORD }],
  });
}

describe('an external NETCONF server that goes away', () => {
  test('answers 503 with an errors body while the server is unreachable', async () => {
    await stopListening();
    const r = await fetch(front.url + GAP);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-message': string }[] } };
    expect(body['ietf-restconf:errors'].error[0]?.['error-message']).toMatch(/NETCONF backend failed/);
  });

  test('serves the first request after the server returns, on a new SSH connection', async () => {
    expect((await fetch(front.url + GAP)).status).toBe(200);
    await stopListening();
    const again = await listenAgain();
    try {
      // The sessions kept idle on the lost connection are dropped, not handed to the request.
      const r = await fetch(front.url + GAP);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ 'example-jukebox:gap': '0.5' });
    } finally {
      await again.close();
    }
  });

  test('edits again after failing while the server was away', async () => {
    await stopListening();
    const put = (gap: string) =>
      fetch(front.url + GAP, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/yang-data+json' },
        body: JSON.stringify({ 'example-jukebox:gap': gap }),
      });
    expect((await put('1.5')).status).toBe(503);
    const again = await listenAgain();
    try {
      expect((await put('1.7')).status).toBe(204);
      expect(await (await fetch(front.url + GAP)).json()).toEqual({ 'example-jukebox:gap': '1.7' });
    } finally {
      await again.close();
    }
  });
});
