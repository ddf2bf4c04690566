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
