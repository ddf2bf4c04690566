import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatQuery, parseDateAndTime, parseQuery, type TargetKind } from '../src/index.js';
import { apiPath, fieldsTree, identifier, onlyOwnErrors } from './helpers/arbitraries.js';

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
