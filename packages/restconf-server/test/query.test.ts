import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

const JB = '/restconf/data/example-jukebox:jukebox';

async function body(path: string, accept = 'application/yang-data+json'): Promise<unknown> {
  const r = await gw.fetch(path, { headers: { accept } });
  expect(r.status).toBe(200);
  return accept.endsWith('json') ? r.json() : r.text();
}

describe('content (RFC 8040 B.3.1)', () => {
  test('content=config leaves state data out', async () => {
    const got = (await body(`${JB}/library?content=config`)) as Record<string, Record<string, unknown>>;
    expect(got['example-jukebox:library']).not.toHaveProperty('artist-count');
    expect(got['example-jukebox:library']).toHaveProperty('artist');
  });

  test('content=nonconfig keeps only state data', async () => {
    const got = await body(`${JB}/library?content=nonconfig`);
    expect(got).toEqual({
      'example-jukebox:library': { 'artist-count': 1, 'album-count': 1, 'song-count': 1 },
    });
  });

  test('content=all (the default) has both', async () => {
    const got = (await body(`${JB}/library`)) as Record<string, Record<string, unknown>>;
    expect(got['example-jukebox:library']).toHaveProperty('artist-count', 1);
    expect(got['example-jukebox:library']).toHaveProperty('artist');
  });

  test('content on a POST is 400', async () => {
    const r = await gw.fetch(
      `${JB}/library?content=config`,
      json('POST', { 'example-jukebox:artist': [{ name: 'X' }] }),
    );
    expect(r.status).toBe(400);
  });
});

describe('depth (RFC 8040 B.3.2)', () => {
  test('depth=1 answers the target alone', async () => {
    expect(await body(`${JB}?depth=1`)).toEqual({ 'example-jukebox:jukebox': {} });
  });

  test('depth=2 shows each artist entry of the library as an empty node', async () => {
    const got = (await body(`${JB}/library?depth=2&content=config`)) as Record<string, unknown>;
    expect(got).toEqual({ 'example-jukebox:library': { artist: [{}] } });
  });

  test('depth=unbounded answers everything', async () => {
    const got = JSON.stringify(await body(`${JB}?depth=unbounded`));
    expect(got).toContain('Rope');
  });

  test('depth=0 is 400', async () => {
    const r = await gw.fetch(`${JB}?depth=0`);
    expect(r.status).toBe(400);
  });
});

