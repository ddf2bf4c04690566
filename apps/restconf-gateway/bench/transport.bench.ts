import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { type ClientHttp2Session, connect } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pino } from 'pino';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { makeTestPki } from '../test/tls-fixtures.js';

/**
 * Ten concurrent GETs of a leaf per iteration, over the transports the gateway serves: cleartext
 * HTTP/1.1 (the baseline), HTTPS HTTP/1.1 and HTTP/2 on the same TLS port (ALPN), and HTTP/2 with
 * a client certificate mapped to the user. Connections are kept open across iterations, so the
 * figures compare the per-request cost, not TLS handshakes. `pnpm bench` prints each row's ratio
 * to the baseline.
 */

const LEAF = '/restconf/data/example-jukebox:jukebox/player/gap';
const CONCURRENT = 10;
const silent = { logger: pino({ level: 'silent' }) };
const OPTIONS = { time: 2000, warmupTime: 500 };

let plain: Gateway;
let secure: Gateway;
let mutual: Gateway;
let httpAgent: HttpAgent;
let httpsAgent: HttpsAgent;
let h2: ClientHttp2Session;
let h2Cert: ClientHttp2Session;

function h2Session(
  url: string,
  tls: { ca: string; cert?: string; key?: string },
): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(url, tls);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

beforeAll(async () => {
  const pki = makeTestPki();
  const tls = { tlsCert: pki.serverCert, tlsKey: pki.serverKey };
  plain = await startGateway({ port: 0 }, silent);
  secure = await startGateway({ port: 0, ...tls }, silent);
  mutual = await startGateway({ port: 0, ...tls, tlsCa: pki.caCert }, silent);
  const ca = pki.pem(pki.caCert);
  httpAgent = new HttpAgent({ keepAlive: true, maxSockets: CONCURRENT });
  httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: CONCURRENT, ca });
  h2 = await h2Session(secure.url, { ca });
  h2Cert = await h2Session(mutual.url, { ca, cert: pki.pem(pki.alice.cert), key: pki.pem(pki.alice.key) });
});

afterAll(async () => {
  h2.close();
  h2Cert.close();
  httpAgent.destroy();
  httpsAgent.destroy();
  await Promise.all([plain.close(), secure.close(), mutual.close()]);
});

function http1(url: string, secureTls: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const send = secureTls ? httpsRequest : httpRequest;
    const req = send(`${url}${LEAF}`, { agent: secureTls ? httpsAgent : httpAgent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function http2(session: ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': LEAF });
    let status = 0;
    stream.on('response', (h) => {
      status = Number(h[':status']);
    });
    stream.resume();
    stream.on('end', () => (status === 200 ? resolve() : reject(new Error(`${status}`))));
    stream.on('error', reject);
  });
}

const times = <T>(f: () => Promise<T>) => Promise.all(Array.from({ length: CONCURRENT }, f));

describe(`GET leaf, ${CONCURRENT} concurrent requests`, () => {
  bench('cleartext HTTP/1.1 (baseline)', () => times(() => http1(plain.url, false)).then(() => {}), OPTIONS);
  bench('HTTPS HTTP/1.1 (ALPN fallback)', () => times(() => http1(secure.url, true)).then(() => {}), OPTIONS);
  bench('HTTPS HTTP/2, one session', () => times(() => http2(h2)).then(() => {}), OPTIONS);
  bench('HTTPS HTTP/2, client certificate', () => times(() => http2(h2Cert)).then(() => {}), OPTIONS);
});
