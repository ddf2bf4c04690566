import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SchemaTree } from '@yangkit/yang-schema';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, test } from 'vitest';
import { compileJsonValidator, decodeJson, encodeJson, toJsonSchema } from '../src/index';
import { FIXTURES, testSchema } from './helpers';

let schema: SchemaTree;
let check: ValidateFunction;
beforeAll(async () => {
  schema = await testSchema();
  check = new Ajv({ strict: false, allErrors: true }).compile(toJsonSchema(schema));
}, 60_000);

const casesDir = path.join(FIXTURES, 'cases');
const dataCases = readdirSync(casesDir).filter(
  (c) =>
    !existsSync(path.join(casesDir, c, 'case.json')) && existsSync(path.join(casesDir, c, 'expected.json')),
);

describe('toJsonSchema', () => {
  test.each(dataCases)('accepts what the encoder wrote for golden case %s', (c) => {
    const doc = JSON.parse(readFileSync(path.join(casesDir, c, 'expected.json'), 'utf8'));
    expect(check(doc), JSON.stringify(check.errors)).toBe(true);
  });

  test('accepts the encoding of decoded JSON input', () => {
    const doc = decodeJson(
      schema,
      readFileSync(path.join(casesDir, 'rfc8040-jukebox', 'input.json'), 'utf8'),
    );
    expect(check(JSON.parse(encodeJson(doc)))).toBe(true);
  });

  test('refuses a number above the range of its type', () => {
    expect(check({ 'codec-types:types': { u8: 300 } })).toBe(false);
  });

  test('refuses an int64 written as a JSON number', () => {
    expect(check({ 'codec-types:types': { i64: 5 } })).toBe(false);
  });

  test('refuses a member without its module at the top level', () => {
    expect(check({ types: {} })).toBe(false);
  });

  test('refuses a list entry without its key', () => {
    expect(check({ 'codec-types:entry': [{ id: 1, weight: 1 }] })).toBe(false);
  });

  test('lists identities in both name forms where RFC 7951 allows it', () => {
    expect(check({ 'codec-types:types': { pet: 'cat' } })).toBe(true);
    expect(check({ 'codec-types:types': { pet: 'codec-types:cat' } })).toBe(true);
    expect(check({ 'codec-types:types': { pet: 'codec-types:animal' } })).toBe(false);
  });

  test('leaves out state data for configuration bodies', () => {
    const config = new Ajv({ strict: false }).compile(toJsonSchema(schema, { configOnly: true }));
    expect(config({ 'codec-types:settings': { 'state-counter': 1 } })).toBe(false);
    expect(check({ 'codec-types:settings': { 'state-counter': 1 } })).toBe(true);
  });
});

describe('compileJsonValidator', () => {
  test('reports where a document breaks the JSON Schema', () => {
    const checkDoc = compileJsonValidator(schema);
    expect(checkDoc({ 'codec-types:types': { u8: 1 } })).toEqual({ valid: true, errors: [] });
    const r = checkDoc({ 'codec-types:types': { u8: 'x' } });
    expect(r.valid).toBe(false);
    expect(r.errors[0]?.instancePath).toBe('/codec-types:types/u8');
  });
});
