import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsBody, type Server, startServer } from './harness.js';

// Request bodies refused before they reach the datastore: arrays nested deeper than the depth
// limit inside anydata (once a stack overflow and a 500) and bytes that are not UTF-8 (once
// replaced by U+FFFD and stored).
const JB = 'http://example.com/ns/example-jukebox';
const GAP = '/restconf/data/example-jukebox:jukebox/player/gap';
const SN = 'ietf-subscribed-notifications';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** The first error of an `ietf-restconf:errors` JSON body. */
async function firstError(r: Response): Promise<Record<string, string> | undefined> {
  const errors = errorsBody(await r.text(), r.headers.get('content-type')) as
    | { error: Record<string, string>[] }
    | undefined;
  return errors?.error[0];
}

describe('nesting inside anydata', () => {
  test('an establish-subscription filter of arrays nested 5,000 deep is 400, not 500', async () => {
    const arrays = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const r = await s.fetch(`/restconf/operations/${SN}:establish-subscription`, {
      method: 'POST',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: `{"${SN}:input":{"stream":"NETCONF","stream-subtree-filter":{"a":${arrays}}}}`,
    });
    expect(r.status).toBe(400);
    expect((await firstError(r))?.['error-tag']).toBe('malformed-message');
  });

  test('arrays nested 300 deep, within the text bound, are refused by the depth limit with 400', async () => {
    const arrays = `${'['.repeat(300)}${']'.repeat(300)}`;
    const r = await s.fetch(`/restconf/operations/${SN}:establish-subscription`, {
      method: 'POST',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: `{"${SN}:input":{"stream":"NETCONF","stream-subtree-filter":{"a":${arrays}}}}`,
    });
    expect(r.status).toBe(400);
    expect((await firstError(r))?.['error-message']).toContain('nesting deeper than');
  });

  test('a body of 4,000,000 nested arrays is refused with 400 before it is parsed', async () => {
    const r = await s.fetch(GAP, {
      method: 'PUT',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: `${'['.repeat(4_000_000)}${']'.repeat(4_000_000)}`,
    });
    expect(r.status).toBe(400);
    expect((await firstError(r))?.['error-message']).toContain('nests deeper than');
  });
});

describe('bodies that are not UTF-8', () => {
  const before = async (): Promise<string> => s.snapshot();

  test('a JSON body with a lone UTF-8 lead byte is 400 malformed-message and stores nothing', async () => {
    const snapshot = await before();
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox/playlist=Foo-One', {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_JSON, Accept: DATA_JSON },
      body: Buffer.concat([
        Buffer.from('{"example-jukebox:playlist":[{"name":"Foo-One","description":"a'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}]}'),
      ]),
    });
    expect(r.status).toBe(400);
    expect((await firstError(r))?.['error-tag']).toBe('malformed-message');
    expect(await s.snapshot()).toBe(snapshot);
  });

  test('an XML body with an invalid byte is 400 malformed-message and stores nothing', async () => {
    const snapshot = await before();
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox/playlist=Foo-One', {
      method: 'PATCH',
      headers: { 'Content-Type': DATA_XML, Accept: DATA_JSON },
      body: Buffer.concat([
        Buffer.from(`<playlist xmlns="${JB}"><name>Foo-One</name><description>a`),
        Buffer.from([0xff]),
        Buffer.from('</description></playlist>'),
      ]),
    });
    expect(r.status).toBe(400);
    expect((await firstError(r))?.['error-tag']).toBe('malformed-message');
    expect(await s.snapshot()).toBe(snapshot);
  });
});
