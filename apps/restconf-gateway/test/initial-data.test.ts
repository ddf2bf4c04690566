import { describe, expect, test } from 'vitest';
import { initialConfig } from '../src/initial-data.js';

const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const JUKEBOX =
  '<jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>5</gap></player></jukebox>';

describe('initialConfig', () => {
  test('passes top-level data elements through without the XML declaration', () => {
    const text = `<?xml version="1.0" encoding="UTF-8"?>\n${JUKEBOX}<x xmlns="urn:x"/>`;
    expect(initialConfig(text)).toBe(`\n${JUKEBOX}<x xmlns="urn:x"/>`);
  });

  test('takes the children of a NETCONF <config> element in the base namespace', () => {
    expect(initialConfig(`<config xmlns="${NC}">${JUKEBOX}</config>`)).toBe(JUKEBOX);
  });

  test('takes the children of a <config> element in no namespace', () => {
    expect(initialConfig(`<config>${JUKEBOX}</config>`)).toBe(JUKEBOX);
  });

  test('keeps the prefixes declared on <config> bound in its children', () => {
    const text = `<nc:config xmlns:nc="${NC}" xmlns:jb="http://example.com/ns/example-jukebox"><jb:jukebox/></nc:config>`;
    expect(initialConfig(text)).toBe(
      `<jb:jukebox xmlns:nc="${NC}" xmlns:jb="http://example.com/ns/example-jukebox"/>`,
    );
  });

  test('leaves a data node named config of another namespace alone', () => {
    const text = '<config xmlns="urn:example:config"><a/></config>';
    expect(initialConfig(text)).toBe(text);
  });

  test('refuses a file that is no XML with the reader error, which names the place', () => {
    expect(() => initialConfig('<config><a></config>')).toThrow(
      expect.objectContaining({ code: 'XML_MALFORMED', line: 1 }),
    );
  });
});
