import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { parseYangPatch } from '../src/index.js';
import { ALBUM, jsonPatch, jukeboxSchema, patchError, SHARED_YANG } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await jukeboxSchema();
});

const song = (name: string) => ({ 'example-jukebox:song': [{ name, location: `/media/${name}.mp3` }] });
const json = (edits: Record<string, unknown>[], target = ALBUM) =>
  parseYangPatch(schema, jsonPatch(edits), { encoding: 'json', target });
const xml = (body: string, target = ALBUM) => parseYangPatch(schema, body, { encoding: 'xml', target });
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-patch';

describe('a well-formed patch', () => {
  test('keeps patch-id, comment and the edits in order', () => {
    const body = JSON.stringify({
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'p',
        comment: 'two songs',
        edit: [
          { 'edit-id': 'b', operation: 'create', target: '/song=B', value: song('B') },
          { 'edit-id': 'a', operation: 'remove', target: '/song=A' },
        ],
      },
    });
    const patch = parseYangPatch(schema, body, { encoding: 'json', target: ALBUM });
    expect(patch.patchId).toBe('p');
    expect(patch.comment).toBe('two songs');
    expect(patch.edits.map((e) => e.editId)).toEqual(['b', 'a']);
  });

  test('resolves a target relative to the request target', () => {
    const [edit] = json([{ 'edit-id': 'e', operation: 'delete', target: '/song=Rope' }]).edits;
    expect(edit!.target.map((s) => s.schema.name)).toEqual(['jukebox', 'library', 'artist', 'album', 'song']);
    expect(edit!.target[4]!.keys).toEqual([{ name: 'name', value: 'Rope' }]);
  });

  test('takes "/" as the request target itself', () => {
    const [edit] = json([
      {
        'edit-id': 'e',
        operation: 'merge',
        target: '/',
        value: { 'example-jukebox:album': [{ name: 'Wasting Light', year: 2011 }] },
      },
    ]).edits;
    expect(edit!.target.map((s) => s.schema.name)).toEqual(['jukebox', 'library', 'artist', 'album']);
  });

  test('accepts a bare member name in value as the target module (RFC 8072 A.1.2)', () => {
    const [edit] = json([
      {
        'edit-id': 'e',
        operation: 'create',
        target: '/song=R',
        value: { song: [{ name: 'R', location: 'x' }] },
      },
    ]).edits;
    expect(edit!.value![0]!.schema.name).toBe('song');
  });

  test('accepts the envelope leaves written module-qualified', () => {
    const body = JSON.stringify({
      'ietf-yang-patch:yang-patch': {
        'ietf-yang-patch:patch-id': 'p',
        edit: [{ 'ietf-yang-patch:edit-id': 'e', operation: 'remove', target: '/song=R' }],
      },
    });
    expect(parseYangPatch(schema, body, { encoding: 'json', target: ALBUM }).edits[0]!.editId).toBe('e');
  });

  test('defaults where to last for insert and move', () => {
    const [edit] = json(
      [{ 'edit-id': 'e', operation: 'move', target: '/song=1' }],
      '/example-jukebox:jukebox/playlist=Foo-One',
    ).edits;
    expect(edit!.where).toBe('last');
  });

  test('reads the same patch from XML with edit-id anywhere in the entry', () => {
    const patch = xml(
      `<yang-patch xmlns="${YP}"><patch-id>p</patch-id><edit><operation>delete</operation><target>/song=R</target><edit-id>e</edit-id></edit></yang-patch>`,
    );
    expect(patch.edits[0]).toMatchObject({ editId: 'e', operation: 'delete', targetText: '/song=R' });
  });

  test('keeps the namespace prefixes an XML value uses', () => {
    const patch = xml(
      `<yang-patch xmlns="${YP}" xmlns:j="http://example.com/ns/example-jukebox"><patch-id>p</patch-id><edit><edit-id>e</edit-id><operation>merge</operation><target>/genre</target><value><j:genre>j:rock</j:genre></value></edit></yang-patch>`,
    );
    expect(patch.edits[0]!.value![0]!.value).toBe('example-jukebox:rock');
  });
});

