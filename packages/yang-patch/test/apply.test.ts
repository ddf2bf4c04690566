import { encodeJson, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { type ApplyResult, applyPlan, parseYangPatch, planPatch } from '../src/index.js';
import { ALBUM, applyJson, jsonPatch, jukeboxDatastore, jukeboxSchema } from './helpers.js';

let schema: SchemaTree;
let store: InstanceTree;
beforeAll(async () => {
  schema = await jukeboxSchema();
  store = jukeboxDatastore(schema);
});

const PLAYLIST = '/example-jukebox:jukebox/playlist=Foo-One';
const ID =
  "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Bridge Burning']";
const song = (name: string) => ({ 'example-jukebox:song': [{ name, location: `/media/${name}.mp3` }] });
const entry = (index: number) => ({ 'example-jukebox:song': [{ index, id: ID }] });

// biome-ignore lint/suspicious/noExplicitAny: the encoder's JSON, read back only to assert on it
function json(result: ApplyResult): Record<string, any> {
  if (!result.ok) throw result.error;
  return JSON.parse(encodeJson(result.tree));
}
const songs = (r: ApplyResult): string[] =>
  json(r)['example-jukebox:jukebox'].library.artist[0].album[0].song.map((s: { name: string }) => s.name);
const order = (r: ApplyResult): number[] =>
  json(r)['example-jukebox:jukebox'].playlist[0].song.map((s: { index: number }) => s.index);
const dns = (r: ApplyResult): string[] => json(r)['patch-test:settings'].dns;

describe('the edit rules of RFC 8072 section 2.5', () => {
  test('create adds a node that does not exist', () => {
    expect(
      songs(
        applyJson(
          schema,
          store,
          [{ 'edit-id': 'c', operation: 'create', target: '/song=Rope', value: song('Rope') }],
          ALBUM,
        ),
      ),
    ).toEqual(['Bridge Burning', 'Rope']);
  });

  test('create of existing data fails with error-tag data-exists and the node path', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'c',
          operation: 'create',
          target: '/song=Bridge%20Burning',
          value: song('Bridge Burning'),
        },
      ],
      ALBUM,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({
      code: 'DATA_EXISTS',
      errorTag: 'data-exists',
      editId: 'c',
      patchId: 'p1',
    });
    expect(r.error.errorPath?.json).toBe(`${ID}`);
  });

  test('delete of missing data fails with error-tag data-missing', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'd', operation: 'delete', target: '/song=Nope' }],
      ALBUM,
    );
    expect(r.ok ? undefined : r.error).toMatchObject({
      code: 'DATA_MISSING',
      errorTag: 'data-missing',
      editId: 'd',
    });
  });

  test('delete removes existing data', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'd', operation: 'delete', target: '/playlist=Foo-One' }],
      '/example-jukebox:jukebox',
    );
    expect(json(r)['example-jukebox:jukebox'].playlist).toBeUndefined();
  });

  test('remove of missing data succeeds silently', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'r', operation: 'remove', target: '/song=Nope' }],
      ALBUM,
    );
    expect(songs(r)).toEqual(['Bridge Burning']);
  });

  test('merge updates leaves of an existing node and keeps the others', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'm',
          operation: 'merge',
          target: '/song=Bridge%20Burning',
          value: { 'example-jukebox:song': [{ name: 'Bridge Burning', length: 300 }] },
        },
      ],
      ALBUM,
    );
    const s = json(r)['example-jukebox:jukebox'].library.artist[0].album[0].song[0];
    expect(s).toEqual({
      name: 'Bridge Burning',
      location: '/media/bridge_burning.mp3',
      format: 'MP3',
      length: 300,
    });
  });

  test('replace drops the leaves the value does not hold', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'r',
          operation: 'replace',
          target: '/song=Bridge%20Burning',
          value: song('Bridge Burning'),
        },
      ],
      ALBUM,
    );
    const s = json(r)['example-jukebox:jukebox'].library.artist[0].album[0].song[0];
    expect(s).toEqual({ name: 'Bridge Burning', location: '/media/Bridge Burning.mp3' });
  });

  test('replace keeps a user-ordered entry in its place', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'r', operation: 'replace', target: '/song=2', value: entry(2) }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([1, 2, 3, 4]);
  });

  test('merge creates the missing ancestors of its target', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'm',
          operation: 'merge',
          target: '/artist=Nirvana/album=Nevermind',
          value: { 'example-jukebox:album': [{ name: 'Nevermind', year: 1991 }] },
        },
      ],
      '/example-jukebox:jukebox/library',
    );
    expect(json(r)['example-jukebox:jukebox'].library.artist[1]).toEqual({
      name: 'Nirvana',
      album: [{ name: 'Nevermind', year: 1991 }],
    });
  });
});

