import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  classifyTarget,
  formatApiPath,
  formatFields,
  parseApiPath,
  parseFields,
  percentDecode,
  percentEncode,
  resolveApiPath,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
  toSubtreeFilter,
} from '../src/index.js';
import { apiPath, fieldsTree, onlyOwnErrors, pathLike } from './helpers/arbitraries.js';
import { testSchema } from './helpers/schema.js';

describe('api-path properties', () => {
  test('parseApiPath(formatApiPath(p)) equals p for generated paths and keys', () => {
    fc.assert(
      fc.property(apiPath, (path) => {
        expect(parseApiPath(formatApiPath(path))).toEqual(path);
      }),
      { numRuns: 2000 },
    );
  });

  test('formatApiPath(parseApiPath(s)) equals s for formatted paths', () => {
    fc.assert(
      fc.property(apiPath, (path) => {
        const text = formatApiPath(path);
        expect(formatApiPath(parseApiPath(text))).toBe(text);
      }),
    );
  });

  test('percentDecode(percentEncode(s)) equals s for any well-formed string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(percentDecode(percentEncode(value), 'value')).toBe(value);
      }),
    );
  });

  test('parseApiPath throws only RestconfUriError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), pathLike), (text) =>
        onlyOwnErrors(() => parseApiPath(text)),
      ),
      {
        numRuns: 5000,
      },
    );
  });

  test('classifyTarget throws only RestconfUriError on arbitrary paths', () => {
    const prefixed = fc
      .tuple(
        fc.constantFrom(
          '/restconf/data',
          '/restconf/ds/',
          '/restconf/operations/',
          '/restconf/streams/',
          '/restconf/yang/',
          '/restconf/',
        ),
        pathLike,
      )
      .map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.oneof(fc.string(), prefixed), (text) => onlyOwnErrors(() => classifyTarget(text))),
      {
        numRuns: 3000,
      },
    );
  });

  test('resolution and formatting throw only RestconfUriError on any parsed path', () => {
    const jukeboxish = fc
      .array(
        fc.constantFrom(
          'example-jukebox:jukebox',
          'library',
          'artist=A',
          'artist',
          'album=x,y',
          'name',
          'example-top:top',
          'list1=a,b,c',
          'Y=1',
          'Y',
          'log',
          'blob',
          'x',
          'example-augment:rating',
          'example-jukebox:play',
          '%00',
        ),
        { maxLength: 6 },
      )
      .map((parts) => `/${parts.join('/')}`);
    fc.assert(
      fc.property(jukeboxish, (text) =>
        onlyOwnErrors(() => {
          const resolved = resolveApiPath(parseApiPath(text), testSchema);
          toJsonInstanceIdentifier(resolved);
          toInstanceIdentifier(resolved);
          toSubtreeFilter(resolved);
        }),
      ),
      { numRuns: 3000 },
    );
  });
});

describe('fields properties', () => {
  test('parseFields(formatFields(t)) equals t for generated trees', () => {
    fc.assert(
      fc.property(fieldsTree, (tree) => {
        expect(parseFields(formatFields(tree))).toEqual(tree);
      }),
      { numRuns: 1000 },
    );
  });

  test('parseFields throws only RestconfUriError on arbitrary strings', () => {
    const fieldsLike = fc.string({
      unit: fc.constantFrom('a', 'b', ':', '/', ';', '(', ')', ' ', '1'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fieldsLike), (text) => onlyOwnErrors(() => parseFields(text))),
      {
        numRuns: 3000,
      },
    );
  });
});
