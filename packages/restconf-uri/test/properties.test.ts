import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type ApiPath,
  type ApiPathSegment,
  classifyTarget,
  type FieldsNode,
  formatApiPath,
  formatFields,
  formatQuery,
  parseApiPath,
  parseDateAndTime,
  parseFields,
  parseQuery,
  percentDecode,
  percentEncode,
  RestconfUriError,
  resolveApiPath,
  type TargetKind,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
  toSubtreeFilter,
} from '../src/index.js';
import { testSchema } from './helpers/schema.js';

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/);

/** Any Unicode text, with the characters that matter to api-paths made frequent. */
const keyValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(',', '/', '=', '%', ' ', '+', '?', '#', ':', "'", '"', 'é', '😀', 'a'),
    maxLength: 8,
  }),
);

const segment: fc.Arbitrary<ApiPathSegment> = fc
  .record(
    { module: identifier, name: identifier, keys: fc.array(keyValue, { minLength: 1, maxLength: 4 }) },
    { requiredKeys: ['name'] },
  )
  .map((s) => s as ApiPathSegment);

const apiPath: fc.Arbitrary<ApiPath> = fc.array(segment, { maxLength: 6 }).map((segments) => ({ segments }));

/** Strings over the api-path alphabet, to reach deep into the parser. */
const pathLike = fc.string({
  unit: fc.constantFrom('/', ':', '=', ',', '%', '2', 'C', 'F', 'a', 'b', '-', '.', '?', ' ', 'é', '\uD800'),
  maxLength: 40,
});

function onlyOwnErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!RestconfUriError.isInstance(error)) throw error;
    expect(error).toBeInstanceOf(RestconfUriError);
    expect([400, 404]).toContain(error.httpStatus);
  }
}

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

const fieldsTree: fc.Arbitrary<FieldsNode[]> = fc.letrec<{ nodes: FieldsNode[] }>((tie) => ({
  nodes: fc.uniqueArray(
    fc.record(
      {
        module: identifier,
        name: identifier,
        children: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant([]), tie('nodes')),
      },
      { requiredKeys: ['name', 'children'] },
    ),
    { minLength: 1, maxLength: 4, selector: (n) => `${n.module ?? ''}:${n.name}` },
  ),
})).nodes;

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

describe('query properties', () => {
  const kinds: TargetKind[] = ['api-root', 'datastore', 'data', 'operation', 'stream', 'nmda-data', 'schema'];
  const queryLike = fc
    .array(
      fc.tuple(
        fc.constantFrom(
          'depth',
          'content',
          'fields',
          'insert',
          'point',
          'filter',
          'start-time',
          'stop-time',
          'confirmed',
          'persist',
          'a:b',
          'x',
          '%zz',
          '',
        ),
        fc.option(fc.string({ maxLength: 12 })),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([n, v]) => (v === null ? n : `${n}=${v}`)).join('&'));

  test('parseQuery throws only RestconfUriError on arbitrary queries', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), queryLike),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        fc.constantFrom(...kinds),
        (search, method, resource) => onlyOwnErrors(() => parseQuery(search, { method, resource })),
      ),
      { numRuns: 3000 },
    );
  });

  const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 10 });
  const readQuery = fc.record(
    {
      content: fc.constantFrom('config' as const, 'nonconfig' as const, 'all' as const),
      depth: fc.oneof(fc.integer({ min: 1, max: 65535 }), fc.constant('unbounded' as const)),
      fields: fieldsTree,
      withDefaults: fc.constantFrom(
        'report-all' as const,
        'report-all-tagged' as const,
        'trim' as const,
        'explicit' as const,
      ),
      withEtag: fc.constant(true as const),
      withLastModified: fc.constant(true as const),
      withOwners: fc.constant(true as const),
    },
    { requiredKeys: [] },
  );
  const vendor = fc
    .uniqueArray(
      fc.tuple(
        fc.tuple(identifier, identifier).map(([a, b]) => `${a}:${b}`),
        fc.oneof(fc.constant(''), text),
      ),
      {
        selector: ([name]) => name,
        maxLength: 3,
      },
    )
    .map((entries) => new Map(entries));

  test('parseQuery(formatQuery(q)) equals q for generated GET queries', () => {
    fc.assert(
      fc.property(readQuery, vendor, (q, v) => {
        const query = { ...q, vendor: v };
        expect(parseQuery(formatQuery(query), { method: 'GET', resource: 'data' })).toEqual(query);
      }),
      { numRuns: 500 },
    );
  });

  test('parseQuery(formatQuery(q)) equals q for generated edit queries', () => {
    const editQuery = fc.record(
      {
        insert: fc.constantFrom('before' as const, 'after' as const),
        point: apiPath.filter((p) => p.segments.length > 0),
        confirmed: fc.constant(true as const),
        confirmTimeout: fc.integer({ min: 1, max: 4294967295 }),
        persist: text,
      },
      { requiredKeys: ['insert', 'point', 'confirmed', 'persist'] },
    );
    fc.assert(
      fc.property(editQuery, (q) => {
        const query = { ...q, vendor: new Map() };
        expect(parseQuery(formatQuery(query), { method: 'POST', resource: 'data' })).toEqual(query);
      }),
      { numRuns: 500 },
    );
  });

  test('parseQuery(formatQuery(q)) equals q for generated stream queries', () => {
    const time = fc
      .date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2200-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => parseDateAndTime(d.toISOString())!);
    fc.assert(
      fc.property(text, time, time, (filter, a, b) => {
        fc.pre(a.epochNs !== b.epochNs);
        const [startTime, stopTime] = a.epochNs < b.epochNs ? [a, b] : [b, a];
        const query = { filter, startTime, stopTime, vendor: new Map() };
        expect(parseQuery(formatQuery(query), { method: 'GET', resource: 'stream' })).toEqual(query);
      }),
      { numRuns: 300 },
    );
  });
});