describe('a failing edit', () => {
  const edits = [
    { 'edit-id': 'edit1', operation: 'create', target: '/song=Rope', value: song('Rope') },
    {
      'edit-id': 'edit2',
      operation: 'create',
      target: '/song=Bridge%20Burning',
      value: song('Bridge Burning'),
    },
    { 'edit-id': 'edit3', operation: 'create', target: '/song=Walk', value: song('Walk') },
  ];

  test('stops the patch and is the one reported', () => {
    const r = applyJson(schema, store, edits, ALBUM);
    expect(r.ok ? undefined : r.error.editId).toBe('edit2');
  });

  test('leaves the datastore unchanged, earlier edits included', () => {
    const before = encodeJson(store);
    applyJson(schema, store, edits, ALBUM);
    expect(encodeJson(store)).toBe(before);
  });

  test('is reported as a global error when only the validated result breaks a constraint', () => {
    const r = applyJson(schema, store, [
      {
        'edit-id': 'm',
        operation: 'merge',
        target: '/patch-test:settings/mtu',
        value: { 'patch-test:mtu': 1500 },
      },
    ]);
    expect(r.ok ? undefined : r.error).toMatchObject({ editId: undefined, errorTag: 'missing-element' });
  });

  test('declares the prefixes of a validation error-path for the XML status', () => {
    const r = applyJson(schema, store, [
      {
        'edit-id': 'm',
        operation: 'merge',
        target: '/patch-test:settings/mtu',
        value: { 'patch-test:mtu': 1500 },
      },
    ]);
    expect(r.ok ? undefined : r.error.errorPath).toEqual({
      json: '/patch-test:settings/mode',
      xml: '/pt:settings/pt:mode',
      namespaces: { pt: 'urn:yangkit:test:patch' },
    });
  });

  test('can be applied without the final validation', () => {
    const patch = parseYangPatch(
      schema,
      jsonPatch([
        {
          'edit-id': 'm',
          operation: 'merge',
          target: '/patch-test:settings/mtu',
          value: { 'patch-test:mtu': 1500 },
        },
      ]),
      { encoding: 'json' },
    );
    expect(applyPlan(store, planPatch(patch), { validate: false }).ok).toBe(true);
  });
});

describe('insert and move in the jukebox playlist', () => {
  test('insert first puts the entry at the start', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'i', operation: 'insert', target: '/song=9', where: 'first', value: entry(9) }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([9, 1, 2, 3, 4]);
  });

  test('insert without where appends the entry (where defaults to last)', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'i', operation: 'insert', target: '/song=9', value: entry(9) }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([1, 2, 3, 4, 9]);
  });

  test('insert before a point puts the entry in front of it', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'i',
          operation: 'insert',
          target: '/song=9',
          where: 'before',
          point: '/song=3',
          value: entry(9),
        },
      ],
      PLAYLIST,
    );
    expect(order(r)).toEqual([1, 2, 9, 3, 4]);
  });

  test('insert of an existing entry fails with data-exists', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'i', operation: 'insert', target: '/song=2', where: 'first', value: entry(2) }],
      PLAYLIST,
    );
    expect(r.ok ? undefined : r.error.errorTag).toBe('data-exists');
  });

  test('insert after a missing point fails with bad-attribute missing-instance', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'i',
          operation: 'insert',
          target: '/song=9',
          where: 'after',
          point: '/song=7',
          value: entry(9),
        },
      ],
      PLAYLIST,
    );
    expect(r.ok ? undefined : r.error).toMatchObject({
      code: 'POINT_MISSING',
      errorTag: 'bad-attribute',
      errorAppTag: 'missing-instance',
    });
  });

  test('move last sends the entry to the end', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'm', operation: 'move', target: '/song=1', where: 'last' }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([2, 3, 4, 1]);
  });

  test('move first brings the entry to the start', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'm', operation: 'move', target: '/song=4', where: 'first' }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([4, 1, 2, 3]);
  });

  test('move before a point puts the entry in front of it', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'm', operation: 'move', target: '/song=4', where: 'before', point: '/song=2' }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([1, 4, 2, 3]);
  });

  test('finds an entry whose key is written in a non-canonical form', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'd', operation: 'delete', target: '/song=01' }],
      PLAYLIST,
    );
    expect(order(r)).toEqual([2, 3, 4]);
  });

  test('move of a missing entry fails with data-missing', () => {
    const r = applyJson(
      schema,
      store,
      [{ 'edit-id': 'm', operation: 'move', target: '/song=8', where: 'first' }],
      PLAYLIST,
    );
    expect(r.ok ? undefined : r.error.errorTag).toBe('data-missing');
  });

  test('later edits see the order earlier edits made', () => {
    const r = applyJson(
      schema,
      store,
      [
        { 'edit-id': 'a', operation: 'insert', target: '/song=9', where: 'first', value: entry(9) },
        { 'edit-id': 'b', operation: 'move', target: '/song=1', where: 'after', point: '/song=9' },
        { 'edit-id': 'c', operation: 'move', target: '/song=4', where: 'before', point: '/song=9' },
      ],
      PLAYLIST,
    );
    expect(order(r)).toEqual([4, 9, 1, 2, 3]);
  });
});

