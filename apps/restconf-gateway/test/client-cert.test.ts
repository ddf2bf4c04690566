import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import { type Gateway, startGateway } from '../src/gateway.js';
import { type GatewayOptions, optionsFromArgs } from '../src/options.js';
import { type CapturedLog, captureLog } from './capture-log.js';
import { KEY_PASSPHRASE, makeTestPki, type TestPki } from './tls-fixtures.js';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki();
});

const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const BASIC = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;

interface Running {
  readonly gw: Gateway;
  readonly log: CapturedLog;
}

async function start(options: GatewayOptions = {}): Promise<Running> {
  const log = captureLog();
  const gw = await startGateway(
    { port: 0, tlsCert: pki.serverCert, tlsKey: pki.serverKey, tlsCa: pki.caCert, ...options },
    { logger: log.logger },
  );
  return { gw, log };
}

/** A fetch over HTTPS that trusts the test CA and presents `client`'s certificate if given. */
function tlsFetch(client?: { cert: string; key: string }) {
  const agent = new Agent({
    connect: {
      ca: readFileSync(pki.caCert, 'utf8'),
      ...(client === undefined
        ? {}
        : { cert: readFileSync(client.cert, 'utf8'), key: readFileSync(client.key, 'utf8') }),
    },
  });
  const fetch = (url: string, init: RequestInit = {}) =>
    undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
  return Object.assign(fetch, { close: () => agent.close() });
}

