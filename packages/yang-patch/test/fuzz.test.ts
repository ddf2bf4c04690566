import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeJson, decodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyPlan,
  encodeStatusJson,
  encodeStatusXml,
  parseYangPatch,
  patchStatus,
  planPatch,
  statusOfResult,
  toEditConfig,
  YangPatchError,
} from '../src/index.js';
import { FIXTURES, jukeboxDatastore, jukeboxSchema } from './helpers.js';

let schema: SchemaTree;
let store: InstanceTree;
beforeAll(async () => {
  schema = await jukeboxSchema();
  store = jukeboxDatastore(schema);
});

const PLAYLIST = '/example-jukebox:jukebox/playlist=Foo-One';

/** Runs the whole pipeline; only YangPatchError may escape. */
function pipeline(body: string, encoding: 'json' | 'xml', target?: string): void {
  try {
    const patch = parseYangPatch(schema, body, { encoding, maxDepth: 64, ...(target ? { target } : {}) });
    const plan = planPatch(patch);
    const result = applyPlan(store, plan);
    encodeStatusJson(statusOfResult(patch.patchId, result));
    encodeStatusXml(statusOfResult(patch.patchId, result));
    toEditConfig(schema, plan);
  } catch (e) {
    if (!YangPatchError.isInstance(e)) throw e;
    encodeStatusXml(patchStatus(undefined, e));
  }
}

const ID =
  "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Bridge Burning']";
const targets = fc.constantFrom(
  '/song=1',
  '/song=2',
  '/song=9',
  '/song',
  '/',
  '/name',
  '/song=1/id',
  '//',
  '/x:y',
  '/song=1,2',
  '%',
  '',
);
const values = fc.constantFrom<unknown>(
  { 'example-jukebox:song': [{ index: 9, id: ID }] },
  { song: [{ index: 1, id: ID }] },
  { 'example-jukebox:song': [{ index: 'x' }] },
  { 'example-jukebox:name': 'Foo-One' },
  { 'example-jukebox:playlist': [] },
  [],
  null,
  { 'ietf-restconf:data': {} },
  {},
);
const edit = fc.record(
  {
    'edit-id': fc.oneof(fc.constantFrom('e1', 'e2', 'e3'), fc.integer()),
    operation: fc.constantFrom(
      'create',
      'delete',
      'insert',
      'merge',
      'move',
      'replace',
      'remove',
      'patch',
      7,
    ),
    target: targets,
    point: targets,
    where: fc.constantFrom('before', 'after', 'first', 'last', 'middle'),
    value: values,
  },
  { requiredKeys: [] },
);
const patches = fc.record(
  {
    'patch-id': fc.oneof(fc.string(), fc.constant(3)),
    comment: fc.string(),
    edit: fc.array(edit, { maxLength: 5 }),
  },
  { requiredKeys: [] },
);

/** Text built from the tokens of both encodings, so that bodies get past the first character. */
const tokens = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{',
        '}',
        '[',
        ']',
        ':',
        ',',
        '"',
        '"ietf-yang-patch:yang-patch"',
        '"edit"',
        '"patch-id"',
        'null',
        '1',
      ),
      fc.constantFrom(
        '<',
        '>',
        '</',
        '/>',
        '=',
        'yang-patch',
        'edit',
        'xmlns',
        '"urn:ietf:params:xml:ns:yang:ietf-yang-patch"',
      ),
      fc.constantFrom('&amp;', '&#0;', '<!DOCTYPE x>', '<?x?>', '<![CDATA[', ' ', '\u0000', '\uD800'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('no body crashes the parser', () => {
  test('any text as a JSON body yields a patch or a YangPatchError', () => {
    fc.assert(
      fc.property(tokens, (s) => pipeline(s, 'json', PLAYLIST)),
      { numRuns: 500 },
    );
  });

  test('any text as an XML body yields a patch or a YangPatchError', () => {
    fc.assert(
      fc.property(tokens, (s) => pipeline(s, 'xml', PLAYLIST)),
      { numRuns: 500 },
    );
  });

  test('any JSON value yields a patch or a YangPatchError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => pipeline(JSON.stringify(v), 'json', PLAYLIST)),
    );
  });

  test('patch-shaped JSON with arbitrary edits runs the whole pipeline without a foreign error', () => {
    fc.assert(
      fc.property(patches, (p) =>
        pipeline(JSON.stringify({ 'ietf-yang-patch:yang-patch': p }), 'json', PLAYLIST),
      ),
      { numRuns: 500 },
    );
  });

  test('an RFC 8072 XML example cut and spliced anywhere yields a patch or a YangPatchError', () => {
    const body = readFileSync(path.join(FIXTURES, 'rfc8072/a1.3-insert-list-entry/request.xml'), 'utf8');
    fc.assert(
      fc.property(fc.nat(body.length), fc.nat(body.length), fc.string({ maxLength: 8 }), (a, b, insert) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        pipeline(body.slice(0, from) + insert + body.slice(to), 'xml', PLAYLIST);
      }),
      { numRuns: 500 },
    );
  });

  test('deep nesting in either encoding is refused, not a stack overflow', () => {
    const json = `{"ietf-yang-patch:yang-patch":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`;
    expect(() => parseYangPatch(schema, json, { encoding: 'json' })).toThrow(YangPatchError);
    const xml = `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`;
    expect(() => parseYangPatch(schema, xml, { encoding: 'xml' })).toThrow(YangPatchError);
  });
});

describe('yang-patch-status for any text', () => {
  test('decodes through the codec in both encodings whatever the patch-id, edit-id and message', () => {
    // Any UTF-16 code unit, lone surrogates and characters XML cannot carry included.
    const text = fc.string({ unit: fc.nat(0xffff).map((c) => String.fromCharCode(c)), maxLength: 40 });
    fc.assert(
      fc.property(text, fc.option(text, { nil: undefined }), text, (patchId, editId, message) => {
        const status = patchStatus(patchId, new YangPatchError('DATA_EXISTS', message, { editId }));
        const options = { kind: 'yang-data', yangData: 'ietf-yang-patch:yang-patch-status' } as const;
        decodeJson(schema, encodeStatusJson(status), options);
        decodeXml(schema, encodeStatusXml(status), options);
      }),
      { numRuns: 300 },
    );
  });
});
