import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectSsh } from '@yangkit/netconf-client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import { type Gateway, startGateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/options.js';

const silent = { logger: pino({ level: 'silent' }) };
const DEVICE_YANG = path.resolve(__dirname, '../../../yang/rfc7223');
const JSON_DATA = { 'Content-Type': 'application/yang-data+json' };

function start(options: GatewayOptions = {}): Promise<Gateway> {
  return startGateway({ port: 0, ...options }, silent);
}

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'gateway-test-'));
}

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('default gateway', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start();
  });
  afterAll(() => gw.close());

  test('serves the sample jukebox at /restconf', async () => {
    const r = await fetch(
      `${gw.url}/restconf/data/example-jukebox:jukebox/library/artist=Miles%20Davis/album`,
    );
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, { name: string }[]>;
    expect(body['example-jukebox:album']?.map((a) => a.name)).toEqual(['Kind of Blue']);
  });

  test('serves the sample playlist', async () => {
    const r = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/playlist=Foo-One/description`);
    expect(await r.json()).toEqual({ 'example-jukebox:description': 'example playlist 1' });
  });

  test('builds Location headers from the listening address', async () => {
    const r = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/library`, {
      method: 'POST',
      headers: JSON_DATA,
      body: JSON.stringify({ 'example-jukebox:artist': [{ name: 'Location Test' }] }),
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(
      `${gw.url}/restconf/data/example-jukebox:jukebox/library/artist=Location%20Test`,
    );
  });

  test('lists the example operations', async () => {
    const r = await fetch(`${gw.url}/restconf/operations`);
    const ops = Object.keys(((await r.json()) as Record<string, object>)['ietf-restconf:operations'] ?? {});
    expect(ops).toEqual(expect.arrayContaining(['example-jukebox:play', 'example-ops:reboot']));
  });

  test('leaves /server-status and /metrics off by default', async () => {
    expect((await fetch(`${gw.url}/server-status`)).status).toBe(404);
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(404);
  });
});