describe('a malformed body', () => {
  test('without an edit-id is refused naming the edit position', () => {
    const e = patchError(() => json([{ operation: 'remove', target: '/song=R' }]));
    expect(e.code).toBe('EDIT_ID_MISSING');
    expect(e.message).toContain('edit #1');
    expect(e.errorTag).toBe('missing-element');
    expect(e.patchId).toBe('p1');
  });

  test('with a duplicate edit-id is refused naming the edit-id', () => {
    const e = patchError(() =>
      json([
        { 'edit-id': 'x', operation: 'remove', target: '/song=R' },
        { 'edit-id': 'x', operation: 'remove', target: '/song=S' },
      ]),
    );
    expect(e).toMatchObject({ code: 'EDIT_ID_DUPLICATE', editId: 'x' });
    expect(e.message).toContain('"x"');
  });

  test('with an unknown operation is refused naming the edit-id and the operation', () => {
    const e = patchError(() => json([{ 'edit-id': 'e7', operation: 'upsert', target: '/song=R' }]));
    expect(e).toMatchObject({ code: 'OPERATION_UNKNOWN', editId: 'e7', errorTag: 'invalid-value' });
    expect(e.message).toBe(
      'edit "e7": unknown operation: "upsert" is not an enum of type enumeration (expected one of: create, delete, insert, merge, move, replace, remove)',
    );
  });

  test('with a create that has no value is refused naming the edit-id', () => {
    const e = patchError(() => json([{ 'edit-id': 'c1', operation: 'create', target: '/song=R' }]));
    expect(e).toMatchObject({ code: 'VALUE_MISSING', editId: 'c1', errorTag: 'missing-element' });
    expect(e.message).toBe('edit "c1": create needs a "value"');
  });

  test('with a value on delete is refused', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'd', operation: 'delete', target: '/song=R', value: song('R') }]),
    );
    expect(e).toMatchObject({ code: 'VALUE_NOT_ALLOWED', editId: 'd' });
  });

  test('without patch-id is refused as a global error', () => {
    const body = JSON.stringify({ 'ietf-yang-patch:yang-patch': { edit: [] } });
    const e = patchError(() => parseYangPatch(schema, body, { encoding: 'json' }));
    expect(e).toMatchObject({ code: 'PATCH_ID_MISSING', editId: undefined });
  });

  test('without operation or target is refused naming the edit-id', () => {
    expect(patchError(() => json([{ 'edit-id': 'e', target: '/song=R' }])).code).toBe('OPERATION_MISSING');
    expect(patchError(() => json([{ 'edit-id': 'e', operation: 'remove' }])).code).toBe('TARGET_MISSING');
  });

  test('with a target naming no schema node is refused with the path problem', () => {
    const e = patchError(() => json([{ 'edit-id': 't', operation: 'remove', target: '/track=R' }]));
    expect(e).toMatchObject({ code: 'TARGET_INVALID', editId: 't' });
    expect(e.message).toMatch(
      /^edit "t": target "\/track=R" is not a data resource: .*unknown schema node 'track'/,
    );
  });

  test('with a key value its type refuses is refused with the type problem', () => {
    const e = patchError(() =>
      json(
        [{ 'edit-id': 'k', operation: 'remove', target: '/song=abc' }],
        '/example-jukebox:jukebox/playlist=Foo-One',
      ),
    );
    expect(e).toMatchObject({ code: 'TARGET_INVALID', editId: 'k' });
    expect(e.message).toContain('invalid value for leaf "index"');
  });

  test('with a value that is not the target node is refused', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'v', operation: 'create', target: '/song=R', value: song('Other') }]),
    );
    expect(e).toMatchObject({ code: 'VALUE_MISMATCH', editId: 'v' });
    expect(e.message).toContain('key "name" is "Other" in the value but "R" in the target');
  });

  test('with a value its schema refuses is refused with the codec error-tag', () => {
    const e = patchError(() =>
      json([
        {
          'edit-id': 'v',
          operation: 'merge',
          target: '/year',
          value: { 'example-jukebox:year': 1800 },
        },
      ]),
    );
    expect(e).toMatchObject({ code: 'VALUE_INVALID', editId: 'v', errorTag: 'invalid-value' });
    expect(e.errorPath?.json).toBe(
      "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/year",
    );
  });

  test('names the node inside the value that is wrong, with its whole path', () => {
    const e = patchError(() =>
      json([
        {
          'edit-id': 'n',
          operation: 'merge',
          target: '/song=Rope',
          value: { 'example-jukebox:song': [{ name: 'Rope', bogus: 1 }] },
        },
      ]),
    );
    expect(e).toMatchObject({ code: 'VALUE_INVALID', editId: 'n', errorTag: 'unknown-element' });
    const album = "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']";
    expect(e.errorPath?.json).toBe(`${album}/song[name='Rope']/bogus`);
    expect(e.errorPath?.namespaces).toEqual({ jbox: 'http://example.com/ns/example-jukebox' });
    expect(e.message).toContain(`(${album}/song[name='Rope']/bogus)`);
  });

  test('with state data in value is refused', () => {
    const e = patchError(() =>
      json(
        [
          {
            'edit-id': 's',
            operation: 'merge',
            target: '/status',
            value: { 'patch-test:status': { up: true } },
          },
        ],
        '/patch-test:settings',
      ),
    );
    expect(e).toMatchObject({ code: 'VALUE_INVALID', editId: 's' });
  });

  test('with insert on a list that is not ordered-by user is refused', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'i', operation: 'insert', target: '/song=R', where: 'first', value: song('R') }]),
    );
    expect(e).toMatchObject({ code: 'NOT_USER_ORDERED', editId: 'i' });
  });

  test('with where "before" and no point is refused', () => {
    const e = patchError(() =>
      json(
        [{ 'edit-id': 'm', operation: 'move', target: '/song=1', where: 'before' }],
        '/example-jukebox:jukebox/playlist=Foo-One',
      ),
    );
    expect(e).toMatchObject({ code: 'POINT_INVALID', editId: 'm' });
  });

  test('with a point in another list is refused', () => {
    const e = patchError(() =>
      json(
        [{ 'edit-id': 'm', operation: 'move', target: '/song=1', where: 'after', point: '/name' }],
        '/example-jukebox:jukebox/playlist=Foo-One',
      ),
    );
    expect(e).toMatchObject({ code: 'POINT_INVALID', editId: 'm' });
  });

  test('with where on a merge is refused', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'w', operation: 'remove', target: '/song=R', where: 'first' }]),
    );
    expect(e).toMatchObject({ code: 'POINT_INVALID', editId: 'w' });
  });

  test('with an unknown member in an edit is refused naming the edit-id', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'u', operation: 'remove', target: '/song=R', colour: 'red' }]),
    );
    expect(e).toMatchObject({ code: 'ELEMENT_UNKNOWN', editId: 'u' });
  });

  test('with a number as edit-id is refused', () => {
    const e = patchError(() => json([{ 'edit-id': 1, operation: 'remove', target: '/song=R' }]));
    expect(e.code).toBe('ELEMENT_INVALID');
  });

  test('that is not JSON is refused as malformed-message', () => {
    const e = patchError(() =>
      parseYangPatch(schema, '{"ietf-yang-patch:yang-patch":', { encoding: 'json' }),
    );
    expect(e).toMatchObject({ code: 'BODY_MALFORMED', errorTag: 'malformed-message' });
  });

  test('naming a member twice in one object, in a value too, is refused as malformed-message', () => {
    const body =
      '{"ietf-yang-patch:yang-patch":{"patch-id":"p","edit":[{"edit-id":"1","operation":"create",' +
      '"target":"/song=A","value":{"example-jukebox:song":[{"name":"A","name":"B"}]}}]}}';
    const e = patchError(() => parseYangPatch(schema, body, { encoding: 'json' }));
    expect(e).toMatchObject({ code: 'BODY_MALFORMED', errorTag: 'malformed-message' });
    expect(e.message).toContain('member "name" appears twice');
  });

  test('with another top-level member is refused', () => {
    const e = patchError(() => parseYangPatch(schema, '{"yang-patch":{}}', { encoding: 'json' }));
    expect(e.code).toBe('BODY_MALFORMED');
  });

  test('that is not well-formed XML is refused as malformed-message', () => {
    const e = patchError(() => xml(`<yang-patch xmlns="${YP}"><patch-id>p</patch-id>`));
    expect(e.code).toBe('BODY_MALFORMED');
  });

  test('in XML with a second target is refused naming the edit-id', () => {
    const e = patchError(() =>
      xml(
        `<yang-patch xmlns="${YP}"><patch-id>p</patch-id><edit><edit-id>t2</edit-id><operation>remove</operation><target>/song=A</target><target>/song=B</target></edit></yang-patch>`,
      ),
    );
    expect(e).toMatchObject({ code: 'ELEMENT_DUPLICATE', editId: 't2' });
  });

  test('in XML in the wrong namespace is refused', () => {
    const e = patchError(() => xml('<yang-patch xmlns="urn:other"><patch-id>p</patch-id></yang-patch>'));
    expect(e.code).toBe('BODY_MALFORMED');
  });

  test('above the size limit is refused as too-big', () => {
    const e = patchError(() => parseYangPatch(schema, jsonPatch([]), { encoding: 'json', maxSize: 10 }));
    expect(e).toMatchObject({ code: 'LIMIT_EXCEEDED', errorTag: 'too-big' });
  });

  test('with more edits than the limit is refused', () => {
    const edits = [1, 2, 3].map((i) => ({ 'edit-id': `e${i}`, operation: 'remove', target: `/song=${i}` }));
    const e = patchError(() =>
      parseYangPatch(schema, jsonPatch(edits), { encoding: 'json', target: ALBUM, maxEdits: 2 }),
    );
    expect(e.code).toBe('LIMIT_EXCEEDED');
  });

  test('nested deeper than the limit is refused', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const e = patchError(() => parseYangPatch(schema, deep, { encoding: 'json' }));
    expect(e.code).toBe('LIMIT_EXCEEDED');
  });
});