/** What a test reads of a response. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

async function request(
  gw: Gateway,
  client: { cert: string; key: string } | undefined,
  init: RequestInit = {},
  target = GAP,
): Promise<Answer> {
  const fetch = tlsFetch(client);
  try {
    const r = await fetch(`${gw.url}${target}`, init);
    return { status: r.status, headers: r.headers, body: await r.text() };
  } finally {
    await fetch.close();
  }
}

const putGap = (value: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'PUT',
  headers: { 'Content-Type': 'application/yang-data+json', ...headers },
  body: JSON.stringify({ 'example-jukebox:gap': value }),
});

function errorTagOf(r: Answer): string | undefined {
  const body = JSON.parse(r.body) as {
    'ietf-restconf:errors': { error: { 'error-tag': string }[] };
  };
  return body['ietf-restconf:errors'].error[0]?.['error-tag'];
}

describe('client certificates without Basic (--tls-ca)', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => s.gw.close());

  test('a verified certificate authenticates as its CommonName without Basic', async () => {
    const r = await request(s.gw, pki.alice, putGap('1.1'));
    expect(r.status).toBe(204);
    expect(await s.log.nextAudit()).toMatchObject({ user: 'alice', method: 'PUT', status: 204 });
  });

  test('a verified certificate authenticates the requests of an HTTP/2 session', async () => {
    const session = connect(s.gw.url, {
      ca: pki.pem(pki.caCert),
      cert: pki.pem(pki.carol.cert),
      key: pki.pem(pki.carol.key),
    });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({
          ':method': 'PUT',
          ':path': GAP,
          'content-type': 'application/yang-data+json',
        });
        stream.on('response', (h) => resolve(Number(h[':status'])));
        stream.on('error', reject);
        stream.end(JSON.stringify({ 'example-jukebox:gap': '0.3' }));
        stream.resume();
      });
      expect(status).toBe(204);
      expect(await s.log.nextAudit()).toMatchObject({ user: 'carol', method: 'PUT' });
    } finally {
      session.close();
    }
  });

  test('a TLS 1.2 client may not renegotiate to present another certificate', async () => {
    const url = new URL(s.gw.url);
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      ca: pki.pem(pki.caCert),
      cert: pki.pem(pki.alice.cert),
      key: pki.pem(pki.alice.key),
      maxVersion: 'TLSv1.2',
    });
    socket.on('error', () => {});
    // Read what the server sends (its 400 answer), so that its close is seen.
    socket.resume();
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.renegotiate({}, () => {});
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  test('a request without a certificate gets 401 access-denied and no Basic challenge', async () => {
    const r = await request(s.gw, undefined);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBeNull();
    expect(errorTagOf(r)).toBe('access-denied');
  });

  test('a certificate of a CA the server does not trust is not mapped', async () => {
    const r = await request(s.gw, pki.mallory);
    expect(r.status).toBe(401);
  });

  test('a refused edit is audited with access-denied and no user', async () => {
    await request(s.gw, undefined, putGap('1.2'));
    expect(await s.log.nextAudit()).toMatchObject({
      method: 'PUT',
      status: 401,
      outcome: 'failure',
      errorTag: 'access-denied',
    });
  });
});

describe('--max-requests-per-client with client certificates', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start({ maxRequestsPerClient: 1 });
  });
  afterAll(() => s.gw.close());

  test('counts the requests of a certificate user by user, not by address', async () => {
    // alice holds her one request open (an event stream); bob, from the same address, is served.
    const fetch = tlsFetch(pki.alice);
    try {
      const stream = await fetch(`${s.gw.url}/restconf/streams/json-NETCONF`, {
        headers: { Accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      expect((await request(s.gw, pki.alice)).status).toBe(429);
      expect((await request(s.gw, pki.bob)).status).toBe(200);
      await stream.body?.cancel();
    } finally {
      await fetch.close();
    }
  });
});

describe('client certificates with HTTP Basic as the fallback', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start({ httpUser: 'admin', httpPassword: 's3cret' });
  });
  afterAll(() => s.gw.close());

  test('a certificate that is not verified falls back to Basic', async () => {
    const r = await request(s.gw, pki.mallory, putGap('1.3', { Authorization: BASIC }));
    expect(r.status).toBe(204);
    expect(await s.log.nextAudit()).toMatchObject({ user: 'admin' });
  });

  test('without a certificate or credentials the answer is a Basic challenge', async () => {
    const r = await request(s.gw, undefined);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  test('a verified certificate wins over Basic credentials', async () => {
    const r = await request(s.gw, pki.bob, putGap('1.4', { Authorization: BASIC }));
    expect(r.status).toBe(204);
    expect(await s.log.nextAudit()).toMatchObject({ user: 'bob' });
  });
});

describe('--tls-cert-to-name', () => {
  let s: Running;
  beforeAll(async () => {
    const file = path.join(pki.dir, 'cert-to-name.json');
    const ca = pki.x509(pki.caCert).fingerprint256;
    writeFileSync(
      file,
      JSON.stringify([
        { fingerprint: pki.x509(pki.bob.cert).fingerprint256, 'map-type': 'specified', name: 'operator' },
        { fingerprint: `04:${ca}`, 'map-type': 'san-dns-name' },
      ]),
    );
    s = await start({ tlsCertToName: file });
  });
  afterAll(() => s.gw.close());

  test('a specified entry names the user of one certificate', async () => {
    expect((await request(s.gw, pki.bob, putGap('0.6'))).status).toBe(204);
    expect(await s.log.nextAudit()).toMatchObject({ user: 'operator' });
  });

  test('an entry of the CA maps the DNS subjectAltName', async () => {
    expect((await request(s.gw, pki.alice, putGap('0.7'))).status).toBe(204);
    expect(await s.log.nextAudit()).toMatchObject({ user: 'alice.example.net' });
  });

  test('a certificate no entry names is refused', async () => {
    expect((await request(s.gw, pki.carol)).status).toBe(401);
  });
});

describe('--tls-client-auth=require', () => {
  let s: Running;
  beforeAll(async () => {
    s = await start({ tlsClientAuth: 'require' });
  });
  afterAll(() => s.gw.close());

  test('refuses the TLS handshake of a client without a certificate', async () => {
    await expect(request(s.gw, undefined)).rejects.toThrow();
  });

  test('refuses the TLS handshake of a certificate from another CA', async () => {
    await expect(request(s.gw, pki.mallory)).rejects.toThrow();
  });

  test('serves a client with a verified certificate', async () => {
    expect((await request(s.gw, pki.alice)).status).toBe(200);
  });
});

describe('TLS files', () => {
  test('an encrypted key starts with its passphrase', async () => {
    const s = await start({ tlsKey: pki.serverKeyEncrypted, tlsKeyPassphrase: KEY_PASSPHRASE });
    try {
      expect((await request(s.gw, pki.alice)).status).toBe(200);
    } finally {
      await s.gw.close();
    }
  });

  test('a wrong passphrase is a FILE error at start', async () => {
    const error = await start({ tlsKey: pki.serverKeyEncrypted, tlsKeyPassphrase: 'wrong' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(GatewayError.isInstance(error) && error.code).toBe('FILE');
  });

  test('--tls-key-passphrase-file is read into the options', () => {
    const file = path.join(pki.dir, 'passphrase.txt');
    writeFileSync(file, `${KEY_PASSPHRASE}\n`);
    const command = optionsFromArgs(
      [
        `--tls-cert=${pki.serverCert}`,
        `--tls-key=${pki.serverKeyEncrypted}`,
        `--tls-key-passphrase-file=${file}`,
      ],
      {},
    );
    expect(command.help === false && command.options.tlsKeyPassphrase).toBe(KEY_PASSPHRASE);
  });

  test('--tls-ca, --tls-client-auth and --tls-cert-to-name need what they build on', () => {
    const code = (argv: string[]): string | undefined => {
      try {
        optionsFromArgs(argv, {});
      } catch (error) {
        return GatewayError.isInstance(error) ? error.code : 'other';
      }
      return undefined;
    };
    expect(code(['--tls-ca=ca.pem'])).toBe('INVALID_FLAG');
    expect(code(['--tls-cert=a', '--tls-key=b', '--tls-client-auth=require'])).toBe('INVALID_FLAG');
    expect(code(['--tls-cert=a', '--tls-key=b', '--tls-cert-to-name=m.json'])).toBe('INVALID_FLAG');
    expect(code(['--tls-cert=a', '--tls-key=b', '--tls-ca=c', '--tls-client-auth=maybe'])).toBe(
      'INVALID_FLAG',
    );
  });

  test('client certificates count as authentication for listening beyond loopback', async () => {
    const s = await start({ host: '0.0.0.0' });
    await s.gw.close();
    expect(s.log.lines.some((l) => String(l.msg).startsWith('client certificates requested'))).toBe(true);
  });
});
