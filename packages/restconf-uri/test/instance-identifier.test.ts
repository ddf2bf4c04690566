import { describe, expect, test } from 'vitest';
import {
  parseApiPath,
  resolveApiPath,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
  xpathLiteral,
} from '../src/index.js';
import { errorOf } from './helpers/error-of.js';
import { testSchema } from './helpers/schema.js';

const resolve = (text: string) => resolveApiPath(parseApiPath(text), testSchema);
const JBOX = 'http://example.com/ns/example-jukebox';

describe('xpathLiteral', () => {
  test('uses single quotes by default', () => {
    expect(xpathLiteral('Foo')).toBe("'Foo'");
  });

  test('uses double quotes for a value holding a single quote', () => {
    expect(xpathLiteral("Guns N' Roses")).toBe(`"Guns N' Roses"`);
  });

  test('uses concat for a value holding both quotes', () => {
    expect(xpathLiteral(`a'b"c`)).toBe(`concat('a', "'", 'b"c')`);
  });
});

describe('toInstanceIdentifier', () => {
  test('prefixes every node and key with the given module prefix', () => {
    const id = toInstanceIdentifier(resolve('/example-jukebox:jukebox/library/artist=Foo'), {
      prefixes: { 'example-jukebox': 'jbox' },
    });
    expect(id.path).toBe("/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo']");
    expect(id.namespaces).toEqual([{ prefix: 'jbox', namespace: JBOX }]);
    expect(id.xmlns).toBe(` xmlns:jbox="${JBOX}"`);
  });

  test('uses module names as prefixes by default and declares each namespace once', () => {
    const id = toInstanceIdentifier(
      resolve('/example-jukebox:jukebox/library/artist=A/album=B/example-augment:rating'),
    );
    expect(id.path).toBe(
      "/example-jukebox:jukebox/example-jukebox:library/example-jukebox:artist[example-jukebox:name='A']" +
        "/example-jukebox:album[example-jukebox:name='B']/example-augment:rating",
    );
    expect(id.namespaces.map((d) => d.prefix)).toEqual(['example-jukebox', 'example-augment']);
  });

  test('writes one predicate per key in key order', () => {
    expect(
      toInstanceIdentifier(resolve('/example-top:top/list1=a,,c'), {
        prefixes: new Map([['example-top', 't']]),
      }).path,
    ).toBe("/t:top/t:list1[t:key1='a'][t:key2=''][t:key3='c']");
  });

  test('writes a leaf-list entry as a dot predicate', () => {
    expect(toInstanceIdentifier(resolve('/example-top:top/Y=5')).path).toBe(
      "/example-top:top/example-top:Y[.='5']",
    );
  });

  test('quotes a key holding a single quote with double quotes', () => {
    expect(
      toInstanceIdentifier(resolve("/example-jukebox:jukebox/library/artist=Guns%20N'%20Roses")).path,
    ).toContain(`[example-jukebox:name="Guns N' Roses"]`);
  });

  test('rejects one prefix for two namespaces', () => {
    const error = errorOf(() =>
      toInstanceIdentifier(
        resolve('/example-jukebox:jukebox/library/artist=A/album=B/example-augment:rating'),
        {
          prefixes: { 'example-jukebox': 'x', 'example-augment': 'x' },
        },
      ),
    );
    expect(error.code).toBe('FORMAT_UNREPRESENTABLE');
  });

  test('rejects an invalid prefix', () => {
    expect(
      errorOf(() => toInstanceIdentifier(resolve('/example-top:top'), { prefixes: { 'example-top': 'a:b' } }))
        .code,
    ).toBe('FORMAT_UNREPRESENTABLE');
  });

  test('escapes the namespace in the xmlns attributes', () => {
    const id = toInstanceIdentifier({
      steps: [{ node: { kind: 'container', module: 'm', namespace: 'urn:a&b', name: 'c' } }],
    });
    expect(id.xmlns).toBe(' xmlns:m="urn:a&amp;b"');
  });
});

describe('toJsonInstanceIdentifier', () => {
  test('qualifies only the first node and module changes (RFC 7951 section 6.11)', () => {
    expect(
      toJsonInstanceIdentifier(
        resolve('/example-jukebox:jukebox/library/artist=A/album=B/example-augment:rating'),
      ),
    ).toBe("/example-jukebox:jukebox/library/artist[name='A']/album[name='B']/example-augment:rating");
  });

  test('writes a leaf-list entry as a dot predicate', () => {
    expect(toJsonInstanceIdentifier(resolve('/example-top:top/Y=x'))).toBe("/example-top:top/Y[.='x']");
  });

  test('drops a redundant module name the api-path carried', () => {
    expect(toJsonInstanceIdentifier(resolve('/example-jukebox:jukebox/example-jukebox:player'))).toBe(
      '/example-jukebox:jukebox/player',
    );
  });
});
