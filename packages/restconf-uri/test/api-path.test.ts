import { describe, expect, test } from 'vitest';
import { formatApiPath, parseApiPath } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';

describe('parseApiPath on RFC 8040 section 3.5.3 examples', () => {
  test('parses the leaf X path with two lists and module only on the first segment', () => {
    expect(parseApiPath('/example-top:top/list1=key1,key2,key3/list2=key4,key5/X')).toEqual({
      segments: [
        { module: 'example-top', name: 'top' },
        { name: 'list1', keys: ['key1', 'key2', 'key3'] },
        { name: 'list2', keys: ['key4', 'key5'] },
        { name: 'X' },
      ],
    });
  });

  test('parses a leaf-list instance as a single value', () => {
    expect(parseApiPath('/example-top:top/Y=instance-value').segments[1]).toEqual({
      name: 'Y',
      keys: ['instance-value'],
    });
  });

  test('decodes reserved characters in a key and reads ,, as an empty key', () => {
    const path = parseApiPath('/example-top:top/list1=%2C%27"%3A"%20%2F,,foo');
    expect(path.segments[1]?.keys).toEqual([',\'":" /', '', 'foo']);
  });

  test('parses the jukebox artist path with an encoded space', () => {
    expect(
      parseApiPath('/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light'),
    ).toEqual({
      segments: [
        { module: 'example-jukebox', name: 'jukebox' },
        { name: 'library' },
        { name: 'artist', keys: ['Foo Fighters'] },
        { name: 'album', keys: ['Wasting Light'] },
      ],
    });
  });
});

describe('parseApiPath edge cases', () => {
  test('reads the empty string and a lone slash as the empty path', () => {
    expect(parseApiPath('')).toEqual({ segments: [] });
    expect(parseApiPath('/')).toEqual({ segments: [] });
  });

  test('accepts a path without a leading slash', () => {
    expect(parseApiPath('a:b/c')).toEqual(parseApiPath('/a:b/c'));
  });

  test('ignores one trailing slash', () => {
    expect(parseApiPath('/a:b/c/')).toEqual(parseApiPath('/a:b/c'));
  });

  test('reads a bare = as one empty key', () => {
    expect(parseApiPath('/a:list=').segments[0]?.keys).toEqual(['']);
  });

  test('keeps a plus sign literal', () => {
    expect(parseApiPath('/a:l=1+1').segments[0]?.keys).toEqual(['1+1']);
  });

  test('decodes multi-byte UTF-8 keys', () => {
    expect(parseApiPath('/a:l=%E2%82%AC%F0%9F%98%80').segments[0]?.keys).toEqual(['€😀']);
  });

  test('keeps raw non-ASCII characters in a key', () => {
    expect(parseApiPath('/a:l=Motörhead').segments[0]?.keys).toEqual(['Motörhead']);
  });

  test('keeps a raw = inside a key value', () => {
    expect(parseApiPath('/a:l=x=y').segments[0]?.keys).toEqual(['x=y']);
  });

  test('decodes percent-encoded identifier characters', () => {
    expect(parseApiPath('/example%2Djukebox:jukebox').segments[0]).toEqual({
      module: 'example-jukebox',
      name: 'jukebox',
    });
  });
});

