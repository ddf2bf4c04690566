import { connectStream } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryChangeClock } from '../src/change-clock.js';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

const JB = '/restconf/data/example-jukebox:jukebox';
const GAP = `${JB}/player/gap`;

async function etag(): Promise<string> {
  return (await gw.fetch('/restconf/data', { method: 'HEAD' })).headers.get('etag')!;
}

describe('entity tags (RFC 8040 3.4.1.2)', () => {
  test('the datastore and data resources carry ETag and Last-Modified', async () => {
    for (const p of ['/restconf/data', JB]) {
      const r = await gw.fetch(p);
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
      expect(Date.parse(r.headers.get('last-modified')!)).not.toBeNaN();
    }
  });

  test('If-None-Match with the current tag is 304 without a body', async () => {
    const tag = await etag();
    const r = await gw.fetch(JB, { headers: { 'if-none-match': tag } });
    expect(r.status).toBe(304);
    expect(await r.text()).toBe('');
  });

  test('If-None-Match with an old tag answers 200', async () => {
    const r = await gw.fetch(JB, { headers: { 'if-none-match': '"old-1"' } });
    expect(r.status).toBe(200);
  });

  test('an edit changes the tag', async () => {
    const before = await etag();
    await gw.fetch(GAP, json('PATCH', { 'example-jukebox:gap': '0.9' }));
    expect(await etag()).not.toBe(before);
  });

  test('an edit with If-Match of the current tag succeeds', async () => {
    const r = await gw.fetch(
      GAP,
      json('PATCH', { 'example-jukebox:gap': '1.0' }, { 'if-match': await etag() }),
    );
    expect(r.status).toBe(204);
  });

  test('an edit with If-Match of an old tag is 412 and writes nothing', async () => {
    const r = await gw.fetch(GAP, json('PATCH', { 'example-jukebox:gap': '1.2' }, { 'if-match': '"old-1"' }));
    expect(r.status).toBe(412);
    expect(await (await gw.fetch(GAP)).json()).toEqual({ 'example-jukebox:gap': '1.0' });
  });

  test('POST with If-None-Match: * of an existing datastore is 412', async () => {
    const r = await gw.fetch(
      `${JB}/library`,
      json('POST', { 'example-jukebox:artist': [{ name: 'Z' }] }, { 'if-none-match': '*' }),
    );
    expect(r.status).toBe(412);
  });

  test('a change by another NETCONF client changes the tag', async () => {
    const before = await etag();
    const [a, b] = duplexPair();
    gw.netconf.connect(a, { username: 'other' });
    const session = await connectStream(b);
    await session.editConfig({
      target: 'candidate',
      config:
        '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>0.2</gap></player></jukebox>',
    });
    await session.commit();
    await session.close();
    await expect.poll(etag, { timeout: 2000, interval: 20 }).not.toBe(before);
    expect(await (await gw.fetch(GAP)).json()).toEqual({ 'example-jukebox:gap': '0.2' });
  });
});

describe('timestamps (RFC 8040 3.4.1.3)', () => {
  test('If-Modified-Since equal to Last-Modified is 304, also right after a change', async () => {
    let now = Date.now();
    const clock = memoryChangeClock(() => now);
    const other = await startGateway({ clock });
    try {
      const ims = async () => {
        const last = (await other.fetch('/restconf/data')).headers.get('last-modified')!;
        return (await other.fetch('/restconf/data', { headers: { 'if-modified-since': last } })).status;
      };
      expect(await ims()).toBe(304);
      now += 2000;
      expect((await other.fetch(GAP, json('PUT', { 'example-jukebox:gap': '0.4' }))).status).toBe(201);
      expect(await ims()).toBe(304);
    } finally {
      await other.close();
    }
  });

  test('a change in the second of a sent Last-Modified is never hidden behind 304', async () => {
    let now = Date.now();
    const clock = memoryChangeClock(() => now);
    const other = await startGateway({ clock });
    try {
      const before = (await other.fetch('/restconf/data')).headers.get('last-modified')!;
      // Same second: the date sent before the change no longer tells the states apart.
      expect((await other.fetch(GAP, json('PUT', { 'example-jukebox:gap': '0.4' }))).status).toBe(201);
      const during = await other.fetch('/restconf/data', { headers: { 'if-modified-since': before } });
      expect([during.status, during.headers.get('last-modified')]).toEqual([200, before]);
      // The next second the state gets a later date of its own: the old one is still modified.
      now += 1000;
      const after = await other.fetch('/restconf/data', { headers: { 'if-modified-since': before } });
      expect(after.status).toBe(200);
      const last = after.headers.get('last-modified')!;
      expect(Date.parse(last)).toBeGreaterThan(Date.parse(before));
      const again = await other.fetch('/restconf/data', { headers: { 'if-modified-since': last } });
      expect(again.status).toBe(304);
    } finally {
      await other.close();
    }
  });

  test('If-Modified-Since before the last change answers 200', async () => {
    const r = await gw.fetch(JB, { headers: { 'if-modified-since': new Date(0).toUTCString() } });
    expect(r.status).toBe(200);
  });

  test('If-Unmodified-Since before the last change is 412 on an edit', async () => {
    const r = await gw.fetch(
      GAP,
      json('PATCH', { 'example-jukebox:gap': '1.3' }, { 'if-unmodified-since': new Date(0).toUTCString() }),
    );
    expect(r.status).toBe(412);
  });

  test('If-Unmodified-Since in the future lets an edit through', async () => {
    const r = await gw.fetch(
      GAP,
      json(
        'PATCH',
        { 'example-jukebox:gap': '1.3' },
        { 'if-unmodified-since': new Date(Date.now() + 86_400_000).toUTCString() },
      ),
    );
    expect(r.status).toBe(204);
  });
});
