import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, exampleHandlers, loadServerSchema, NetconfServer } from '@yangkit/netconf-server';
import { expect, test } from 'vitest';
import {
  createBackend,
  createRestconfHandler,
  GET_BULK_MODULE,
  GET_BULK_YANG,
  RESTCONF_MODULES,
} from '../src/index.js';
import { YANG_DIR } from './harness.js';

test('the README example serves the jukebox and answers the curl examples', async () => {
  const yangDir = YANG_DIR;
  const schema = await loadServerSchema({
    paths: [yangDir],
    texts: [GET_BULK_YANG],
    modules: ['example-jukebox', 'example-ops', GET_BULK_MODULE, ...RESTCONF_MODULES],
  });
  const netconf = await NetconfServer.create({ schema });
  exampleHandlers(netconf);
  const backend = createBackend({
    openSession: async () => {
      const [serverSide, clientSide] = duplexPair();
      netconf.connect(serverSide, { username: 'restconf' });
      return connectStream(clientSide);
    },
  });
  const handler = createRestconfHandler({ schema, backend, serverUrl: 'http://127.0.0.1:8080' });
  const http = createServer(handler).listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  try {
    const created = await fetch(`${base}/restconf/data`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/yang-data+json' },
      body: '{"example-jukebox:jukebox":{"library":{"artist":[{"name":"Foo Fighters"}]}}}',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(
      'http://127.0.0.1:8080/restconf/data/example-jukebox:jukebox',
    );
    const library = await fetch(`${base}/restconf/data/example-jukebox:jukebox/library?content=config`);
    expect(await library.text()).toBe('{"example-jukebox:library":{"artist":[{"name":"Foo Fighters"}]}}');
  } finally {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await handler.close();
    await netconf.close();
  }
});
