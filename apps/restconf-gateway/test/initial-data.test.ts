import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { initialConfig } from '../src/initial-data.js';
import { EXAMPLE_YANG_DIR } from '../src/options.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadSchema({ paths: [EXAMPLE_YANG_DIR], modules: ['example-jukebox'] });
});

const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const JUKEBOX =
  '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>5</gap></player></jukebox>';

describe('initialConfig', () => {
  test('passes top-level data elements through without the XML declaration', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${JUKEBOX}<x xmlns="urn:x"/>`;
    expect(initialConfig(text, schema)).toBe(`\n${JUKEBOX}<x xmlns="urn:x"/>`);
  });

  test('takes the children of a NETCONF <config> element in the base namespace', () => {
    expect(initialConfig(`<config xmlns="${NC}">${JUKEBOX}</config>`, schema)).toBe(JUKEBOX);
  });

  test('takes the children of a <config> element in no namespace', () => {
    expect(initialConfig(`<config>${JUKEBOX}</config>`, schema)).toBe(JUKEBOX);
  });

  test('keeps the prefixes declared on <config> bound in its children', () => {
    const text = `<nc:config xmlns:nc="${NC}" xmlns:jb="http://example.com/ns/example-jukebox"><jb:jukebox/></nc:config>`;
    expect(initialConfig(text, schema)).toBe(
      `<jb:jukebox xmlns:nc="${NC}" xmlns:jb="http://example.com/ns/example-jukebox"/>`,
    );
  });

  test('leaves a data node named config of another namespace alone', () => {
    const text = '<config xmlns="urn:example:config"><a/></config>';
    expect(initialConfig(text, schema)).toBe(text);
  });

  test('refuses a file that is no XML with the reader error, which names the place', () => {
    expect(() => initialConfig('<config><a></config>', schema)).toThrow(
      expect.objectContaining({ code: 'XML_MALFORMED', line: 1 }),
    );
  });

  test('reads a JSON file as the content of a PUT of the datastore, wrapped or not', () => {
    const json = { 'example-jukebox:jukebox': { player: { gap: '0.5' } } };
    const xml = JUKEBOX.replace('<gap>5</gap>', '<gap>0.5</gap>');
    expect(initialConfig(JSON.stringify(json), schema)).toBe(xml);
    expect(initialConfig(`\n ${JSON.stringify({ 'ietf-restconf:data': json })}`, schema)).toBe(xml);
  });

  test('refuses JSON that is not the schema data, naming the member', () => {
    expect(() => initialConfig('{"example-jukebox:jukebox":{"nope":1}}', schema)).toThrow(/nope/);
  });

  test('refuses a file that holds no data element', () => {
    expect(() => initialConfig('just text', schema)).toThrow('it holds no XML element and is no JSON object');
  });
});
