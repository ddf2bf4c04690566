import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseApiPath, resolveApiPath, toSubtreeFilter } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';
import { testSchema } from './helpers/schema.js';

const resolve = (text: string) => resolveApiPath(parseApiPath(text), testSchema);
const fixture = (name: string) =>
  readFileSync(path.resolve(__dirname, 'fixtures/subtree-filter', `${name}.xml`), 'utf8').trimEnd();

describe('toSubtreeFilter', () => {
  test('selects a list entry with its key as a content match node', () => {
    expect(toSubtreeFilter(resolve('/example-jukebox:jukebox/library/artist=Foo%20Fighters'))).toBe(
      fixture('artist-entry'),
    );
  });

  test('nests several lists with several keys', () => {
    expect(toSubtreeFilter(resolve('/example-top:top/list1=a,b,c/list2=d,e/X'))).toBe(
      fixture('nested-lists'),
    );
  });

  test('declares a new default namespace where the module changes', () => {
    expect(
      toSubtreeFilter(resolve('/example-jukebox:jukebox/library/artist=A/album=B/example-augment:rating')),
    ).toBe(fixture('augment'));
  });

  test('selects a leaf-list entry by value', () => {
    expect(toSubtreeFilter(resolve('/example-top:top/Y=7'))).toBe(
      '<top xmlns="https://example.com/ns/example-top"><Y>7</Y></top>',
    );
  });

  test('ends in an empty selection node for a container', () => {
    expect(toSubtreeFilter(resolve('/example-jukebox:jukebox/player'))).toBe(
      '<jukebox xmlns="http://example.com/ns/example-jukebox"><player/></jukebox>',
    );
  });

  test('escapes key values', () => {
    expect(toSubtreeFilter(resolve("/example-jukebox:jukebox/library/artist=%3Ca%3E%26%22'%0D"))).toContain(
      `<name>&lt;a&gt;&amp;"'&#13;</name>`,
    );
  });

  test('gives an empty string for the whole datastore', () => {
    expect(toSubtreeFilter(resolve('/'))).toBe('');
  });

  test('rejects a key XML cannot carry', () => {
    expect(errorOf(() => toSubtreeFilter(resolve('/example-jukebox:jukebox/library/artist=%00'))).code).toBe(
      'FORMAT_UNREPRESENTABLE',
    );
  });
});
