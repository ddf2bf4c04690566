import { compileSchema, parseModule } from '@yangkit/yang-schema';
import { expect, test } from 'vitest';
import { decodeJson, decodeXml, encodeJson } from '../src/index';
import { codecError } from './helpers';

// Two modules with an identity of the same name: a value's prefix decides which one it names.
const schema = compileSchema([
  parseModule(`module ida { yang-version 1.1; namespace "urn:ida"; prefix a;
    identity kind; identity x { base kind; }
    container c { leaf-list v { type identityref { base kind; } } } }`),
  parseModule(`module idb { yang-version 1.1; namespace "urn:idb"; prefix b;
    import ida { prefix a; } identity x { base a:kind; } }`),
]);

test('an identityref value resolves with the prefixes of its own element, however often its text recurs', () => {
  const inner = (first: string, second: string) =>
    `<c xmlns="urn:ida" xmlns:p="${first}"><v>p:x</v><v xmlns:p="${second}">p:x</v></c>`;
  expect(encodeJson(decodeXml(schema, inner('urn:ida', 'urn:idb')))).toBe('{"ida:c":{"v":["x","idb:x"]}}');
  expect(encodeJson(decodeXml(schema, inner('urn:idb', 'urn:ida')))).toBe('{"ida:c":{"v":["idb:x","x"]}}');
});

test('an identity text that resolves in no scope is refused each time, after one that resolves', () => {
  const xml = '<c xmlns="urn:ida" xmlns:p="urn:ida"><v>p:x</v><v xmlns:p="urn:nowhere">p:x</v></c>';
  expect(codecError(() => decodeXml(schema, xml)).errorTag).toBe('invalid-value');
  expect(codecError(() => decodeJson(schema, { 'ida:c': { v: ['x', 'idc:x'] } })).errorTag).toBe(
    'invalid-value',
  );
  expect(encodeJson(decodeJson(schema, { 'ida:c': { v: ['x', 'idb:x'] } }))).toBe(
    '{"ida:c":{"v":["x","idb:x"]}}',
  );
});
