import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

test('smoke', async () => {
  let r = await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
  console.log(r.status, await r.text());
  r = await gw.fetch('/restconf/data/example-jukebox:jukebox');
  console.log(r.status, [...r.headers], await r.text());
  r = await gw.fetch('/restconf/data/example-jukebox:jukebox/library', json('POST', { 'example-jukebox:artist': [{ name: 'Nick Cave' }] }));
  console.log(r.status, [...r.headers], await r.text());
  r = await gw.fetch('/restconf/data/example-jukebox:jukebox/library/artist=Nick%20Cave', { headers: { accept: 'application/yang-data+xml' } });
  console.log(r.status, await r.text());
  r = await gw.fetch('/restconf/data?depth=2');
  console.log(r.status, await r.text());
  expect(1).toBe(1);
});