describe('parseApiPath errors', () => {
  test('rejects a double slash naming its offset', () => {
    const error = errorOf(() => parseApiPath('/a:b//c'));
    expect(error.code).toBe('URI_EMPTY_SEGMENT');
    expect(error.offset).toBe(5);
    expect(error.message).toContain('offset 5');
  });

  test('rejects a path of only two slashes', () => {
    expect(errorOf(() => parseApiPath('//')).code).toBe('URI_EMPTY_SEGMENT');
  });

  test('rejects two trailing slashes', () => {
    expect(errorOf(() => parseApiPath('/a:b//')).code).toBe('URI_EMPTY_SEGMENT');
  });

  test('rejects a truncated percent escape naming it', () => {
    const error = errorOf(() => parseApiPath('/a:l=ab%4'));
    expect(error.code).toBe('URI_BAD_PERCENT_ENCODING');
    expect(error.offset).toBe(7);
    expect(error.badValue).toBe('%4');
    expect(error.httpStatus).toBe(400);
    expect(error.errorTag).toBe('invalid-value');
  });

  test('rejects percent escapes that are not UTF-8', () => {
    const error = errorOf(() => parseApiPath('/a:l=%C3%28'));
    expect(error.code).toBe('URI_BAD_PERCENT_ENCODING');
    expect(error.message).toContain("'%C3%28'");
  });

  test('rejects an identifier starting with a digit naming the segment', () => {
    const error = errorOf(() => parseApiPath('/a:b/9lives'));
    expect(error.code).toBe('URI_BAD_IDENTIFIER');
    expect(error.message).toContain("'9lives'");
    expect(error.offset).toBe(5);
  });

  test('rejects two colons in one identifier', () => {
    expect(errorOf(() => parseApiPath('/a:b:c')).code).toBe('URI_BAD_IDENTIFIER');
  });

  test('rejects an empty module name', () => {
    expect(errorOf(() => parseApiPath('/:b')).code).toBe('URI_BAD_IDENTIFIER');
  });

  test('rejects keys without a node name', () => {
    const error = errorOf(() => parseApiPath('/a:b/=x'));
    expect(error.code).toBe('URI_BAD_IDENTIFIER');
    expect(error.message).toContain('empty node name');
  });

  test('rejects a raw question mark', () => {
    expect(errorOf(() => parseApiPath('/a:b?x')).code).toBe('URI_UNESCAPED_CHARACTER');
  });

  test('rejects a path longer than maxLength', () => {
    expect(errorOf(() => parseApiPath(`/a:${'b'.repeat(20)}`, { maxLength: 10 })).code).toBe('URI_TOO_LONG');
  });

  test('rejects more segments than maxSegments', () => {
    expect(errorOf(() => parseApiPath('/a:b/c/d/e', { maxSegments: 3 })).code).toBe('URI_TOO_LONG');
  });

  test('rejects more keys than maxKeys', () => {
    expect(errorOf(() => parseApiPath('/a:l=1,2,3', { maxKeys: 2 })).code).toBe('URI_TOO_LONG');
  });

  test('adds the caller offset to error offsets', () => {
    expect(errorOf(() => parseApiPath('/a:b//c', { offset: 100 })).offset).toBe(105);
  });
});

describe('wildcard keys', () => {
  test('marks a key value written as a bare * and not one written as %2A', () => {
    expect(parseApiPath('/m:l=*,%2A/x=a,*').segments).toEqual([
      { module: 'm', name: 'l', keys: ['*', '*'], wildcards: [0] },
      { name: 'x', keys: ['a', '*'], wildcards: [1] },
    ]);
  });

  test('formats a literal * key as %2A and a wildcard bare', () => {
    const text = formatApiPath({ segments: [{ module: 'm', name: 'l', keys: ['*', '*'], wildcards: [1] }] });
    expect(text).toBe('/m:l=%2A,*');
  });
});

describe('formatApiPath', () => {
  test('formats the RFC key example with the reserved characters encoded', () => {
    const text = formatApiPath({
      segments: [
        { module: 'example-top', name: 'top' },
        { name: 'list1', keys: [',\'":" /', '', 'foo'] },
      ],
    });
    expect(text).toBe("/example-top:top/list1=%2C'%22:%22%20%2F,,foo");
    expect(parseApiPath(text).segments[1]?.keys).toEqual([',\'":" /', '', 'foo']);
  });

  test('encodes the characters that break URL handling', () => {
    expect(formatApiPath({ segments: [{ module: 'm', name: 'l', keys: ['=%?#[]&+;\\'] }] })).toBe(
      '/m:l=%3D%25%3F%23%5B%5D%26%2B%3B%5C',
    );
  });

  test('encodes non-ASCII as UTF-8 and keeps colons readable', () => {
    expect(formatApiPath({ segments: [{ module: 'm', name: 'l', keys: ['fe80::1', 'é'] }] })).toBe(
      '/m:l=fe80::1,%C3%A9',
    );
  });

  test('formats the empty path as the empty string', () => {
    expect(formatApiPath({ segments: [] })).toBe('');
  });

  test('rejects a name that is not an identifier', () => {
    expect(errorOf(() => formatApiPath({ segments: [{ name: 'a b' }] })).code).toBe('FORMAT_UNREPRESENTABLE');
  });

  test('rejects an empty keys array', () => {
    expect(errorOf(() => formatApiPath({ segments: [{ name: 'l', keys: [] }] })).code).toBe(
      'FORMAT_UNREPRESENTABLE',
    );
  });

  test('rejects a key holding a lone surrogate', () => {
    expect(errorOf(() => formatApiPath({ segments: [{ name: 'l', keys: ['\uD800'] }] })).code).toBe(
      'FORMAT_UNREPRESENTABLE',
    );
  });
});