describe('fields (RFC 8040 B.3.3)', () => {
  test('fields selects the named descendants and keeps the target entry key', async () => {
    const got = await body(`${JB}/library/artist=Foo%20Fighters?fields=album(name;year)`);
    expect(got).toEqual({
      'example-jukebox:artist': [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
    });
  });

  test('list entries on the way to a selected node keep their keys', async () => {
    const got = await body(`${JB}/library?fields=artist/album/year`);
    expect(got).toEqual({
      'example-jukebox:library': {
        artist: [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
      },
    });
  });

  test('the target entry key is kept in XML too', async () => {
    const got = (await body(
      `${JB}/library/artist=Foo%20Fighters?fields=album/year`,
      'application/yang-data+xml',
    )) as string;
    expect(got).toContain('<name>Foo Fighters</name>');
    expect(got).toContain('<year>2011</year>');
  });

  test('a malformed fields expression is 400', async () => {
    const r = await gw.fetch(`${JB}?fields=library(`);
    expect(r.status).toBe(400);
  });

  test('fields naming no schema node below the target is 400 unknown-element', async () => {
    for (const fields of ['nope', 'library(nope)', 'library/artist/nope']) {
      const r = await gw.fetch(`${JB}?fields=${fields}`);
      expect([fields, r.status]).toEqual([fields, 400]);
      const error = ((await r.json()) as { 'ietf-restconf:errors': { error: { 'error-tag': string }[] } })[
        'ietf-restconf:errors'
      ].error[0];
      expect(error?.['error-tag']).toBe('unknown-element');
    }
  });

  test('fields on the datastore needs module-qualified top-level names', async () => {
    expect((await gw.fetch('/restconf/data?fields=jukebox')).status).toBe(400);
    expect((await gw.fetch('/restconf/data?fields=example-jukebox:nope')).status).toBe(400);
    expect((await gw.fetch('/restconf/data?fields=example-jukebox:jukebox/library')).status).toBe(200);
  });
});

describe('with-defaults (RFC 8040 B.3.9)', () => {
  const IF = '/restconf/data/ietf-interfaces:interfaces';
  const eth = (extra: Record<string, unknown> = {}) => ({
    'ietf-interfaces:interfaces': {
      interface: [{ name: 'eth0', type: 'iana-if-type:ethernetCsmacd', ...extra }],
    },
  });

  test('explicit (the default style) answers what was set', async () => {
    await gw.fetch(IF, json('PUT', eth()));
    const got = (await body(`${IF}/interface=eth0?content=config`)) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(got['ietf-interfaces:interface']![0]).not.toHaveProperty('enabled');
  });

  test('report-all adds default values the datastore does not hold', async () => {
    await gw.fetch(IF, json('PUT', eth()));
    const got = (await body(`${IF}/interface=eth0?content=config&with-defaults=report-all`)) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(got['ietf-interfaces:interface']![0]).toHaveProperty('enabled', true);
  });

  test('report-all-tagged marks default values with the RFC 6243 annotation', async () => {
    await gw.fetch(IF, json('PUT', eth()));
    const got = (await body(`${IF}/interface=eth0?content=config&with-defaults=report-all-tagged`)) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(got['ietf-interfaces:interface']![0]).toHaveProperty('@enabled', {
      'ietf-netconf-with-defaults:default': true,
    });
  });

  test('trim leaves out values equal to their default', async () => {
    await gw.fetch(IF, json('PUT', eth({ enabled: true })));
    const got = (await body(`${IF}/interface=eth0?content=config&with-defaults=trim`)) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(got['ietf-interfaces:interface']![0]).not.toHaveProperty('enabled');
  });

  test('--default-style decides when the query names no mode', async () => {
    const other = await startGateway({ defaultStyle: 'report-all' });
    try {
      await other.fetch(IF, json('PUT', eth()));
      const r = await other.fetch(`${IF}/interface=eth0?content=config`);
      const got = (await r.json()) as Record<string, Record<string, unknown>[]>;
      expect(got['ietf-interfaces:interface']![0]).toHaveProperty('enabled', true);
    } finally {
      await other.close();
    }
  });

  test('a leaf with a default and no value answers the default in use', async () => {
    await gw.fetch(IF, json('PUT', eth()));
    expect(await body(`${IF}/interface=eth0/enabled`)).toEqual({ 'ietf-interfaces:enabled': true });
  });

  test('the default of a leaf whose list entry is absent is 404', async () => {
    await gw.fetch(IF, json('PUT', eth()));
    expect((await gw.fetch(`${IF}/interface=nope/enabled`)).status).toBe(404);
  });

  test('an unknown with-defaults value is 400', async () => {
    const r = await gw.fetch(`${JB}?with-defaults=sometimes`);
    expect(r.status).toBe(400);
  });
});

describe('insert and point (RFC 8040 B.3.4, B.3.5)', () => {
  const SONGS = `${JB}/playlist=Foo-One`;
  const id = (n: string) =>
    `/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='${n}']`;

  test('insert=first and insert=after place entries of a user-ordered list', async () => {
    const album = `${JB}/library/artist=Foo%20Fighters/album=Wasting%20Light`;
    for (const n of ['A', 'B', 'C']) {
      await gw.fetch(album, json('POST', { 'example-jukebox:song': [{ name: n, location: `/m/${n}` }] }));
    }
    expect(
      (await gw.fetch(SONGS, json('POST', { 'example-jukebox:song': [{ index: 1, id: id('A') }] }))).status,
    ).toBe(201);
    expect(
      (
        await gw.fetch(
          `${SONGS}?insert=first`,
          json('POST', { 'example-jukebox:song': [{ index: 2, id: id('B') }] }),
        )
      ).status,
    ).toBe(201);
    const r = await gw.fetch(
      `${SONGS}?insert=after&point=${encodeURIComponent('/example-jukebox:jukebox/playlist=Foo-One/song=2')}`,
      json('POST', { 'example-jukebox:song': [{ index: 3, id: id('C') }] }),
    );
    expect(r.status).toBe(201);
    const got = (await body(`${SONGS}?fields=song/index`)) as {
      'example-jukebox:playlist': { song: { index: number }[] }[];
    };
    expect(got['example-jukebox:playlist'][0]!.song.map((s) => s.index)).toEqual([2, 3, 1]);
  });

  test('insert on a POST of a list entry not ordered-by user is 400 and creates nothing', async () => {
    const r = await gw.fetch(
      `${JB}/library?insert=first`,
      json('POST', { 'example-jukebox:artist': [{ name: 'Ordered' }] }),
    );
    expect(r.status).toBe(400);
    expect((await gw.fetch(`${JB}/library/artist=Ordered`)).status).toBe(404);
  });

  test('point on a PUT of a list entry not ordered-by user is 400 and creates nothing', async () => {
    const point = encodeURIComponent('/example-jukebox:jukebox/library/artist=Foo%20Fighters');
    const r = await gw.fetch(
      `${JB}/library/artist=Ordered?insert=after&point=${point}`,
      json('PUT', { 'example-jukebox:artist': [{ name: 'Ordered' }] }),
    );
    expect(r.status).toBe(400);
    expect((await gw.fetch(`${JB}/library/artist=Ordered`)).status).toBe(404);
  });

  test('insert=before without point is 400', async () => {
    const r = await gw.fetch(
      `${SONGS}?insert=before`,
      json('POST', { 'example-jukebox:song': [{ index: 9, id: id('A') }] }),
    );
    expect(r.status).toBe(400);
  });
});
