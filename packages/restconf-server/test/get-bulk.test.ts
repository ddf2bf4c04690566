import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  const artist = Array.from({ length: 25 }, (_, i) => ({ name: `a${String(i).padStart(2, '0')}` }));
  await gw.fetch('/restconf/data', json('PUT', { 'example-jukebox:jukebox': { library: { artist } } }));
});
afterAll(() => gw.close());

const OP = '/restconf/operations/yangkit-get-bulk:get-bulk';
const TARGET = '/example-jukebox:jukebox/library/artist';

interface Page {
  'yangkit-get-bulk:output': {
    bulk: { data: { 'example-jukebox:artist'?: { name: string }[] }; 'last-keys'?: Record<string, string> };
  };
}

async function page(input: Record<string, unknown>): Promise<Page> {
  const r = await gw.fetch(OP, json('POST', { 'yangkit-get-bulk:input': input }));
  expect(r.status).toBe(200);
  return (await r.json()) as Page;
}

describe('get-bulk', () => {
  test('the first page answers count entries and the keys of the last one', async () => {
    const p = await page({ 'list-target': TARGET, count: 10 });
    const bulk = p['yangkit-get-bulk:output'].bulk;
    expect(bulk.data['example-jukebox:artist']!.map((a) => a.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `a${String(i).padStart(2, '0')}`),
    );
    expect(bulk['last-keys']).toEqual({ 'example-jukebox:name': 'a09' });
  });

  test('paging with last-keys walks the whole list once', async () => {
    const seen: string[] = [];
    let last: Record<string, string> | undefined;
    for (let i = 0; i < 10; i++) {
      const p = await page({ 'list-target': TARGET, count: 10, ...(last ? { 'last-keys': last } : {}) });
      const bulk = p['yangkit-get-bulk:output'].bulk;
      const names = bulk.data['example-jukebox:artist']?.map((a) => a.name) ?? [];
      seen.push(...names);
      if (bulk['last-keys'] === undefined) break;
      last = bulk['last-keys'];
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  test('the page after the last entry is empty', async () => {
    const p = await page({ 'list-target': TARGET, 'last-keys': { 'example-jukebox:name': 'a24' } });
    expect(p['yangkit-get-bulk:output'].bulk).toEqual({ data: {} });
  });

  test('a list-target that is not a list is 400', async () => {
    const r = await gw.fetch(
      OP,
      json('POST', { 'yangkit-get-bulk:input': { 'list-target': '/example-jukebox:jukebox/library' } }),
    );
    expect(r.status).toBe(400);
  });

  test('the XML form carries last-keys in the list namespace', async () => {
    const r = await gw.fetch(OP, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml' },
      body: `<input xmlns="urn:yangkit:params:xml:ns:yang:yangkit-get-bulk"><list-target>${TARGET}</list-target><count>2</count></input>`,
    });
    const text = await r.text();
    expect(text).toContain(
      '<last-keys><name xmlns="http://example.com/ns/example-jukebox">a01</name></last-keys>',
    );
    expect(text).toContain(
      '<data xmlns:ya="urn:yangkit:params:xml:ns:yangkit-attrs" ya:datapath="/example-jukebox:jukebox/library">',
    );
  });
});
