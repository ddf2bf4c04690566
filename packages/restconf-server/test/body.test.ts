import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

const JB = 'http://example.com/ns/example-jukebox';
const PLAYLIST = '/restconf/data/example-jukebox:jukebox/playlist=Foo-One';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

/** A body of `text` with the bytes `bad` where `@` stands. */
function withBytes(text: string, bad: number[]): Buffer {
  const [before, after] = text.split('@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);
}

async function description(): Promise<unknown> {
  const r = await gw.fetch(`${PLAYLIST}/description`, { headers: { Accept: 'application/yang-data+json' } });
  return ((await r.json()) as Record<string, unknown>)['example-jukebox:description'];
}

describe('request bodies that are not UTF-8', () => {
  test('refuses a JSON body with bytes that are not UTF-8 with 400 malformed-message', async () => {
    const body = withBytes('{"example-jukebox:description":"a@b"}', [0xc3, 0x28]);
    const r = await gw.fetch(`${PLAYLIST}/description`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/yang-data+json', Accept: 'application/yang-data+json' },
      body,
    });
    expect(r.status).toBe(400);
    const error = ((await r.json()) as { 'ietf-restconf:errors': { error: Record<string, string>[] } })[
      'ietf-restconf:errors'
    ].error[0];
    expect(error?.['error-tag']).toBe('malformed-message');
    expect(error?.['error-message']).toContain('not UTF-8');
    expect(await description()).toBe('example playlist 1');
  });

  test('refuses an XML body with a UTF-16 surrogate encoded in UTF-8 with 400 malformed-message', async () => {
    const body = withBytes(`<description xmlns="${JB}">a@b</description>`, [0xed, 0xa0, 0x80]);
    const r = await gw.fetch(`${PLAYLIST}/description`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/yang-data+xml', Accept: 'application/yang-data+xml' },
      body,
    });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('<error-tag>malformed-message</error-tag>');
    expect(await description()).toBe('example playlist 1');
  });

  test('stores multibyte UTF-8 characters as sent', async () => {
    const r = await gw.fetch(
      `${PLAYLIST}/description`,
      json('PUT', { 'example-jukebox:description': 'é😀' }),
    );
    expect(r.status).toBe(204);
    expect(await description()).toBe('é😀');
  });
});

describe('request bodies read in chunks', () => {
  /** PUTs the description `text` as JSON bytes sent in the given pieces (split at byte offsets). */
  function putInPieces(bytes: Buffer, cuts: number[]): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(`${gw.url}${PLAYLIST}/description`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/yang-data+json', 'Content-Length': bytes.length },
      });
      req.once('response', (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', reject);
      let from = 0;
      const next = (i: number): void => {
        if (i === cuts.length) {
          req.end(bytes.subarray(from));
          return;
        }
        req.write(bytes.subarray(from, cuts[i]));
        from = cuts[i]!;
        // Another turn of the event loop, so that each piece arrives as a chunk of its own.
        setTimeout(() => next(i + 1), 20);
      };
      next(0);
    });
  }

  test('stores a character whose UTF-8 bytes arrive in two chunks', async () => {
    const bytes = Buffer.from('{"example-jukebox:description":"x😀y"}');
    const inside = bytes.indexOf(Buffer.from('😀')) + 2;
    expect(await putInPieces(bytes, [inside])).toBe(204);
    expect(await description()).toBe('x😀y');
  });

  test('refuses a body whose last bytes are a UTF-8 sequence cut short with 400, not dropping them', async () => {
    const before = await description();
    const bytes = Buffer.concat([
      Buffer.from('{"example-jukebox:description":"a"}'),
      Buffer.from([0xf0, 0x9f]),
    ]);
    expect(await putInPieces(bytes, [10])).toBe(400);
    expect(await description()).toBe(before);
  });
});
