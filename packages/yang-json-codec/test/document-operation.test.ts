import { loadSchema } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { operationOfJson, operationOfXml } from '../src/document-operation';
import { CodecError } from '../src/errors';
import { SHARED_YANG } from './helpers';

const schema = await loadSchema({ paths: [SHARED_YANG], modules: ['example-jukebox', 'example-actions'] });
const JUKEBOX = 'http://example.com/ns/example-jukebox';

describe('operationOfXml', () => {
  test('finds the rpc of an operation element', () => {
    expect(operationOfXml(schema, `<play xmlns="${JUKEBOX}"><playlist>x</playlist></play>`)?.name).toBe(
      'play',
    );
  });

  test('finds the action at the end of the data nodes leading to it', () => {
    const xml =
      '<interfaces xmlns="https://example.com/ns/example-actions"><interface><name>eth0</name>' +
      '<get-last-reset-time/></interface></interfaces>';
    expect(operationOfXml(schema, xml)?.schemaPath).toBe(
      schema.find('/example-actions:interfaces/interface/get-last-reset-time')?.schemaPath,
    );
  });

  test('finds nothing in RESTCONF input, which names no operation', () => {
    expect(
      operationOfXml(schema, `<input xmlns="${JUKEBOX}"><playlist>x</playlist></input>`),
    ).toBeUndefined();
  });

  test('throws only CodecError on arbitrary input', () => {
    const piece = fc.constantFrom(
      '<rpc xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">',
      '</rpc>',
      `<play xmlns="${JUKEBOX}">`,
      '</play>',
      '<interfaces xmlns="https://example.com/ns/example-actions">',
      '<interface>',
      '<reset/>',
      '</interface>',
      '<x',
      '&y;',
      'text',
    );
    fc.assert(
      fc.property(
        fc.array(piece).map((p) => p.join('')),
        (xml) => {
          try {
            operationOfXml(schema, xml);
          } catch (e) {
            expect(CodecError.isInstance(e)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('operationOfJson', () => {
  test('gives the action with the object of its parameters', () => {
    const found = operationOfJson(schema, {
      'example-actions:interfaces': { interface: [{ name: 'eth0', reset: { delay: 5 } }] },
    });
    expect([found?.operation.name, found?.content]).toEqual(['reset', { delay: 5 }]);
  });

  test('finds nothing when a list on the way has two entries', () => {
    const value = {
      'example-actions:interfaces': {
        interface: [
          { name: 'a', reset: {} },
          { name: 'b', reset: {} },
        ],
      },
    };
    expect(operationOfJson(schema, value)).toBeUndefined();
  });

  test('finds nothing in RESTCONF input, which names no operation', () => {
    expect(operationOfJson(schema, { 'example-jukebox:input': { playlist: 'x' } })).toBeUndefined();
  });

  test('never throws on arbitrary JSON', () => {
    const key = fc.constantFrom(
      'example-jukebox:play',
      'example-actions:interfaces',
      'interface',
      'reset',
      'name',
      'x:y',
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.array(tie('node'), { maxLength: 2 }),
        fc.dictionary(key, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        operationOfJson(schema, v);
      }),
      { numRuns: 500 },
    );
  });
});
