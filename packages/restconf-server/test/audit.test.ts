import { connect } from 'node:http2';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type AuditRecord, datastoreOf } from '../src/audit.js';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

const records: AuditRecord[] = [];
const waiters: Array<() => void> = [];
let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway({
    // The Basic user as a check in front of the handler would have let it in.
    trustBasicUser: true,
    audit: (record) => {
      records.push(record);
      for (const w of waiters.splice(0)) w();
    },
  });
});
afterAll(() => gw.close());
beforeEach(async () => {
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  await nextRecord();
  records.length = 0;
});

/** The record of the request just answered: it is reported when the response closes. */
async function nextRecord(): Promise<AuditRecord> {
  while (records.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
  return records.shift()!;
}

const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const LIB = '/restconf/data/example-jukebox:jukebox/library';
const BASIC = `Basic ${Buffer.from('alice:pw').toString('base64')}`;

describe('audit records', () => {
  test('a PUT reports method, target, datastore, status, user and Message-ID', async () => {
    const r = await gw.fetch(
      GAP,
      json('PUT', { 'example-jukebox:gap': '1.5' }, { Authorization: BASIC, 'Message-ID': 'm-1' }),
    );
    expect(r.status).toBe(204);
    const record = await nextRecord();
    expect(record).toMatchObject({
      method: 'PUT',
      target: GAP,
      datastore: 'ietf-datastores:running',
      status: 204,
      outcome: 'success',
      user: 'alice',
      messageId: 'm-1',
      patchId: undefined,
      errorTag: undefined,
    });
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('a YANG Patch reports its patch-id', async () => {
    await gw.fetch(LIB, {
      method: 'PATCH',
      headers: { 'content-type': 'application/yang-patch+json' },
      body: JSON.stringify({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'add-x',
          edit: [
            {
              'edit-id': 'e1',
              operation: 'create',
              target: '/artist=X',
              value: { 'example-jukebox:artist': [{ name: 'X' }] },
            },
          ],
        },
      }),
    });
    expect(await nextRecord()).toMatchObject({ method: 'PATCH', patchId: 'add-x', outcome: 'success' });
  });

  test('a failing YANG Patch reports its patch-id and the error-tag of the failed edit', async () => {
    const r = await gw.fetch(LIB, {
      method: 'PATCH',
      headers: { 'content-type': 'application/yang-patch+json' },
      body: JSON.stringify({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'dup',
          edit: [
            {
              'edit-id': 'e1',
              operation: 'create',
              target: '/artist=Foo%20Fighters',
              value: { 'example-jukebox:artist': [{ name: 'Foo Fighters' }] },
            },
          ],
        },
      }),
    });
    expect(r.status).toBe(409);
    expect(await nextRecord()).toMatchObject({
      patchId: 'dup',
      status: 409,
      outcome: 'failure',
      errorTag: 'data-exists',
    });
  });

  test('a refused edit reports its error-tag and message', async () => {
    const r = await gw.fetch(`${LIB}/artist=Nobody`, { method: 'DELETE' });
    expect(r.status).toBe(404);
    const record = await nextRecord();
    expect(record).toMatchObject({ method: 'DELETE', status: 404, outcome: 'failure' });
    expect(record.errorTag).toBeTypeOf('string');
    expect(record.errorMessage).toBeTypeOf('string');
  });

  test('an operation is reported without a datastore', async () => {
    const r = await gw.fetch('/restconf/operations/example-ops:reboot', json('POST'));
    expect(r.status).toBeLessThan(300);
    expect(await nextRecord()).toMatchObject({
      method: 'POST',
      target: '/restconf/operations/example-ops:reboot',
      datastore: undefined,
      outcome: 'success',
    });
  });

  test('reads are not reported', async () => {
    await gw.fetch(GAP);
    await gw.fetch(GAP, { method: 'OPTIONS' });
    await gw.fetch(GAP, json('PUT', { 'example-jukebox:gap': '1.0' }));
    expect((await nextRecord()).method).toBe('PUT');
    expect(records).toEqual([]);
  });
});

describe('a listener that throws', () => {
  test('leaves the request answered and the server serving', async () => {
    const other = await startGateway({
      audit: () => {
        throw new Error('audit sink down');
      },
    });
    try {
      // The harness starts empty: the PUT creates the leaf.
      const put = await other.fetch(GAP, json('PUT', { 'example-jukebox:gap': '0.7' }));
      expect(put.status).toBe(201);
      const get = await other.fetch(GAP);
      expect(await get.json()).toEqual({ 'example-jukebox:gap': '0.7' });
    } finally {
      await other.close();
    }
  });
});

describe('datastoreOf', () => {
  test('names running for the unified datastore and the RFC 8527 datastore for /ds', () => {
    expect(datastoreOf('/restconf/data', '/restconf')).toBe('ietf-datastores:running');
    expect(datastoreOf('/restconf/data/a:b', '/restconf')).toBe('ietf-datastores:running');
    expect(datastoreOf('/restconf/ds/ietf-datastores:candidate/a:b', '/restconf')).toBe(
      'ietf-datastores:candidate',
    );
    expect(datastoreOf('/restconf/operations/a:b', '/restconf')).toBeUndefined();
    expect(datastoreOf('/restconf/ds/%E0', '/restconf')).toBeUndefined();
  });
});

describe('HTTP/2 requests', () => {
  test('a PUT over HTTP/2 without Content-Length is read as a body', async () => {
    const { createServer } = await import('node:http2');
    const h2 = createServer((req, res) => gw.handler(req as never, res as never));
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    const port = (h2.address() as { port: number }).port;
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({
          ':method': 'PUT',
          ':path': GAP,
          'content-type': 'application/yang-data+json',
        });
        stream.on('response', (headers) => resolve(Number(headers[':status'])));
        stream.on('error', reject);
        stream.end(JSON.stringify({ 'example-jukebox:gap': '1.2' }));
        stream.resume();
      });
      expect(status).toBe(204);
      const r = await gw.fetch(GAP);
      expect(await r.json()).toEqual({ 'example-jukebox:gap': '1.2' });
    } finally {
      session.close();
      await new Promise<void>((resolve) => h2.close(() => resolve()));
    }
  });
});