describe('insert and move in a user-ordered leaf-list', () => {
  const base = [
    {
      'edit-id': 'seed',
      operation: 'merge',
      target: '/',
      value: { 'patch-test:settings': { mode: 'm', dns: ['a', 'b', 'c'] } },
    },
  ];

  test('insert after a value places the new value behind it', () => {
    const r = applyJson(schema, store, [
      ...base,
      {
        'edit-id': 'i',
        operation: 'insert',
        target: '/patch-test:settings/dns=x',
        where: 'after',
        point: '/patch-test:settings/dns=a',
        value: { 'patch-test:dns': ['x'] },
      },
    ]);
    expect(dns(r)).toEqual(['a', 'x', 'b', 'c']);
  });

  test('move first reorders an existing value', () => {
    const r = applyJson(schema, store, [
      ...base,
      { 'edit-id': 'm', operation: 'move', target: '/patch-test:settings/dns=c', where: 'first' },
    ]);
    expect(dns(r)).toEqual(['c', 'a', 'b']);
  });

  test('delete of one value keeps the others', () => {
    const r = applyJson(schema, store, [
      ...base,
      { 'edit-id': 'd', operation: 'delete', target: '/patch-test:settings/dns=b' },
    ]);
    expect(dns(r)).toEqual(['a', 'c']);
  });

  test('replace of the whole leaf-list drops the values it does not hold', () => {
    const r = applyJson(schema, store, [
      ...base,
      {
        'edit-id': 'r',
        operation: 'replace',
        target: '/patch-test:settings/dns',
        value: { 'patch-test:dns': ['z', 'a'] },
      },
    ]);
    expect(dns(r)).toEqual(['z', 'a']);
  });
});

describe('the datastore as request target', () => {
  test('a merge of "/" merges every top-level node of the value', () => {
    const r = applyJson(schema, store, [
      {
        'edit-id': 'e',
        operation: 'merge',
        target: '/',
        value: {
          'example-jukebox:jukebox': { player: { gap: '0.5' } },
          'patch-test:settings': { mode: 'x' },
        },
      },
    ]);
    const data = json(r);
    expect(data['example-jukebox:jukebox'].player).toEqual({ gap: '0.5' });
    expect(data['example-jukebox:jukebox'].playlist[0].song).toHaveLength(4);
    expect(data['patch-test:settings']).toEqual({ mode: 'x' });
  });

  test('a replace of "/" replaces the request target itself', () => {
    const r = applyJson(
      schema,
      store,
      [
        {
          'edit-id': 'r',
          operation: 'replace',
          target: '/',
          value: {
            'example-jukebox:playlist': [
              { name: 'Foo-One', description: 'new', song: [entry(7)['example-jukebox:song'][0]] },
            ],
          },
        },
      ],
      PLAYLIST,
    );
    expect(json(r)['example-jukebox:jukebox'].playlist).toEqual([
      { name: 'Foo-One', description: 'new', song: [{ index: 7, id: ID }] },
    ]);
  });

  test('edits with module-qualified targets apply from the top', () => {
    const r = applyJson(schema, store, [
      {
        'edit-id': 'a',
        operation: 'create',
        target: '/patch-test:palette=patch-test%3Ared',
        value: { 'patch-test:palette': [{ colour: 'patch-test:red', hex: '#f00' }] },
      },
      { 'edit-id': 'b', operation: 'delete', target: '/example-jukebox:jukebox/playlist=Foo-One/song=2' },
    ]);
    const data = json(r);
    expect(data['patch-test:palette']).toEqual([{ colour: 'red', hex: '#f00' }]);
    expect(data['example-jukebox:jukebox'].playlist[0].song.map((s: { index: number }) => s.index)).toEqual([
      1, 3, 4,
    ]);
  });
});
