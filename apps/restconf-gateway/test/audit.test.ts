import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import { type Gateway, startGateway } from '../src/gateway.js';
import { type CapturedLog, captureLog } from './capture-log.js';

let gw: Gateway;
let log: CapturedLog;
beforeAll(async () => {
  log = captureLog();
  gw = await startGateway({ port: 0, httpUser: 'admin', httpPassword: 's3cret' }, { logger: log.logger });
});
afterAll(() => gw.close());

const AUTH = `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
const JSON_DATA = 'application/yang-data+json';
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';

function send(method: string, target: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${gw.url}${target}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': JSON_DATA, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('audit lines', () => {
  test('a PUT is audited with every field, the Message-ID of the request included', async () => {
    const r = await send(
      'PUT',
      `${JUKEBOX}/player/gap`,
      { 'example-jukebox:gap': '1.1' },
      { 'Message-ID': 'put-1' },
    );
    expect(r.status).toBe(204);
    expect(r.headers.get('message-id')).toBe('put-1');
    const line = await log.nextAudit();
    expect(line).toMatchObject({
      level: 30,
      audit: true,
      component: 'audit',
      msgId: 'put-1',
      user: 'admin',
      remoteAddress: '127.0.0.1',
      method: 'PUT',
      target: `${JUKEBOX}/player/gap`,
      datastore: 'ietf-datastores:running',
      status: 204,
      outcome: 'success',
    });
    expect(line.durationMs).toBeTypeOf('number');
    expect(line).not.toHaveProperty('patchId');
    expect(line).not.toHaveProperty('errorTag');
  });

  test('a request without a Message-ID gets a generated one, echoed and audited', async () => {
    const r = await send('PATCH', `${JUKEBOX}/player`, { 'example-jukebox:player': { gap: '0.4' } });
    expect(r.status).toBe(204);
    const id = r.headers.get('message-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await log.nextAudit()).toMatchObject({ msgId: id, method: 'PATCH', outcome: 'success' });
  });

  test('a YANG Patch is audited with its patch-id', async () => {
    const r = await send(
      'PATCH',
      `${JUKEBOX}/library`,
      {
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'add-artist-7',
          edit: [
            {
              'edit-id': '1',
              operation: 'create',
              target: '/artist=Audit%20Band',
              value: { 'example-jukebox:artist': [{ name: 'Audit Band' }] },
            },
          ],
        },
      },
      { 'Content-Type': 'application/yang-patch+json' },
    );
    expect(r.status).toBe(200);
    expect(await log.nextAudit()).toMatchObject({ method: 'PATCH', patchId: 'add-artist-7', status: 200 });
  });

  test('a DELETE is audited', async () => {
    const r = await send('DELETE', `${JUKEBOX}/library/artist=Audit%20Band`);
    expect(r.status).toBe(204);
    expect(await log.nextAudit()).toMatchObject({
      method: 'DELETE',
      target: `${JUKEBOX}/library/artist=Audit%20Band`,
      status: 204,
    });
  });

  test('a rejected edit is audited with its error-tag', async () => {
    const r = await send('POST', `${JUKEBOX}/library`, {
      'example-jukebox:artist': [{ name: 'Foo Fighters' }],
    });
    expect(r.status).toBe(409);
    expect(await log.nextAudit()).toMatchObject({
      method: 'POST',
      status: 409,
      outcome: 'failure',
      errorTag: 'data-exists',
    });
  });

  test('an operation is audited without a datastore', async () => {
    const r = await send('POST', '/restconf/operations/example-jukebox:play', {
      'example-jukebox:input': { playlist: 'Foo-One', 'song-number': 1 },
    });
    expect(r.status).toBe(204);
    const line = await log.nextAudit();
    expect(line).toMatchObject({ method: 'POST', target: '/restconf/operations/example-jukebox:play' });
    expect(line).not.toHaveProperty('datastore');
  });

  test('establish-subscription and delete-subscription are audited', async () => {
    const ops = '/restconf/operations/ietf-subscribed-notifications';
    const r = await send('POST', `${ops}:establish-subscription`, {
      'ietf-subscribed-notifications:input': { stream: 'NETCONF' },
    });
    expect(r.status).toBe(200);
    const id = ((await r.json()) as { 'ietf-subscribed-notifications:output': { id: number } })[
      'ietf-subscribed-notifications:output'
    ].id;
    expect(await log.nextAudit()).toMatchObject({
      method: 'POST',
      target: `${ops}:establish-subscription`,
      user: 'admin',
      outcome: 'success',
    });
    const d = await send('POST', `${ops}:delete-subscription`, {
      'ietf-subscribed-notifications:input': { id },
    });
    expect(d.status).toBeLessThan(300);
    expect(await log.nextAudit()).toMatchObject({ target: `${ops}:delete-subscription`, outcome: 'success' });
  });

  test('an edit refused by authentication is audited as access-denied without a user', async () => {
    const r = await fetch(`${gw.url}${JUKEBOX}/player/gap`, { method: 'DELETE' });
    expect(r.status).toBe(401);
    const line = await log.nextAudit();
    expect(line).toMatchObject({ method: 'DELETE', status: 401, errorTag: 'access-denied' });
    expect(line).not.toHaveProperty('user');
  });

  test('reads are not audited', async () => {
    const before = log.lines.filter((l) => l.audit === true).length;
    await send('GET', `${JUKEBOX}/player`);
    await send('OPTIONS', `${JUKEBOX}/player`);
    await send('PUT', `${JUKEBOX}/player/gap`, { 'example-jukebox:gap': '0.5' });
    expect((await log.nextAudit()).method).toBe('PUT');
    expect(log.lines.filter((l) => l.audit === true)).toHaveLength(before + 1);
  });
});

describe('--audit-log', () => {
  test('a file that cannot be appended to is a FILE error at start', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-audit-')), 'missing', 'audit.log');
    const error = await startGateway({ port: 0, auditLog: file }, { logger: captureLog().logger }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(GatewayError.isInstance(error) && error.code).toBe('FILE');
  });

  test('writes the audit lines to the file and not to the log', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gateway-audit-')), 'audit.log');
    const main = captureLog();
    const other = await startGateway({ port: 0, auditLog: file }, { logger: main.logger });
    try {
      const r = await fetch(`${other.url}${JUKEBOX}/player/gap`, {
        method: 'PUT',
        headers: { 'Content-Type': JSON_DATA, 'Message-ID': 'to-file' },
        body: JSON.stringify({ 'example-jukebox:gap': '0.9' }),
      });
      expect(r.status).toBe(204);
    } finally {
      await other.close();
    }
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ audit: true, component: 'audit', msgId: 'to-file', status: 204 });
    expect(main.lines.some((l) => l.audit === true)).toBe(false);
  });
});
