import { decodeJson, decodeXml } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  encodeStatusJson,
  encodeStatusXml,
  patchStatus,
  statusToJson,
  YangPatchError,
} from '../src/index.js';
import { jukeboxSchema } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await jukeboxSchema();
});

const AS_STATUS = { kind: 'yang-data', yangData: 'ietf-yang-patch:yang-patch-status' } as const;
const exists = new YangPatchError('DATA_EXISTS', 'Data already exists; cannot be created', {
  editId: 'edit1',
  errorPath: {
    json: "/example-jukebox:jukebox/library/artist[name='Foo Fighters']",
    xml: "/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo Fighters']",
    namespaces: { jbox: 'http://example.com/ns/example-jukebox' },
  },
});

describe('yang-patch-status', () => {
  test('is ok with [null] in JSON on success (RFC 8072 A.1.2)', () => {
    expect(statusToJson(patchStatus('add-songs-patch-2'))).toEqual({
      'ietf-yang-patch:yang-patch-status': { 'patch-id': 'add-songs-patch-2', ok: [null] },
    });
  });

  test('is an empty <ok/> in XML on success', () => {
    expect(encodeStatusXml(patchStatus('p'))).toBe(
      '<yang-patch-status xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>p</patch-id><ok/></yang-patch-status>',
    );
  });

  test('puts an error with an edit-id under edit-status/edit', () => {
    expect(statusToJson(patchStatus('add-songs-patch', exists))).toEqual({
      'ietf-yang-patch:yang-patch-status': {
        'patch-id': 'add-songs-patch',
        'edit-status': {
          edit: [
            {
              'edit-id': 'edit1',
              errors: {
                error: [
                  {
                    'error-type': 'application',
                    'error-tag': 'data-exists',
                    'error-path': "/example-jukebox:jukebox/library/artist[name='Foo Fighters']",
                    'error-message': 'Data already exists; cannot be created',
                  },
                ],
              },
            },
          ],
        },
      },
    });
  });

  test('declares the prefixes of the XML error-path on it', () => {
    expect(encodeStatusXml(patchStatus('p', exists))).toContain(
      '<error-path xmlns:jbox="http://example.com/ns/example-jukebox">/jbox:jukebox/jbox:library/jbox:artist[jbox:name=\'Foo Fighters\']</error-path>',
    );
  });

  test('puts an error without an edit-id under global errors', () => {
    const error = new YangPatchError('PATCH_ID_MISSING', 'no patch-id', {
      errorInfo: { 'bad-element': 'patch-id' },
    });
    const body = statusToJson(patchStatus(undefined, error))['ietf-yang-patch:yang-patch-status'] as Record<
      string,
      unknown
    >;
    expect(body['patch-id']).toBe('');
    expect(body['edit-status']).toBeUndefined();
    expect(body.errors).toEqual({
      error: [
        {
          'error-type': 'application',
          'error-tag': 'missing-element',
          'error-message': 'no patch-id',
          'error-info': { 'bad-element': 'patch-id' },
        },
      ],
    });
  });

  test('takes the patch-id from the error when none is given', () => {
    const error = new YangPatchError('OPERATION_UNKNOWN', 'bad', { editId: 'e', patchId: 'from-body' });
    expect(patchStatus(undefined, error).patchId).toBe('from-body');
  });

  test('escapes markup in XML text', () => {
    const error = new YangPatchError('TARGET_INVALID', 'a <b> & c', { editId: 'x<y' });
    const xml = encodeStatusXml(patchStatus('p&q', error));
    expect(xml).toContain('<patch-id>p&amp;q</patch-id>');
    expect(xml).toContain('<edit-id>x&lt;y</edit-id>');
    expect(xml).toContain('<error-message>a &lt;b&gt; &amp; c</error-message>');
  });

  test('decodes as ietf-yang-patch:yang-patch-status through the codec in both encodings', () => {
    for (const status of [
      patchStatus('p'),
      patchStatus('p', exists),
      patchStatus('p', new YangPatchError('BODY_MALFORMED', 'x')),
      patchStatus('p', new YangPatchError('ELEMENT_UNKNOWN', 'x', { errorInfo: { 'bad-element': 'q' } })),
    ]) {
      expect(() => decodeJson(schema, encodeStatusJson(status), AS_STATUS)).not.toThrow();
      expect(() => decodeXml(schema, encodeStatusXml(status), AS_STATUS)).not.toThrow();
    }
  });
});
