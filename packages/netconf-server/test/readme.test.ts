import path from 'node:path';
import { connectSsh, connectStream } from '@yangkit/netconf-client';
import { expect, test } from 'vitest';
import {
  duplexPair,
  exampleHandlers,
  loadServerSchema,
  NetconfServer,
  rpcError,
  startSshServer,
} from '../src/index.js';

const yangDir = path.resolve(__dirname, '../../../yang');

test('the README in-process example works', async () => {
  const schema = await loadServerSchema({ paths: [yangDir], modules: ['example-jukebox', 'example-ops'] });
  const server = await NetconfServer.create({ schema });
  exampleHandlers(server);

  const [serverEnd, clientEnd] = duplexPair();
  server.connect(serverEnd, { username: 'admin' });
  const session = await connectStream(clientEnd);

  await session.editConfig({
    target: 'candidate',
    config:
      '<jukebox xmlns="http://example.com/ns/example-jukebox"><library><artist><name>Foo Fighters</name></artist></library></jukebox>',
  });
  await session.commit();
  const data = await session.get({
    filter: { subtree: '<jukebox xmlns="http://example.com/ns/example-jukebox"/>' },
  });
  expect(data).toContain('<artist-count>1</artist-count>');
  await session.close();
  await server.close();
});

test('the README hooks example works', async () => {
  const schema = await loadServerSchema({ paths: [yangDir], modules: ['example-jukebox', 'example-ops'] });
  const server = await NetconfServer.create({ schema });
  server.handleRpc('example-ops:reboot', () => undefined);
  server.onValidate((_running, changes) => {
    if (changes.length > 1000) throw rpcError('too-big', 'at most 1000 changes per commit');
  });
  server.provideState({
    provides: ['example-jukebox:jukebox'],
    get: () =>
      '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>0.5</gap></player></jukebox>',
  });
  const [a, b] = duplexPair();
  server.connect(a);
  const session = await connectStream(b);
  expect((await session.rpc('<reboot xmlns="https://example.com/ns/example-ops"/>')).ok).toBe(true);
  await session.close();
  await server.close();
});

test('the README SSH example works', async () => {
  const schema = await loadServerSchema({ paths: [yangDir], modules: ['example-jukebox'] });
  const server = await NetconfServer.create({ schema });
  const ssh = await startSshServer(server, {
    host: '127.0.0.1',
    port: 0,
    users: [{ username: 'netconf', password: 'secret' }],
  });
  const session = await connectSsh({
    host: '127.0.0.1',
    port: ssh.address.port,
    username: 'netconf',
    password: 'secret',
    hostKey: 'accept-any',
  });
  expect(session.sessionId).toBeGreaterThan(0);
  await session.close();
  await ssh.close();
  await server.close();
});
