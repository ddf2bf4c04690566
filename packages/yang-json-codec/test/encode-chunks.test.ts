import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeJson, encodeJson, encodeJsonChunks, encodeXml, encodeXmlChunks } from '../src/index';
import { testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
});

/** A jukebox with one artist whose album list (the fourth level) holds `n` entries. */
function jukebox(n: number) {
  const album = Array.from({ length: n }, (_, i) => ({ name: `album-${i}`, year: 2000 + (i % 20) }));
  return decodeJson(
    schema,
    { 'example-jukebox:jukebox': { library: { artist: [{ name: 'a', album }] } } },
    { kind: 'data' },
  );
}

const CHUNK = 64 * 1024;

describe('chunked encoding', () => {
  test('a long list at the fourth level is written in JSON chunks of about 64 KiB', () => {
    const tree = jukebox(10_000);
    const chunks = [...encodeJsonChunks(tree, { wrapper: true })];
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThan(CHUNK + 1024);
    expect(chunks.join('')).toBe(encodeJson(tree, { wrapper: true }));
  });

  test('a long list at the fourth level is written in XML chunks of about 64 KiB', () => {
    const tree = jukebox(10_000);
    const chunks = [...encodeXmlChunks(tree, { wrapper: true })];
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.length).toBeLessThan(CHUNK + 1024);
    expect(chunks.join('')).toBe(encodeXml(tree, { wrapper: true }));
  });

  test('an object with nothing to write is written as {} in both layouts', () => {
    const tree = decodeJson(schema, { 'example-jukebox:jukebox': { library: {} } }, { kind: 'data' });
    const options = { returnEmptyNpContainers: false, wrapper: true };
    expect(encodeJson(tree, options)).toBe('{"ietf-restconf:data":{"example-jukebox:jukebox":{}}}');
    expect(encodeJson(tree, { ...options, indent: 2 })).toBe(
      '{\n  "ietf-restconf:data": {\n    "example-jukebox:jukebox": {}\n  }\n}',
    );
  });
});
