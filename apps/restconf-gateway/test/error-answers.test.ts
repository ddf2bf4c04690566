import { connect } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import type { GatewayOptions } from '../src/options.js';

const silent = { logger: pino({ level: 'silent' }) };
const XML = 'application/yang-data+xml';
const JSON_TYPE = 'application/yang-data+json';
const ADMIN = `Basic ${Buffer.from('admin:secret').toString('base64')}`;

function start(options: GatewayOptions): Promise<Gateway> {
  return startGateway({ port: 0, httpUser: 'admin', httpPassword: 'secret', ...options }, silent);
}

/** What the gateway answers to `request` written on a raw connection, read until it closes. */
function rawExchange(gw: Gateway, request: string): Promise<string> {
  const { hostname, port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

describe('with --restconf-default-encoding=xml', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ restconfDefaultEncoding: 'xml', maxRequestsPerClient: 1, metrics: true });
  });
  afterAll(() => gw.close());

  test('a 401 is in XML when neither Accept nor Content-Type says otherwise', async () => {
    const r = await fetch(`${gw.url}/restconf/data`);
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toBe(XML);
    expect(await r.text()).toContain('<error-tag>access-denied</error-tag>');
  });

  test('a 401 follows Accept over the default encoding', async () => {
    const r = await fetch(`${gw.url}/restconf/data`, { headers: { Accept: JSON_TYPE } });
    expect(r.headers.get('content-type')).toBe(JSON_TYPE);
    expect((await r.json()) as unknown).toMatchObject({
      'ietf-restconf:errors': { error: [{ 'error-tag': 'access-denied' }] },
    });
  });

  test("a 401 without Accept follows the request body's Content-Type", async () => {
    const r = await fetch(`${gw.url}/restconf/data`, {
      method: 'POST',
      headers: { 'Content-Type': JSON_TYPE },
      body: '{}',
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toBe(JSON_TYPE);
  });

  test('strict headers pass over Accept: application/json to the default encoding', async () => {
    const r = await fetch(`${gw.url}/restconf/data`, { headers: { Accept: 'application/json' } });
    expect(r.headers.get('content-type')).toBe(XML);
  });

  test('a 429 of a client over its requests in progress is in XML', async () => {
    const stream = await fetch(`${gw.url}/restconf/streams/json-NETCONF`, {
      headers: { Accept: 'text/event-stream', Authorization: ADMIN },
    });
    try {
      expect(stream.status).toBe(200);
      const r = await fetch(`${gw.url}/restconf/data`, { headers: { Authorization: ADMIN } });
      expect(r.status).toBe(429);
      expect(r.headers.get('content-type')).toBe(XML);
      expect(await r.text()).toContain('<error-tag>resource-denied</error-tag>');
    } finally {
      await stream.body?.cancel();
    }
  });

  test('header fields too large are answered 431 with an XML errors body and the connection closed', async () => {
    const answer = await rawExchange(
      gw,
      `GET /restconf/data HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain(`Content-Type: ${XML}`);
    expect(answer).toContain('Connection: close');
    expect(answer).toContain('<error-tag>too-big</error-tag>');
  });
});

describe('with the default encoding and strict headers off', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await start({ restconfStrictHeaders: false, metrics: true, monitoringUser: ['nobody'] });
  });
  afterAll(() => gw.close());

  test('a malformed request line is answered 400 with a JSON errors body and the connection closed', async () => {
    const answer = await rawExchange(gw, 'GET /restconf/data HTTP/1.1 extra\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain(`Content-Type: ${JSON_TYPE}`);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toMatchObject({ 'ietf-restconf:errors': { error: [{ 'error-tag': 'malformed-message' }] } });
  });

  test('a 403 of a monitoring page follows Accept: application/xml', async () => {
    const r = await fetch(`${gw.url}/metrics`, {
      headers: { Accept: 'application/xml', Authorization: ADMIN },
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('content-type')).toBe(XML);
  });
});