describe('key and value length limits', () => {
  const limited = (edits: Record<string, unknown>[]) =>
    parseYangPatch(schema, jsonPatch(edits), {
      encoding: 'json',
      target: ALBUM,
      maxKeyLength: 16,
      maxStringLength: 32,
    });

  test('a list key in a value longer than maxKeyLength is refused as invalid-value naming the limit', () => {
    const value = { 'example-jukebox:album': [{ name: 'Wasting Light', ...song('k'.repeat(17)) }] };
    const e = patchError(() => limited([{ 'edit-id': 'k', operation: 'merge', target: '/', value }]));
    expect(e).toMatchObject({ code: 'VALUE_INVALID', errorTag: 'invalid-value', editId: 'k' });
    expect(e.message).toContain('16 bytes');
  });

  test('a list key in a target longer than maxKeyLength is refused, with no value to decode', () => {
    const e = patchError(() =>
      limited([{ 'edit-id': 't', operation: 'delete', target: `/song=${'k'.repeat(17)}` }]),
    );
    expect(e).toMatchObject({ code: 'TARGET_INVALID', errorTag: 'invalid-value', editId: 't' });
    expect(e.message).toContain('16 bytes');
  });

  test('a leaf value longer than maxStringLength is refused as invalid-value naming the limit', () => {
    const value = { 'example-jukebox:song': [{ name: 'A', location: `/${'x'.repeat(40)}` }] };
    const e = patchError(() => limited([{ 'edit-id': 'v', operation: 'create', target: '/song=A', value }]));
    expect(e).toMatchObject({ code: 'VALUE_INVALID', errorTag: 'invalid-value' });
    expect(e.message).toContain('32 bytes');
  });

  test('keys and values within the limits are accepted', () => {
    const patch = limited([{ 'edit-id': 'ok', operation: 'create', target: '/song=A', value: song('A') }]);
    expect(patch.edits).toHaveLength(1);
  });
});

