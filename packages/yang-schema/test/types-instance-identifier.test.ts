import { describe, expect, test } from 'vitest';
import { parseInstanceIdentifier, YangTypeError } from '../src/types/index';

describe('parseInstanceIdentifier', () => {
  test('splits a path into prefixed steps', () => {
    expect(parseInstanceIdentifier('/ex:system/ex:services/ex:ssh')).toEqual([
      { prefix: 'ex', name: 'system', predicates: [] },
      { prefix: 'ex', name: 'services', predicates: [] },
      { prefix: 'ex', name: 'ssh', predicates: [] },
    ]);
  });

  test('reads key predicates with either quote', () => {
    expect(parseInstanceIdentifier(`/ex:server[ex:ip="192.0.2.1"][ex:port='80']`)).toEqual([
      {
        prefix: 'ex',
        name: 'server',
        predicates: [
          { kind: 'key', prefix: 'ex', name: 'ip', value: '192.0.2.1' },
          { kind: 'key', prefix: 'ex', name: 'port', value: '80' },
        ],
      },
    ]);
  });

  test('keeps the other quote inside a quoted value', () => {
    expect(parseInstanceIdentifier(`/ex:user[ex:name="o'brien"]`)[0]!.predicates).toEqual([
      { kind: 'key', prefix: 'ex', name: 'name', value: "o'brien" },
    ]);
  });

  test('reads a leaf-list predicate', () => {
    expect(parseInstanceIdentifier("/ex:cipher[.='aes']")[0]!.predicates).toEqual([
      { kind: 'leaf-list', value: 'aes' },
    ]);
  });

  test('reads a position predicate', () => {
    expect(parseInstanceIdentifier('/ex:port[3]')[0]!.predicates).toEqual([
      { kind: 'position', position: 3 },
    ]);
  });

  test('allows spaces and tabs inside predicates', () => {
    expect(parseInstanceIdentifier("/a:b[ \tname = 'x' ]")[0]!.predicates).toEqual([
      { kind: 'key', name: 'name', value: 'x' },
    ]);
  });

  test('accepts steps without prefixes, as the JSON encoding writes them', () => {
    expect(parseInstanceIdentifier('/ietf-interfaces:interfaces/interface')[1]).toEqual({
      name: 'interface',
      predicates: [],
    });
  });

  test.each([
    ['', /expected "\/"/],
    ['ex:a', /expected "\/"/],
    ['/', /expected an identifier/],
    ['/ex:a/', /expected an identifier/],
    ['/ex:', /expected an identifier/],
    ['/1a', /expected an identifier/],
    ['/a[0]', /positive integer/],
    ['/a[01]', /positive integer/],
    ['/a[b=c]', /expected a quoted string/],
    ["/a[b='c]", /unterminated quoted string/],
    ["/a[b='c'", /expected "]"/],
    ["/a[.='x'][.='y']", /not a mix/],
    ['/a[1][2]', /not a mix/],
    ["/a[b='c'][1]", /not a mix/],
    ['/a[99999999999999999999]', /too large/],
    ['/a b', /expected "\/"/],
  ])('rejects %j', (text, reason) => {
    expect(() => parseInstanceIdentifier(text)).toThrow(reason);
  });

  test('throws YangTypeError naming the offset', () => {
    expect(() => parseInstanceIdentifier('/a[')).toThrow(YangTypeError);
    expect(() => parseInstanceIdentifier('/a[')).toThrow(/at offset 3/);
  });
});
