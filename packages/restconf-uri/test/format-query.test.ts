import { describe, expect, test } from 'vitest';
import { formatQuery, parseApiPath, parseDateAndTime, parseFields, parseQuery } from '../src/index.js';

describe('formatQuery', () => {
  test('gives the empty string for no parameters', () => {
    expect(formatQuery({})).toBe('');
  });

  test('writes parameters in RFC order with readable fields', () => {
    expect(
      formatQuery({
        fields: parseFields('ietf-yang-library:modules-state/module(name;revision)'),
        depth: 'unbounded',
        content: 'config',
      }),
    ).toBe('content=config&depth=unbounded&fields=ietf-yang-library:modules-state/module(name;revision)');
  });

  test('encodes point a second time as RFC 8040 section 4.8.6 shows', () => {
    const text = formatQuery({
      insert: 'after',
      point: parseApiPath('/example-jukebox:jukebox/playlist=Foo%20One'),
    });
    expect(text).toBe('insert=after&point=/example-jukebox:jukebox/playlist%3DFoo%2520One');
    expect(parseQuery(text, { method: 'POST', resource: 'data' }).point?.segments[1]?.keys).toEqual([
      'Foo One',
    ]);
  });

  test('encodes a plus sign in a time offset', () => {
    expect(formatQuery({ startTime: parseDateAndTime('2016-07-01T00:00:00+02:00')! })).toBe(
      'start-time=2016-07-01T00:00:00%2B02:00',
    );
  });

  test('writes flags bare and confirmed as 1', () => {
    expect(formatQuery({ withEtag: true, confirmed: true, persist: 'a&b' })).toBe(
      'with-etag&confirmed=1&persist=a%26b',
    );
  });

  test('writes vendor parameters last, bare when empty', () => {
    expect(
      formatQuery({
        depth: 1,
        vendor: new Map([
          ['acme:x', ''],
          ['acme:y', 'a b'],
        ]),
      }),
    ).toBe('depth=1&acme:x&acme:y=a%20b');
  });
});
