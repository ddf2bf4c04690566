import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from '../test/harness.js';

/**
 * One GET over real HTTP of the same resource through `/data` (the baseline, `<get>`) and
 * through the RFC 8527 datastores (`<get-data>`), so the cost of the NMDA path reads as a ratio
 * measured in the same run.
 */

let gw: Gateway;
const JB = 'example-jukebox:jukebox';
const ACCEPT = { headers: { accept: 'application/yang-data+json' } };

async function get(path: string): Promise<void> {
  const r = await gw.fetch(path, ACCEPT);
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  await r.arrayBuffer();
}

beforeAll(async () => {
  gw = await startGateway({ withNmda: true });
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

describe('GET the jukebox', () => {
  bench('/data (baseline)', () => get(`/restconf/data/${JB}`), { time: 2000 });
  bench('/ds running', () => get(`/restconf/ds/ietf-datastores:running/${JB}`), { time: 2000 });
  bench('/ds operational', () => get(`/restconf/ds/ietf-datastores:operational/${JB}`), { time: 2000 });
  bench(
    '/ds operational with-origin',
    () => get(`/restconf/ds/ietf-datastores:operational/${JB}?with-origin`),
    {
      time: 2000,
    },
  );
});