describe('data node limit', () => {
  // The album entry and its key are two data nodes, and each song two more.
  const edit = (id: string, from: number, count: number) => ({
    'edit-id': id,
    operation: 'merge',
    target: '/',
    value: {
      'example-jukebox:album': [
        { name: 'Wasting Light', song: Array.from({ length: count }, (_, i) => ({ name: `s${from + i}` })) },
      ],
    },
  });
  const limited = (edits: Record<string, unknown>[]) =>
    parseYangPatch(schema, jsonPatch(edits), { encoding: 'json', target: ALBUM, maxNodes: 10 });

  test('counts the values of all edits together: the edit that goes past it is refused as too-big', () => {
    const e = patchError(() => limited([edit('a', 0, 3), edit('b', 3, 3)]));
    expect(e).toMatchObject({ code: 'VALUE_INVALID', errorTag: 'too-big', editId: 'b' });
    expect(e.message).toContain('more than 2 data nodes');
  });

  test('accepts values of exactly the limit', () => {
    expect(limited([edit('a', 0, 2), edit('b', 2, 1)]).edits).toHaveLength(2);
  });
});

describe('the yang-patch template of ietf-yang-patch', () => {
  test('decides the values of where', () => {
    const e = patchError(() =>
      json([{ 'edit-id': 'w', operation: 'move', target: '/song=R', where: 'middle' }]),
    );
    expect([e.code, e.message]).toEqual([
      'POINT_INVALID',
      'edit "w": unknown where: "middle" is not an enum of type enumeration (expected one of: before, after, first, last)',
    ]);
  });

  test('must be in the schema', async () => {
    const bare = await loadSchema({ paths: [SHARED_YANG], modules: ['example-jukebox'] });
    const e = patchError(() => parseYangPatch(bare, jsonPatch([]), { encoding: 'json' }));
    expect([e.code, e.errorTag]).toEqual(['SCHEMA_INCOMPLETE', 'operation-failed']);
  });
});

