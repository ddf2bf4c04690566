import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, json, startGateway } from '../test/harness.js';

/**
 * One GET over real HTTP, one request at a time, of the whole `artist` list of the RFC 8040
 * example jukebox through the handler and the embedded NETCONF backend, at 1,000 and at 10,000
 * entries (one album each): the read path from the backend's reply to the encoded response, where
 * the cost grows with the data.
 */

const SIZES = [1000, 10_000];
const LIST = '/restconf/data/example-jukebox:jukebox/library/artist';
const gateways = new Map<number, Gateway>();

function jukebox(artists: number): unknown {
  const artist = [];
  for (let i = 0; i < artists; i++) {
    artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
  }
  return { 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } };
}

async function get(gw: Gateway, accept: string): Promise<void> {
  const r = await gw.fetch(LIST, { headers: { accept } });
  if (r.status !== 200) throw new Error(`${LIST}: ${r.status}`);
  await r.arrayBuffer();
}

beforeAll(async () => {
  for (const size of SIZES) {
    const gw = await startGateway();
    const r = await gw.fetch('/restconf/data', json('PUT', jukebox(size)));
    if (r.status !== 204) throw new Error(`loading ${size} artists failed: ${r.status} ${await r.text()}`);
    gateways.set(size, gw);
  }
}, 120_000);
afterAll(async () => {
  for (const gw of gateways.values()) await gw.close();
});

for (const size of SIZES) {
  describe(`GET the whole artist list, ${size.toLocaleString('en')} entries`, () => {
    bench('JSON', () => get(gateways.get(size)!, 'application/yang-data+json'), { time: 3000 });
    bench('XML', () => get(gateways.get(size)!, 'application/yang-data+xml'), { time: 3000 });
  });
}
