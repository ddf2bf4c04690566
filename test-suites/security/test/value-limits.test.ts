import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DATA_JSON,
  DATA_XML,
  errorsBody,
  PATCH_JSON,
  PATCH_XML,
  type Server,
  startServer,
} from './harness.js';

// List keys come back in Location headers and error paths, and every value is kept in memory:
// both are bounded (by default 1024 bytes for a key, 1 MiB for a value), and a longer one is
// refused with 400 invalid-value naming the limit, before any change.
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';

interface Errors {
  error: { 'error-tag': string; 'error-message'?: string }[];
}

async function refusal(
  r: Response,
): Promise<{ status: number; tag: string | undefined; message: string | undefined }> {
  const errors = errorsBody(await r.text(), r.headers.get('content-type')) as Errors | undefined;
  const e = errors?.error[0];
  return { status: r.status, tag: e?.['error-tag'], message: e?.['error-message'] };
}

function post(s: Server, playlist: Record<string, string>): Promise<Response> {
  return s.fetch(JUKEBOX, {
    method: 'POST',
    headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
    body: JSON.stringify({ 'example-jukebox:playlist': [playlist] }),
  });
}

describe('default limits', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  test('a POST of a 100 KB list key is refused with 400 invalid-value naming the limit, and nothing changes', async () => {
    const before = await s.snapshot();
    const r = await post(s, { name: 'k'.repeat(100_000) });
    expect(r.headers.get('location')).toBeNull();
    const answer = await refusal(r);
    expect(answer).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(answer.message).toContain('1024 bytes');
    expect(await s.snapshot()).toBe(before);
  });

  test('a key of 1024 bytes is accepted and its Location header carries it', async () => {
    const r = await post(s, { name: 'k'.repeat(1024) });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toContain('k'.repeat(1024));
  });

  test('a list key counts in UTF-8 bytes: 400 two-byte characters (800 bytes) pass, 600 (1200 bytes) do not', async () => {
    expect((await post(s, { name: 'é'.repeat(400) })).status).toBe(201);
    expect((await refusal(await post(s, { name: 'é'.repeat(600) }))).status).toBe(400);
  });

  // A 100 KB URI is already refused by the HTTP server (431): 4 KB fits its header limit.
  test('a 4 KB key in the request URI is refused with 400 invalid-value', async () => {
    const r = await s.fetch(`${JUKEBOX}/playlist=${'k'.repeat(4096)}`, {
      method: 'PUT',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:playlist': [{ name: 'k'.repeat(4096) }] }),
    });
    const answer = await refusal(r);
    expect(answer).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(answer.message).toContain('1024 bytes');
  });

  test('a value over 1 MiB is refused in JSON and in XML, and nothing changes', async () => {
    const before = await s.snapshot();
    const big = 'x'.repeat(1024 * 1024 + 1);
    const json = await refusal(await post(s, { name: 'big', description: big }));
    expect(json).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(json.message).toContain('1048576 bytes');
    const xml = await s.fetch(`${JUKEBOX}/playlist=big`, {
      method: 'PUT',
      headers: { 'Content-Type': DATA_XML, Accept: DATA_JSON },
      body: `<playlist xmlns="http://example.com/ns/example-jukebox"><name>big</name><description>${big}</description></playlist>`,
    });
    expect(await refusal(xml)).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(await s.snapshot()).toBe(before);
  });
});

/** A YANG Patch of `edits` on the jukebox, in JSON. */
function yangPatch(s: Server, edits: Record<string, unknown>[]): Promise<Response> {
  return s.fetch(JUKEBOX, {
    method: 'PATCH',
    headers: { 'Content-Type': PATCH_JSON, Accept: DATA_JSON },
    body: JSON.stringify({ 'ietf-yang-patch:yang-patch': { 'patch-id': 'limits', edit: edits } }),
  });
}

// The same limits hold inside YANG Patch (RFC 8072): in edit values and in the keys of targets.
describe('default limits in YANG Patch', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  test('an edit value with a 100 KB list key is refused with 400 invalid-value naming the limit, and nothing changes', async () => {
    const before = await s.snapshot();
    const name = 'k'.repeat(100_000);
    const r = await yangPatch(s, [
      {
        'edit-id': 'long-key',
        operation: 'merge',
        target: '/',
        value: { 'example-jukebox:jukebox': { playlist: [{ name }] } },
      },
    ]);
    const answer = await refusal(r);
    expect(answer).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(answer.message).toContain('1024 bytes');
    expect(await s.snapshot()).toBe(before);
  });

  test('a target with a 4 KB list key is refused with 400 invalid-value naming the limit', async () => {
    const r = await yangPatch(s, [
      { 'edit-id': 'long-target', operation: 'delete', target: `/playlist=${'k'.repeat(4096)}` },
    ]);
    const answer = await refusal(r);
    expect(answer).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(answer.message).toContain('1024 bytes');
  });

  test('an edit value over 1 MiB is refused in JSON and in XML, and nothing changes', async () => {
    const before = await s.snapshot();
    const big = 'x'.repeat(1024 * 1024 + 1);
    const json = await yangPatch(s, [
      {
        'edit-id': 'big',
        operation: 'create',
        target: '/playlist=big',
        value: { 'example-jukebox:playlist': [{ name: 'big', description: big }] },
      },
    ]);
    expect(await refusal(json)).toMatchObject({ status: 400, tag: 'invalid-value' });
    const xml = await s.fetch(JUKEBOX, {
      method: 'PATCH',
      headers: { 'Content-Type': PATCH_XML, Accept: DATA_JSON },
      body: `<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>big</patch-id><edit><edit-id>big</edit-id><operation>create</operation><target>/playlist=big</target><value><playlist xmlns="http://example.com/ns/example-jukebox"><name>big</name><description>${big}</description></playlist></value></edit></yang-patch>`,
    });
    const answer = await refusal(xml);
    expect(answer).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(await s.snapshot()).toBe(before);
  });
});

describe('--max-key-length and --max-string-length', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ maxKeyLength: 32, maxStringLength: 2048 });
  });
  afterAll(() => s.close());

  test('set the limits in force', async () => {
    expect((await refusal(await post(s, { name: 'k'.repeat(33) }))).message).toContain('32 bytes');
    const value = await refusal(await post(s, { name: 'v', description: 'x'.repeat(2049) }));
    expect(value).toMatchObject({ status: 400, tag: 'invalid-value' });
    expect(value.message).toContain('2048 bytes');
    expect((await post(s, { name: 'k'.repeat(32), description: 'x'.repeat(2048) })).status).toBe(201);
  });

  test('set the limits in force inside YANG Patch', async () => {
    const key = await yangPatch(s, [
      { 'edit-id': 'k', operation: 'delete', target: `/playlist=${'k'.repeat(33)}` },
    ]);
    expect((await refusal(key)).message).toContain('32 bytes');
    const value = await yangPatch(s, [
      {
        'edit-id': 'v',
        operation: 'create',
        target: '/playlist=v',
        value: { 'example-jukebox:playlist': [{ name: 'v', description: 'x'.repeat(2049) }] },
      },
    ]);
    expect((await refusal(value)).message).toContain('2048 bytes');
  });
});