describe('options', () => {
  test('serves /server-status and /metrics when asked', async () => {
    const gw = await start({ serverStatus: true, metrics: true });
    try {
      expect((await fetch(`${gw.url}/server-status`)).status).toBe(200);
      const metrics = await fetch(`${gw.url}/metrics`);
      expect(await metrics.text()).toMatch(/^# HELP/m);
    } finally {
      await gw.close();
    }
  });

  test('answers in XML with --restconf-default-encoding=xml', async () => {
    const gw = await start({ restconfDefaultEncoding: 'xml' });
    try {
      const r = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`);
      expect(r.headers.get('content-type')).toBe('application/yang-data+xml');
      expect(await r.text()).toContain('<gap xmlns="http://example.com/ns/example-jukebox">0.5</gap>');
    } finally {
      await gw.close();
    }
  });

  test('starts empty when --initial-data is empty', async () => {
    const gw = await start({ initialData: '' });
    try {
      expect((await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox`)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });

  test('starts empty with a --module list of its own', async () => {
    const gw = await start({ module: ['example-jukebox'] });
    try {
      expect((await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox`)).status).toBe(404);
      const ops = await (await fetch(`${gw.url}/restconf/operations`)).text();
      expect(ops).toContain('example-jukebox:play');
      expect(ops).not.toContain('example-ops:');
    } finally {
      await gw.close();
    }
  });

  test('serves the revision of a --path folder over the newer one shipped', async () => {
    // RFC 7223 ietf-interfaces, as a device that never moved to RFC 8343 has it.
    const gw = await start({ path: [DEVICE_YANG], module: ['ietf-interfaces'], initialData: '' });
    try {
      const r = await fetch(`${gw.url}/restconf/yang/ietf-interfaces@2014-05-08`, {
        headers: { Accept: 'application/yang' },
      });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('revision 2014-05-08');
    } finally {
      await gw.close();
    }
  });

  test('serves a --path module over the example module of the same name shipped', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'example-ops@2000-01-01.yang'),
      'module example-ops { namespace "https://example.com/ns/example-ops"; prefix ops; revision 2000-01-01; rpc ping; }',
    );
    const gw = await start({ path: [dir], module: ['example-ops'] });
    try {
      const ops = await (await fetch(`${gw.url}/restconf/operations`)).text();
      expect(ops).toContain('example-ops:ping');
      expect(ops).not.toContain('example-ops:reboot');
    } finally {
      await gw.close();
    }
  });

  test('keeps edits in --startup-file across restarts', async () => {
    const startupFile = path.join(tempDir(), 'startup.json');
    const first = await start({ startupFile });
    const put = await fetch(`${first.url}/restconf/data/example-jukebox:jukebox/player/gap`, {
      method: 'PUT',
      headers: JSON_DATA,
      body: JSON.stringify({ 'example-jukebox:gap': '1.5' }),
    });
    expect(put.status).toBe(204);
    await first.close();
    const second = await start({ startupFile });
    try {
      const r = await fetch(`${second.url}/restconf/data/example-jukebox:jukebox/player/gap`);
      expect(await r.json()).toEqual({ 'example-jukebox:gap': '1.5' });
    } finally {
      await second.close();
    }
  });

  test('refuses a missing initial data file', async () => {
    const error = await failure(start({ initialData: path.join(tempDir(), 'none.xml') }));
    expect(error.code).toBe('FILE');
  });

  test('refuses initial data that does not fit the schema', async () => {
    const file = path.join(tempDir(), 'bad.xml');
    writeFileSync(
      file,
      '<jukebox xmlns="http://example.com/ns/example-jukebox"><colour>red</colour></jukebox>',
    );
    expect((await failure(start({ initialData: file }))).code).toBe('FILE');
  });

  test('loads JSON initial data, and refuses a file that holds no data naming it', async () => {
    const json = path.join(tempDir(), 'initial.json');
    writeFileSync(json, JSON.stringify({ 'example-jukebox:jukebox': { player: { gap: '0.7' } } }));
    const g = await start({ initialData: json });
    try {
      const r = await fetch(`${g.url}/restconf/data/example-jukebox:jukebox/player/gap`);
      expect(await r.json()).toEqual({ 'example-jukebox:gap': '0.7' });
    } finally {
      await g.close();
    }
    const text = path.join(tempDir(), 'initial.txt');
    writeFileSync(text, 'just text');
    const error = await failure(start({ initialData: text }));
    expect(error.code).toBe('FILE');
    expect(error.message).toContain(text);
    expect((error.cause as Error).message).toBe('it holds no XML element and is no JSON object');
  });

  test('refuses an unknown module', async () => {
    expect((await failure(start({ module: ['no-such-module'] }))).code).toBe('SCHEMA');
  });

  test('refuses to listen beyond loopback without authentication', async () => {
    const error = await failure(start({ host: '0.0.0.0' }));
    expect(error.code).toBe('INVALID_FLAG');
    expect(error.exitCode).toBe(2);
  });

  test('reports a port in use', async () => {
    const gw = await start();
    try {
      const port = Number(new URL(gw.url).port);
      expect((await failure(start({ port }))).code).toBe('LISTEN');
    } finally {
      await gw.close();
    }
  });
});

describe('HTTP Basic authentication', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ httpUser: 'admin', httpPassword: 's3cret' });
  });
  afterAll(() => gw.close());

  test('answers 401 with a challenge and an access-denied error without credentials', async () => {
    const r = await fetch(`${gw.url}/restconf/data`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="restconf"/);
    const body = (await r.json()) as { 'ietf-restconf:errors': { error: { 'error-tag': string }[] } };
    expect(body['ietf-restconf:errors'].error[0]?.['error-tag']).toBe('access-denied');
  });

  test('answers 401 to a wrong password', async () => {
    const auth = `Basic ${Buffer.from('admin:wrong').toString('base64')}`;
    expect((await fetch(`${gw.url}/restconf/data`, { headers: { Authorization: auth } })).status).toBe(401);
  });

  test('lets the --http-user user, the only one, read /metrics', async () => {
    const other = await start({ httpUser: 'admin', httpPassword: 's3cret', metrics: true });
    try {
      const auth = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
      expect((await fetch(`${other.url}/metrics`, { headers: { Authorization: auth } })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  test('serves the request with the right credentials', async () => {
    const auth = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
    const r = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`, {
      headers: { Authorization: auth },
    });
    expect(r.status).toBe(200);
  });
});

describe('--netconf-ssh-listen', () => {
  test('lets a NETCONF client edit the datastore the gateway serves, with tags moving', async () => {
    const startupFile = path.join(tempDir(), 'startup.json');
    const gw = await start({
      startupFile,
      netconfSshListen: '127.0.0.1:0',
      netconfSshUser: 'ops',
      netconfSshPassword: 'pw',
    });
    try {
      const before = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`);
      const etag = before.headers.get('etag')!;
      const port = gw.backend.sshListener!.address.port;
      const session = await connectSsh({
        host: '127.0.0.1',
        port,
        username: 'ops',
        password: 'pw',
        hostKey: 'accept-any',
      });
      try {
        await session.editConfig({
          target: 'running',
          config:
            '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>1.2</gap></player></jukebox>',
        });
      } finally {
        await session.close();
      }
      let after: Response | undefined;
      // The change notification reaches the gateway asynchronously.
      for (let i = 0; i < 50; i++) {
        after = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player/gap`, {
          headers: { 'If-None-Match': etag },
        });
        if (after.status === 200) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(after?.status).toBe(200);
      expect(await after?.json()).toEqual({ 'example-jukebox:gap': '1.2' });
    } finally {
      await gw.close();
    }
  });
});

describe('--netconf-hello-timeout and --netconf-idle-timeout', () => {
  test('reach the embedded NETCONF server', async () => {
    const gw = await start({
      netconfSshListen: '127.0.0.1:0',
      netconfSshPassword: 'pw',
      netconfHelloTimeout: 5,
      netconfIdleTimeout: 600,
    });
    try {
      expect(gw.backend.netconf!.helloTimeoutMs).toBe(5000);
      expect(gw.backend.netconf!.idleTimeoutMs).toBe(600_000);
    } finally {
      await gw.close();
    }
  });

  test('a NETCONF/SSH session that sends no rpc is closed after the idle timeout', async () => {
    const gw = await start({
      netconfSshListen: '127.0.0.1:0',
      netconfSshPassword: 'pw',
      netconfIdleTimeout: 1,
    });
    try {
      const session = await connectSsh({
        host: '127.0.0.1',
        port: gw.backend.sshListener!.address.port,
        username: 'netconf',
        password: 'pw',
        hostKey: 'accept-any',
      });
      const end = await session.closed;
      expect(end.reason).toBe('transport-closed');
      // The gateway's own sessions are replaced: RESTCONF still answers.
      expect((await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/player`)).status).toBe(200);
    } finally {
      await gw.close();
    }
  }, 20_000);
});

describe('output flags reach the handler', () => {
  test('--wildcard-keys lets a GET name every artist with *', async () => {
    const gw = await start({ wildcardKeys: true });
    try {
      const r = await fetch(`${gw.url}/restconf/data/example-jukebox:jukebox/library/artist=*`);
      expect(r.status).toBe(200);
      expect(JSON.stringify(await r.json())).toContain('Foo Fighters');
    } finally {
      await gw.close();
    }
  });

  test('--with-restconf=false stops serving the RESTCONF root', async () => {
    const gw = await start({ withRestconf: false });
    try {
      expect((await fetch(`${gw.url}/restconf/data`)).status).toBe(404);
    } finally {
      await gw.close();
    }
  });
});
