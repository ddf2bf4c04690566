import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SshConnection } from '@yangkit/netconf-client';
import { NetconfServer, type SshListener, startSshServer } from '@yangkit/netconf-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createRestconfHandler, type RestconfHandler } from '../src/handler.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { exampleSchema, JUKEBOX, json } from './harness.js';

let netconf: NetconfServer;
let ssh: SshListener;
let connection: SshConnection;
let handler: RestconfHandler;
let http: Server;
let base: string;
const dir = mkdtempSync(path.join(tmpdir(), 'restconf-ssh-'));

beforeAll(async () => {
  const schema = await exampleSchema();
  netconf = await NetconfServer.create({ schema });
  ssh = await startSshServer(netconf, {
    port: 0,
    hostKeyFile: path.join(dir, 'host_key'),
    users: [{ username: 'restconf', password: 'secret' }],
  });
  // One SSH connection; each request's NETCONF session is a channel on it (RFC 6242).
  connection = await SshConnection.connect({
    host: '127.0.0.1',
    port: ssh.address.port,
    username: 'restconf',
    password: 'secret',
    hostKey: 'accept-any',
  });
  const backend = createNetconfBackend({ schema, openSession: () => connection.openSession() });
  handler = createRestconfHandler({ schema, backend });
  http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  await handler.ready;
}, 30_000);

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await handler.close();
  await connection.close();
  await ssh.close();
  await netconf.close();
  rmSync(dir, { recursive: true, force: true });
});

test('edits and reads go through NETCONF sessions over SSH', async () => {
  expect((await fetch(`${base}/restconf/data`, json('PUT', JUKEBOX))).status).toBe(204);
  const r = await fetch(
    `${base}/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light/year`,
  );
  expect(await r.json()).toEqual({ 'example-jukebox:year': 2011 });
});

test('a change by another SSH client changes the entity tag', async () => {
  const tag = async () => (await fetch(`${base}/restconf/data`, { method: 'HEAD' })).headers.get('etag');
  const before = await tag();
  const other = await connection.openSession();
  await other.editConfig({
    target: 'candidate',
    config:
      '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>1.4</gap></player></jukebox>',
  });
  await other.commit();
  await other.close();
  // That session shares the handler's SSH connection but is not the backend's: another client.
  await expect.poll(tag, { timeout: 3000, interval: 25 }).not.toBe(before);
});
