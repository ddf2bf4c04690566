import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Gateway, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', { 'example-jukebox:jukebox': { library: {} } }));
});
afterAll(() => gw.close());

const LIB = '/restconf/data/example-jukebox:jukebox/library';

test('concurrent edits on the shared candidate neither mix nor leak a failed edit', async () => {
  const requests = Array.from({ length: 20 }, (_, i) =>
    i === 7
      ? // Fails in the backend (mandatory song location missing) after its edit reached the candidate.
        gw.fetch(
          LIB,
          json('POST', {
            'example-jukebox:artist': [{ name: 'broken', album: [{ name: 'x', song: [{ name: 's' }] }] }],
          }),
        )
      : gw.fetch(LIB, json('POST', { 'example-jukebox:artist': [{ name: `a${i}` }] })),
  );
  const statuses = (await Promise.all(requests)).map((r) => r.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(19);
  expect(statuses[7]).toBeGreaterThanOrEqual(400);
  const got = (await (await gw.fetch(`${LIB}?content=config`)).json()) as {
    'example-jukebox:library': { artist: { name: string }[] };
  };
  const names = got['example-jukebox:library'].artist.map((a) => a.name);
  expect(names).toHaveLength(19);
  expect(names).not.toContain('broken');
});

test('reads are answered while edits take turns on the candidate', async () => {
  // a7 was never created (its POST above was the broken one).
  const names = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10].map((i) => `a${i}`);
  const edits = names.map((n) =>
    gw.fetch(
      `${LIB}/artist=${n}`,
      json('PATCH', { 'example-jukebox:artist': [{ name: n, album: [{ name: 'new' }] }] }),
    ),
  );
  const reads = Array.from({ length: 10 }, () => gw.fetch(`${LIB}/artist=a1/name`));
  const [e, r] = await Promise.all([Promise.all(edits), Promise.all(reads)]);
  expect(e.map((x) => x.status)).toEqual(Array(10).fill(204));
  expect(r.map((x) => x.status)).toEqual(Array(10).fill(200));
});