describe('the datastore as request target', () => {
  test('resolves module-qualified edit targets from the top', () => {
    const patch = parseYangPatch(
      schema,
      jsonPatch([
        { 'edit-id': 'e', operation: 'remove', target: '/example-jukebox:jukebox/playlist=Foo-One' },
      ]),
      { encoding: 'json' },
    );
    expect(patch.requestTarget).toEqual([]);
    expect(patch.edits[0]!.target.map((s) => s.schema.name)).toEqual(['jukebox', 'playlist']);
  });

  test('accepts a merge of "/" holding top-level nodes of several modules', () => {
    const patch = parseYangPatch(
      schema,
      jsonPatch([
        {
          'edit-id': 'e',
          operation: 'merge',
          target: '/',
          value: {
            'example-jukebox:jukebox': { player: { gap: '0.5' } },
            'patch-test:settings': { mode: 'x' },
          },
        },
      ]),
      { encoding: 'json' },
    );
    expect(patch.edits[0]!.target).toEqual([]);
    expect(patch.edits[0]!.value!.map((n) => n.schema.name)).toEqual(['jukebox', 'settings']);
  });

  test('refuses replace of "/" (YANG Patch cannot replace the datastore)', () => {
    const e = patchError(() =>
      parseYangPatch(schema, jsonPatch([{ 'edit-id': 'r', operation: 'replace', target: '/', value: {} }]), {
        encoding: 'json',
      }),
    );
    expect(e).toMatchObject({ code: 'TARGET_INVALID', editId: 'r' });
  });

  test('refuses an unqualified first segment', () => {
    const e = patchError(() =>
      parseYangPatch(schema, jsonPatch([{ 'edit-id': 'q', operation: 'remove', target: '/jukebox' }]), {
        encoding: 'json',
      }),
    );
    expect(e).toMatchObject({ code: 'TARGET_INVALID', editId: 'q' });
  });
});

describe('a malformed XML body', () => {
  const edit = (inner: string) => `<edit>${inner}</edit>`;
  const body = (...edits: string[]) =>
    `<yang-patch xmlns="${YP}"><patch-id>x</patch-id>${edits.join('')}</yang-patch>`;

  test('without an edit-id is refused naming the edit position', () => {
    const e = patchError(() => xml(body(edit('<operation>remove</operation><target>/song=R</target>'))));
    expect(e).toMatchObject({ code: 'EDIT_ID_MISSING', patchId: 'x' });
    expect(e.message).toContain('edit #1');
  });

  test('with a duplicate edit-id is refused naming the edit-id', () => {
    const one = edit('<edit-id>d</edit-id><operation>remove</operation><target>/song=R</target>');
    expect(patchError(() => xml(body(one, one)))).toMatchObject({ code: 'EDIT_ID_DUPLICATE', editId: 'd' });
  });

  test('with an unknown operation is refused naming the edit-id', () => {
    const e = patchError(() =>
      xml(body(edit('<edit-id>u</edit-id><operation>copy</operation><target>/song=R</target>'))),
    );
    expect(e).toMatchObject({ code: 'OPERATION_UNKNOWN', editId: 'u' });
  });

  test('with a create that has no value is refused naming the edit-id', () => {
    const e = patchError(() =>
      xml(body(edit('<edit-id>c</edit-id><operation>create</operation><target>/song=R</target>'))),
    );
    expect(e).toMatchObject({ code: 'VALUE_MISSING', editId: 'c' });
  });

  test('with an element of another namespace in an edit is refused naming the edit-id', () => {
    const e = patchError(() =>
      xml(
        body(edit('<edit-id>n</edit-id><operation>remove</operation><target xmlns="urn:x">/song=R</target>')),
      ),
    );
    expect(e).toMatchObject({ code: 'ELEMENT_UNKNOWN', editId: 'n' });
  });

  test('with text beside the edit leaves is refused', () => {
    const e = patchError(() => xml(body(edit('<edit-id>t</edit-id>stray<operation>remove</operation>'))));
    expect(e).toMatchObject({ code: 'ELEMENT_INVALID', editId: 't' });
  });

  test('with a value in an unknown namespace is refused with the codec error-tag', () => {
    const e = patchError(() =>
      xml(
        body(
          edit(
            '<edit-id>v</edit-id><operation>create</operation><target>/song=R</target><value><song xmlns="urn:nowhere"><name>R</name></song></value>',
          ),
        ),
      ),
    );
    expect(e).toMatchObject({ code: 'VALUE_INVALID', editId: 'v', errorTag: 'unknown-namespace' });
  });

  test('with a DOCTYPE is refused as malformed', () => {
    const e = patchError(() => xml(`<!DOCTYPE x [<!ENTITY a "b">]>${body()}`));
    expect(e.code).toBe('BODY_MALFORMED');
  });
});
